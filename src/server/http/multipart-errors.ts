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
