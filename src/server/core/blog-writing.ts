import type { FastifyBaseLogger } from 'fastify';
import type { Blog } from '../../shared/blog-schema.js';

/** A file as a form or an app sent it, before the image pipeline has checked and re-encoded it. */
export interface UploadedFile {
  filename: string;
  data: Buffer;
}

/** A blog's fields as the site's own form sends them (`blogs/blog-form.ts`): every write, whoever makes it, goes through this shape. */
export interface BlogForm {
  fields: { title?: string; blog?: string; status?: string; tags?: string; publishAt?: string };
  image?: UploadedFile;
}

/**
 * Writing blogs for an app that acts with an administrator's rights (Ghost's Admin API
 * integrations, issue 60): the same services as the site's own forms (sanitising, image checks,
 * the visibility event, the review queue's mail), composed by `app.ts` from the blogs feature so
 * that no other feature imports it. A blog is written in its author's name; who may be an author
 * (an account whose role writes blogs) is checked here, not by the caller.
 */
export interface BlogWriting {
  /** The account a write is made in the name of when the app names none: the site's owner; null before anyone holds the seat. */
  defaultAuthor(): Promise<{ id: string; email: string } | null>;
  /** The account with this e-mail address (any case) or id, if its role writes blogs; null otherwise. */
  findAuthor(by: { email?: string; id?: string }): Promise<{ id: string; email: string } | null>;
  read(id: string, log: FastifyBaseLogger): Promise<Blog>;
  create(authorId: string, form: BlogForm, log: FastifyBaseLogger): Promise<Blog>;
  update(id: string, form: BlogForm, log: FastifyBaseLogger): Promise<Blog>;
  remove(id: string, log: FastifyBaseLogger): Promise<void>;
  /** Takes the blog's image (its cover) away. */
  removeImage(id: string, log: FastifyBaseLogger): Promise<void>;
  /** An image for blogs to show, kept as `userId`'s upload (the editor's pipeline); its public URL. */
  uploadImage(userId: string, file: UploadedFile, log: FastifyBaseLogger): Promise<string>;
  /** The bytes of an image this site stores, by its public URL (with or without the site's address); null for any other URL. */
  storedImage(url: string): Promise<UploadedFile | null>;
}
