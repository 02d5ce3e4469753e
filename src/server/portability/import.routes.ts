import fastifyMultipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { IMPORT_FILE_TYPES, IMPORT_UPLOAD_MAX_BYTES, IMPORT_UPLOAD_MAX_LABEL, importJobSchema } from '../../shared/import-schema.js';
import type { AppDeps } from '../app-deps.js';
import type { SessionUser } from '../core/session-user.js';
import { privateAnswer } from '../cache/route-caching.js';
import { badRequest, conflict, notFound, payloadTooLarge, unsupportedMediaType } from '../errors.js';
import { oneFileFormLimits, readOneFileForm } from '../http/multipart-errors.js';
import { findImport, ImportRunning, registerImportJob, startImport, writingImport, type ImportUpload } from './import/import-jobs.js';
import { personOf } from './import/imported-post.js';
import { idParams, parseId } from '../http/ids.js';

const UPLOAD_LIMITS = oneFileFormLimits({ fileSize: IMPORT_UPLOAD_MAX_BYTES, fields: 2, fieldSize: 100 });
const tooLarge = () => payloadTooLarge(`The file is larger than ${IMPORT_UPLOAD_MAX_LABEL}. Import it with \`npm run import\` on the server instead.`);
const wrongType = (name: string) =>
  unsupportedMediaType(`"${name}" is not an export this page reads: choose a Ghost export (.json or .zip), a WordPress export (.xml or .zip) or a .zip of Markdown files.`);

/**
 * The /import page's API (moderators only; everyone else gets the same 404 as the moderation
 * API): an upload starts the import in the background and answers at once; the page polls the
 * import's status for its progress and, at the end, its report.
 */
export const importRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
  registerImportJob(deps.queue, { db: deps.db, storage: deps.storage, log: app.log, contentChanges: deps.contentChanges });

  app.post(
    '/api/imports',
    {
      config: privateAnswer,
      schema: {
        tags: ['moderation'],
        summary: 'Start an import (moderators only): multipart `file` (Ghost .json or .zip, WordPress .xml or .zip, .zip of Markdown files) and optional `dryRun` (`true`: write nothing, report what would happen)',
        consumes: ['multipart/form-data'],
        response: { 202: importJobSchema, 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const running = () => conflict(`The import of ${writing?.fileName} is still running. Wait for its report, then try again (a dry run may run beside it).`, 'IMPORT_RUNNING');
      // Asked before the upload is read (a 200 MB file for nothing), and again, atomically, when the run is recorded.
      let writing = await writingImport(deps);
      const upload = await receiveUpload(request, request.user, deps.config.dataDir);
      if (writing && !upload.dryRun) {
        await rm(path.dirname(upload.file), { recursive: true, force: true });
        throw running();
      }
      try {
        return reply.status(202).send(await startImport(deps, upload));
      } catch (error) {
        await rm(path.dirname(upload.file), { recursive: true, force: true });
        if (!(error instanceof ImportRunning)) throw error;
        writing = { fileName: error.fileName };
        throw running();
      }
    },
  );

  app.get(
    '/api/imports/:id',
    {
      schema: {
        tags: ['moderation'],
        summary: "An import's state, progress and, once done, its report (moderators only)",
        params: idParams,
        response: { 200: importJobSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const unknown = () => notFound('No import has this id.');
      const job = await findImport(deps, parseId(request.params.id, unknown));
      if (!job) throw unknown();
      return job;
    },
  );
};

/**
 * Writes the uploaded file to a folder of its own under `DATA_DIR/imports/` (the import reads it
 * twice, a zip needs a file to seek in, and an import taken again after a restart reads it from
 * there), under the name it had, so the reader knows its kind by its extension.
 */
async function receiveUpload(request: FastifyRequest, moderator: SessionUser, dataDir: string): Promise<ImportUpload> {
  if (!request.isMultipart()) throw unsupportedMediaType('Send the export as multipart/form-data, in the field "file".');
  const id = randomUUID();
  const dir = path.join(dataDir, 'imports', id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const form = await readOneFileForm(request, {
      checkbox: 'dryRun',
      messages: {
        fileTooLarge: tooLarge,
        tooManyFiles: () => badRequest('Send one file, in the field "file".'),
        tooManyParts: () => badRequest('Send the fields "file" and "dryRun" only.'),
        malformed: 'The upload was cut off or is not a well-formed form. Please try again.',
        noFile: () => badRequest('Choose an export file to import.'),
      },
      async keep(part, fileName) {
        if (!IMPORT_FILE_TYPES.some((type) => fileName.toLowerCase().endsWith(type))) throw fileName ? wrongType(fileName) : badRequest('Choose an export file to import.');
        const file = path.join(dir, fileName);
        await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
        if (part.file.truncated) throw tooLarge();
        return file;
      },
    });
    return { id, file: form.kept, fileName: form.fileName, dryRun: form.checked, owner: personOf(moderator.email, undefined, 'owner'), startedBy: moderator.id };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
