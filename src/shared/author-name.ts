import type { ShowAuthorsBy } from './site-settings-schema.js';

/** Who wrote something, as the database knows them. */
export interface AuthorIdentity {
  email: string;
  displayName: string | null;
  handle: string;
}

/**
 * How every public surface (pages, the API's public answers, feeds, mails, other servers) names an
 * author (issue 58): by e-mail as the spec says, or, when the owner chose 'Name', by display name,
 * else handle; never the e-mail then.
 */
export function publicAuthorName(showBy: ShowAuthorsBy, author: AuthorIdentity): string {
  if (showBy === 'email') return author.email;
  return author.displayName?.trim() || author.handle;
}

/** The Terms' sentence about what names an author's posts (About), as the setting has it. */
export function authorTermsSentence(showBy: ShowAuthorsBy): string {
  return showBy === 'email'
    ? 'The e-mail address of your account is shown publicly as the author of each of your posts.'
    : 'Your display name (or your handle, if you set none) is shown publicly as the author of each of your posts; your e-mail address is never shown.';
}

/** The spec's Support answer's words about the e-mail, and what they become with 'Name'. */
const FAQ_EMAIL_SHOWN = 'your e-mail address signs you in and is shown as the author of your posts.';
const FAQ_NAME_SHOWN = 'your e-mail address signs you in and is never shown; your display name (or your handle) is shown as the author of your posts.';

/** The spec's texts (the Terms' sentence, the Support answer) as the setting has them; an owner's own text is left as written. */
export function specTextFollowing(showBy: ShowAuthorsBy, text: string): string {
  if (showBy === 'email') return text;
  return text.replace(authorTermsSentence('email'), authorTermsSentence('name')).replace(FAQ_EMAIL_SHOWN, FAQ_NAME_SHOWN);
}
