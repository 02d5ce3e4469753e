import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../errors.js';

/**
 * Busboy's limits for a form of at most one file of `fileSize` bytes and `fields` text fields of
 * `fieldSize` bytes at most: every count bounded, so no encoding of a request gets past them.
 */
export function oneFileFormLimits({ fileSize, fields, fieldSize }: { fileSize: number; fields: number; fieldSize?: number }) {
  return { fileSize, files: 1, fields, parts: fields + 2, fieldNameSize: 100, ...(fieldSize === undefined ? {} : { fieldSize }), headerPairs: 20 };
}

/** What a form's reader tells its sender when a limit of its own is passed. */
export interface MultipartMessages {
  fileTooLarge: () => AppError;
  tooManyFiles: () => AppError;
  tooManyParts: () => AppError;
  /** The upload was cut off or is not multipart as the header says. */
  malformed: string;
}

/**
 * @fastify/multipart's own errors carry FST_ codes; each becomes a message a person can act on,
 * in the words of the form that was sent. An AppError (ours, thrown while reading) stays as it is.
 */
export function toMultipartError(error: unknown, messages: MultipartMessages): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return messages.fileTooLarge();
    case 'FST_FILES_LIMIT':
      return messages.tooManyFiles();
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return messages.tooManyParts();
    case 'FST_PROTO_VIOLATION':
      return badRequest('The form has a field with a forbidden name.');
    default:
      return badRequest(messages.malformed);
  }
}

/** What `readOneFileForm` read: the file as `keep` kept it, its name, and the form's one checkbox. */
export interface OneFileForm<Kept> {
  kept: Kept;
  /** The name the browser gave, without a folder, at most 200 characters. */
  fileName: string;
  checked: boolean;
}

/**
 * Reads a form of one file (in the field "file") and one checkbox (`checkbox`, sent as "true" or
 * "on"), under the limits the route's multipart plugin was registered with (`oneFileFormLimits`).
 * `keep` takes the file's part: it reads it (into memory, or to a file) or refuses it with an
 * AppError, and must drain a part it refuses. A second file, any other file field, a limit passed
 * or a form cut off: the AppError `messages` says, after the rest of the body was read.
 */
export async function readOneFileForm<Kept>(
  request: FastifyRequest,
  options: { checkbox: string; messages: MultipartMessages & { noFile: () => AppError }; keep: (part: MultipartFile, fileName: string) => Promise<Kept> },
): Promise<OneFileForm<Kept>> {
  const { checkbox, messages, keep } = options;
  let read: { kept: Kept; fileName: string } | undefined;
  let checked = false;
  let failure: AppError | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === checkbox) checked = part.value === 'true' || part.value === 'on';
        continue;
      }
      if (failure || part.fieldname !== 'file' || read) {
        part.file.resume();
        failure ??= messages.tooManyFiles();
        continue;
      }
      const fileName = (part.filename.replaceAll('\\', '/').split('/').at(-1) ?? '').slice(0, 200);
      try {
        read = { kept: await keep(part, fileName), fileName };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        part.file.resume();
        failure = error;
      }
    }
  } catch (error) {
    failure ??= toMultipartError(error, messages);
  }
  if (failure) throw failure;
  if (!read) throw messages.noFile();
  return { ...read, checked };
}
