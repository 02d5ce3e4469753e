import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { inlineImageUploadedSchema } from '../../shared/inline-image-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { readOneImageForm, registerOneImageForm } from '../images/one-image-form.js';
import { uploadInlineImage } from '../core/inline-images.js';
import { limitedPerUser } from '../core/visitor-contexts.js';

/** Twenty images a blog, a few blogs in ten minutes; a script filling the disk is stopped. */
export const INLINE_IMAGE_UPLOAD_RATE_LIMIT = { max: 60, windowSeconds: 10 * 60 };
const TOO_MANY_UPLOADS = 'You have uploaded many images in a short time. Please wait a few minutes and try again.';

/**
 * Images for the inside of a blog's text, uploaded from the editor before the blog is saved. Nothing
 * public changes until a blog that shows the image is saved, so nothing is invalidated here.
 */
export const inlineImageRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  await registerOneImageForm(app);

  app.post(
    '/api/blog-images',
    {
      config: limitedPerUser('inline-image:user', INLINE_IMAGE_UPLOAD_RATE_LIMIT, TOO_MANY_UPLOADS),
      schema: {
        tags: ['blogs'],
        summary: "Upload an image to show inside a blog's text (signed in)",
        description:
          'multipart/form-data with one file `image` (JPEG, PNG, WebP, GIF, TIFF or AVIF). Answers its URL and size; an upload no saved blog shows is removed after a grace period.',
        consumes: ['multipart/form-data'],
        response: { 201: inlineImageUploadedSchema, 400: apiErrorSchema, 401: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await deps.limiter.enforce(`inline-image:client:${clientKey(request.ip)}`, INLINE_IMAGE_UPLOAD_RATE_LIMIT, TOO_MANY_UPLOADS);
      const upload = await readOneImageForm(request);
      const uploaded = await uploadInlineImage({ db: deps.db, storage: deps.storage, log: request.log }, request.user.id, upload);
      return reply.status(201).send(uploaded);
    },
  );
};
