import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The part of Ghost's NQL `filter` that its clients send for posts (docs/apis.md): `key:value`,
 * `key:-value` (not), `key:[a,b]` (any of), joined by `+` (and) and `,` (or), `+` binding
 * tighter, as NQL does. Keys: `tag`/`tags` and `primary_tag` (a tag's slug), `author`/`authors`
 * and `primary_author` (an author's slug, their handle), `slug`, `id`, `featured`. Anything else
 * is refused (`FilterError`), never guessed.
 */
export class FilterError extends Error {}

type Eb = ExpressionBuilder<Database, 'blogs' | 'user'>;

/** Splits at `separator` outside `[...]` and quotes. */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === "'" ) quoted = !quoted;
    else if (!quoted && char === '[') depth += 1;
    else if (!quoted && char === ']') depth -= 1;
    else if (!quoted && depth === 0 && char === separator) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

const unquote = (value: string) => (value.startsWith("'") && value.endsWith("'") && value.length >= 2 ? value.slice(1, -1) : value);

function clause(eb: Eb, text: string, withStatus: boolean): Expression<SqlBool> {
  const match = /^([a-z_.]+):(-?)(.+)$/.exec(text);
  if (!match) throw new FilterError(`Error parsing filter: "${text}"`);
  const [, key, not, raw] = match as unknown as [string, string, string, string];
  const values = raw.startsWith('[') && raw.endsWith(']') ? splitOutside(raw.slice(1, -1), ',').map(unquote) : [unquote(raw)];
  if (values.some((value) => value === '')) throw new FilterError(`Error parsing filter: "${text}"`);
  const anyOf = (one: (value: string) => Expression<SqlBool>) => eb.or(values.map(one));
  let condition: Expression<SqlBool>;
  switch (key) {
    case 'tag':
    case 'tags':
    case 'tags.slug':
      condition = anyOf((value) => sql<SqlBool>`${value} = any(blogs.tags)`);
      break;
    case 'primary_tag':
    case 'primary_tag.slug':
      condition = anyOf((value) => sql<SqlBool>`blogs.tags[1] = ${value}`);
      break;
    case 'author':
    case 'authors':
    case 'authors.slug':
    case 'primary_author':
    case 'primary_author.slug':
      condition = anyOf((value) => eb('user.handle', '=', value));
      break;
    case 'slug':
      condition = anyOf((value) => eb('blogs.slug', '=', value));
      break;
    case 'id':
      condition = anyOf((value) => sql<SqlBool>`blogs.id::text = ${value}`);
      break;
    case 'status':
      // The Admin API's own key (its posts include drafts): a scheduled post is a draft with a time to publish.
      if (!withStatus) throw new FilterError('The filter\'s "status" is the Admin API\'s: the Content API shows published posts only.');
      condition = anyOf((value) => {
        if (value === 'scheduled') return eb('blogs.publish_at', 'is not', null);
        if (value === 'draft') return eb.and([eb('blogs.status', '=', 'draft'), eb('blogs.publish_at', 'is', null)]);
        if (value === 'published') return eb('blogs.status', '=', 'published');
        throw new FilterError(`The status "${value}" is not one this site knows (draft, scheduled, published).`);
      });
      break;
    case 'featured':
      // Nothing here is featured.
      condition = anyOf((value) => sql<SqlBool>`${sql.lit(value !== 'true')}`);
      break;
    default:
      throw new FilterError(`The filter's "${key}" is not one this site knows (tag, author, primary_tag, primary_author, slug, id, featured, and status in the Admin API).`);
  }
  return not ? eb.not(condition) : condition;
}

/** The filter as a condition on `blogs` joined with their author (`user`); `status` too for the Admin API. */
export function postsFilter(eb: Eb, filter: string, options: { withStatus?: boolean } = {}): Expression<SqlBool> {
  if (filter.length > 1000) throw new FilterError('The filter is too long.');
  const alternatives = splitOutside(filter, ',').map((alternative) => eb.and(splitOutside(alternative, '+').map((part) => clause(eb, part, options.withStatus ?? false))));
  return eb.or(alternatives);
}
