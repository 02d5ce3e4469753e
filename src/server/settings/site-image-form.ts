import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, unsupportedMediaType, type AppError } from '../errors.js';
import { oneFileFormLimits, toMultipartError } from '../http/multipart-errors.js';
import { imageTooLarge, MAX_UPLOAD_BYTES } from '../images/image-processing.js';

const IMAGE_FIELD = 'image';
/** One file of a Post Image's size, nothing else: a logo or an icon. */
const LIMITS = oneFileFormLimits({ fileSize: MAX_UPLOAD_BYTES, fields: 0 });

const sendOneImage = () => badRequest(`Send one image, in the field "${IMAGE_FIELD}".`);

export async function registerSiteImageForm(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: LIMITS, throwFileSizeLimit: true });
}

/** Reads the one file `image` of the upload (at most MAX_UPLOAD_BYTES); the whole request is read even after a problem. */
export async function readSiteImageForm(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw unsupportedMediaType(`Send the image as multipart/form-data, in the field "${IMAGE_FIELD}".`);
  let upload: Buffer | undefined;
  let failure: AppError | undefined;
  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      if (part.type !== 'file') continue;
      if (failure || upload || part.fieldname !== IMAGE_FIELD) {
        part.file.resume();
        failure ??= sendOneImage();
        continue;
      }
      try {
        const data = await part.toBuffer();
        if (part.file.truncated) throw imageTooLarge();
        upload = data;
      } catch (error) {
        failure ??= uploadError(error);
      }
    }
  } catch (error) {
    failure ??= uploadError(error);
  }
  if (failure) throw failure;
  if (!upload || upload.length === 0) throw sendOneImage();
  return upload;
}

function uploadError(error: unknown): AppError {
  return toMultipartError(error, {
    fileTooLarge: imageTooLarge,
    tooManyFiles: sendOneImage,
    tooManyParts: sendOneImage,
    malformed: 'The upload could not be read: it was cut off or malformed. Please try again.',
  });
}
