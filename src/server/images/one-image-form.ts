import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppError } from '../errors.js';
import { badRequest, unsupportedMediaType } from '../errors.js';
import { oneFileFormLimits, toMultipartError } from '../http/multipart-errors.js';
import { imageTooLarge, MAX_UPLOAD_BYTES } from './image-processing.js';

const IMAGE_FIELD = 'image';

/** Busboy's limits for an upload of one image (the editor's, a site's logo or icon): one file of the Post Image's size, nothing else. */
export const ONE_IMAGE_FORM_LIMITS = oneFileFormLimits({ fileSize: MAX_UPLOAD_BYTES, fields: 0 });

/** The multipart parser of a route plugin whose uploads are one image each. */
export async function registerOneImageForm(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: ONE_IMAGE_FORM_LIMITS, throwFileSizeLimit: true });
}

const sendOneImage = () => badRequest(`Send one image, in the field "${IMAGE_FIELD}".`);

/**
 * Reads the one file `image` of a multipart upload into memory (it is at most MAX_UPLOAD_BYTES).
 * The whole request is read even after a problem, so the client gets the answer.
 */
export async function readOneImageForm(request: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  if (!request.isMultipart()) throw unsupportedMediaType(`Send the image as multipart/form-data, in the field "${IMAGE_FIELD}".`);
  let upload: { filename: string; data: Buffer } | undefined;
  let failure: AppError | undefined;
  try {
    for await (const part of request.parts({ limits: ONE_IMAGE_FORM_LIMITS })) {
      if (part.type !== 'file') continue;
      if (failure || upload || part.fieldname !== IMAGE_FIELD) {
        part.file.resume();
        failure ??= sendOneImage();
        continue;
      }
      try {
        const data = await part.toBuffer();
        if (part.file.truncated) throw imageTooLarge();
        upload = { filename: part.filename, data };
      } catch (error) {
        failure ??= toUploadError(error);
      }
    }
  } catch (error) {
    failure ??= toUploadError(error);
  }
  if (failure) throw failure;
  if (!upload || upload.data.length === 0) throw sendOneImage();
  return upload;
}

function toUploadError(error: unknown): AppError {
  return toMultipartError(error, {
    fileTooLarge: imageTooLarge,
    tooManyFiles: sendOneImage,
    tooManyParts: sendOneImage,
    malformed: 'The upload could not be read: it was cut off or malformed. Please try again.',
  });
}
