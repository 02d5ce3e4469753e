import type { FastifyRequest } from 'fastify';
import { BLOG_MAX_LENGTH, TITLE_MAX_LENGTH } from '../../shared/constants.js';
import { MAX_TAGS, TAG_MAX_LENGTH } from '../../shared/tag-schema.js';
import type { AppError} from '../errors.js';
import { badRequest, unsupportedMediaType } from '../errors.js';
import { rejectNul } from '../http/bad-characters.js';
import { oneFileFormLimits, toMultipartError, type MultipartMessages } from '../http/multipart-errors.js';
import type { BlogForm } from '../core/blog-writing.js';
import { imageTooLarge, MAX_UPLOAD_BYTES } from '../images/image-processing.js';

export type { BlogForm, UploadedFile } from '../core/blog-writing.js';

const TEXT_FIELDS = ['title', 'blog', 'status', 'tags', 'publishAt'] as const;
/** The Tags field's text at most: room for every tag at its longest, with separators and blanks around them. */
const TAGS_FIELD_MAX_LENGTH = 4 * MAX_TAGS * (TAG_MAX_LENGTH + 2);
const IMAGE_FIELD = 'image';

/**
 * Busboy's limits. A field may be longer than the schema allows (so the schema, not the
 * parser, says what is wrong) but not unboundedly: 4 bytes per character covers any UTF-8.
 */
export const BLOG_FORM_LIMITS = oneFileFormLimits({
  fileSize: MAX_UPLOAD_BYTES,
  fields: 6,
  fieldSize: 4 * Math.max(BLOG_MAX_LENGTH, TITLE_MAX_LENGTH) + 1024,
});

/**
 * Reads a multipart blog form: the text fields `title`, `blog`, `status` and `publishAt`, and at most one file
 * `image`, held in memory (it is at most MAX_UPLOAD_BYTES). The whole request is read even
 * after a problem, so the client gets the answer instead of a reset connection.
 */
export async function readBlogForm(request: FastifyRequest): Promise<BlogForm> {
  if (!request.isMultipart()) {
    throw unsupportedMediaType('Send the blog as multipart/form-data with the fields title, blog, optional status, tags and publishAt, and an optional image.');
  }
  const form: BlogForm = { fields: {} };
  let failure: AppError | undefined;
  try {
    for await (const part of request.parts({ limits: BLOG_FORM_LIMITS })) {
      if (part.type === 'file') {
        if (failure || part.fieldname !== IMAGE_FIELD || form.image) {
          part.file.resume();
          failure ??= badRequest(`Unexpected file in the field "${part.fieldname.slice(0, 100)}": send one image, in the field "image".`);
          continue;
        }
        try {
          const data = await part.toBuffer();
          if (part.file.truncated) throw imageTooLarge();
          // A browser form with no file chosen still sends an empty, unnamed file part.
          if (data.length > 0 || part.filename) form.image = { filename: part.filename, data };
        } catch (error) {
          failure ??= toFormError(error);
        }
        continue;
      }
      const name = part.fieldname;
      if (!isTextField(name)) continue;
      if (form.fields[name] !== undefined) failure ??= badRequest(`The field "${name}" was sent twice.`);
      else if (part.valueTruncated || (name === 'tags' && String(part.value).length > TAGS_FIELD_MAX_LENGTH)) failure ??= badRequest(fieldTooLong(name));
      // Browsers send form text with CRLF line breaks; the blog keeps plain LF.
      else form.fields[name] = String(part.value).replace(/\r\n?/g, '\n');
    }
  } catch (error) {
    failure ??= toFormError(error);
  }
  if (failure) throw failure;
  rejectNul(form.fields);
  return form;
}

function isTextField(name: string): name is (typeof TEXT_FIELDS)[number] {
  return (TEXT_FIELDS as readonly string[]).includes(name);
}

function fieldTooLong(name: (typeof TEXT_FIELDS)[number]): string {
  if (name === 'status') return 'The status must be draft or published.';
  if (name === 'tags') return `Too many tags: at most ${MAX_TAGS}.`;
  return name === 'title'
    ? `The title is too long: at most ${TITLE_MAX_LENGTH} characters.`
    : `The content is too long: at most ${BLOG_MAX_LENGTH} characters.`;
}

const BLOG_FORM_MESSAGES: MultipartMessages = {
  fileTooLarge: imageTooLarge,
  tooManyFiles: () => badRequest('Send at most one image.'),
  tooManyParts: () => badRequest('The form has too many fields: send title, blog, optional status and tags, and an optional image.'),
  malformed: 'The form could not be read: the upload was cut off or malformed. Please try again.',
};

function toFormError(error: unknown): AppError {
  return toMultipartError(error, BLOG_FORM_MESSAGES);
}
