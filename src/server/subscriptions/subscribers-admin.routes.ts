import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import {
  SUBSCRIBERS_IMPORT_MAX_BYTES,
  SUBSCRIBERS_IMPORT_MAX_LABEL,
  subscriberRemovedSchema,
  subscribersImportResultSchema,
  subscribersPageSchema,
  subscribersQuerySchema,
} from '../../shared/subscribers-admin-schema.js';
import type { AppDeps } from '../app-deps.js';
import { badRequest, notFound, payloadTooLarge, unsupportedMediaType } from '../errors.js';
import { idParams, parseId } from '../http/ids.js';
import { oneFileFormLimits, readOneFileForm } from '../http/multipart-errors.js';
import { exportSubscribersCsv, importSubscribers, listSubscribers, removeSubscriber } from './subscribers-admin.js';

const UPLOAD_LIMITS = oneFileFormLimits({ fileSize: SUBSCRIBERS_IMPORT_MAX_BYTES, fields: 1, fieldSize: 100 });
const tooLarge = () => payloadTooLarge(`The file is larger than ${SUBSCRIBERS_IMPORT_MAX_LABEL}. Split it into smaller files and import each.`);
const oneFile = () => badRequest('Send one CSV file, in the field "file".');

/** /admin's Subscribers (owner and administrators; everyone else gets the 404 of /admin's API). */
export const subscribersAdminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  // Registered here, not on the app: only the import takes a multipart body.
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });

  app.get(
    '/api/admin/subscribers',
    {
      schema: {
        tags: ['subscriptions'],
        summary: 'Every e-mail subscription, newest first, 50 a page (`search`: part of the address), and the counts per author',
        querystring: subscribersQuerySchema,
        response: { 200: subscribersPageSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => listSubscribers(deps.db, request.query),
  );

  app.get(
    '/api/admin/subscribers.csv',
    {
      schema: {
        tags: ['subscriptions'],
        summary: 'Every e-mail subscription as CSV (RFC 4180): email, subscribed_to, since, status',
        querystring: subscribersQuerySchema.pick({ search: true }),
        response: { 200: z.string(), 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="subscribers.csv"')
        .send(await exportSubscribersCsv(deps.db, request.query.search)),
  );

  app.delete(
    '/api/admin/subscribers/:id',
    {
      schema: {
        tags: ['subscriptions'],
        summary: "'Remove': end one subscription",
        params: idParams,
        response: { 200: subscriberRemovedSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      await removeSubscriber(deps.db, request.user, parseId(request.params.id, () => notFound('No such subscription.')));
      return { status: 'removed' as const };
    },
  );

  app.post(
    '/api/admin/subscribers/import',
    {
      schema: {
        tags: ['subscriptions'],
        summary: `'Import CSV': multipart \`file\` (a CSV of at most ${SUBSCRIBERS_IMPORT_MAX_LABEL} whose first row names an address column: Ghost's \`email\`, Substack's \`Email\`, Mailchimp's \`Email Address\`) and \`optedIn\` (\`true\`: confirmed at once; otherwise each address is sent the confirmation mail)`,
        consumes: ['multipart/form-data'],
        response: { 200: subscribersImportResultSchema, 400: apiErrorSchema, 404: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema },
      },
    },
    async (request) => {
      const upload = await receiveCsv(request);
      return importSubscribers(deps, request.user, upload);
    },
  );
};

/** The form's CSV file (read whole: it is capped) and its 'These people already opted in' box. */
async function receiveCsv(request: FastifyRequest): Promise<{ text: string; fileName: string; optedIn: boolean }> {
  if (!request.isMultipart()) throw unsupportedMediaType('Send the CSV as multipart/form-data, in the field "file".');
  const form = await readOneFileForm(request, {
    checkbox: 'optedIn',
    messages: {
      fileTooLarge: tooLarge,
      tooManyFiles: oneFile,
      tooManyParts: () => badRequest('Send the fields "file" and "optedIn" only.'),
      malformed: 'The upload was cut off or is not a well-formed form. Please try again.',
      noFile: () => badRequest('Choose a CSV file to import.'),
    },
    keep: (part) => part.toBuffer(),
  });
  if (form.kept.length === 0) throw badRequest('Choose a CSV file to import.');
  return { text: new TextDecoder('utf-8').decode(form.kept), fileName: form.fileName, optedIn: form.checked };
}
