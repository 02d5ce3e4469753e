import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Query parameters whose values are worth a log line and cannot carry a secret or an address. */
const LOGGED_QUERY_VALUES = new Set(['page', 'sort', 'author', 'part']);
/** Path segments after these carry a secret (Better Auth's password-reset links). */
const SECRET_AFTER = new Set(['reset-password']);
const REDACTED = '[redacted]';

/**
 * The request's URL as it may be logged: sign-in, verification, reset and unsubscribe links carry
 * tokens (and some carry e-mail addresses) in the query or the path, so every query value but a
 * few harmless ones, and any path segment after a secret-bearing one, is replaced.
 */
export function urlForLog(url: string): string {
  const queryStart = url.indexOf('?');
  const pathPart = queryStart === -1 ? url : url.slice(0, queryStart);
  const segments = pathPart.split('/');
  const safePath = segments
    .map((segment, index) => (index > 0 && SECRET_AFTER.has(segments[index - 1]!) && segment ? REDACTED : segment.includes('%40') || segment.includes('@') ? REDACTED : segment))
    .join('/');
  if (queryStart === -1) return safePath;
  const query = url.slice(queryStart + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1) return pair;
    const key = pair.slice(0, equals);
    return LOGGED_QUERY_VALUES.has(key) ? pair : `${key}=${REDACTED}`;
  });
  return `${safePath}?${query.join('&')}`;
}

/** Headers that carry a secret, wherever a logged object holds request or response headers. */
const SECRET_HEADERS = ['cookie', 'authorization', 'proxy-authorization', '["set-cookie"]'];
const HEADER_HOLDERS = ['req.headers', 'res.headers', 'headers', '*.headers', '*.*.headers'];

/**
 * What no line may carry, whatever logged it and however deep: a cookie's value (`name=value`,
 * up to `;`), credentials after `Bearer`/`Basic`, a `token`-like query value in a URL, and a
 * JSON field named like a secret. The last pass over every line, after pino's redaction, for
 * what a library logs in a shape no path foresaw (busboy's options hold all request headers).
 */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/((?:__Secure-|__Host-)?better-auth\.[\w.-]+=)[^;"\s\\]+/g, `$1${REDACTED}`],
  [/\b(Bearer|Basic)(\s+)[^"\s\\,]+/gi, `$1$2${REDACTED}`],
  [/([?&](?:[\w-]*token|code|otp|secret|password|key|signature)=)[^&"\s\\#]+/gi, `$1${REDACTED}`],
  [/("(?:cookie|authorization|proxy-authorization|set-cookie|[\w-]*token|[\w-]*secret|password|backupCodes)":)(?:"(?:[^"\\]|\\.)*"|\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\])/gi, `$1"${REDACTED}"`],
];

/** One serialised log line, with every secret `SECRET_PATTERNS` finds replaced. */
export function scrubLogLine(line: string): string {
  let scrubbed = line;
  for (const [pattern, replacement] of SECRET_PATTERNS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}

/**
 * Pino, through Fastify: JSON lines in production and tests, pretty ones in development
 * (pino-pretty, a development dependency). Every line of a request carries its id (`reqId`); no
 * line, at any level and from any logger given the app's (Fastify's, its plugins', Better
 * Auth's), carries a cookie, an authorization header, a token or an e-mail address: named
 * fields are redacted, then each line is scrubbed as text (`scrubLogLine`).
 */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: urlForLog(request.url), remoteAddress: request.ip }),
    },
    redact: {
      paths: [
        ...HEADER_HOLDERS.flatMap((holder) => SECRET_HEADERS.map((header) => `${holder}${header.startsWith('[') ? header : `.${header}`}`)),
        'email', '*.email', 'to', '*.to', 'token', '*.token', 'password', '*.password',
      ],
      censor: REDACTED,
    },
    hooks: { streamWrite: scrubLogLine },
    ...(config.env === 'development' ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
}

/** Every answer names its request (`x-request-id`), so an error a reader reports can be found in the log. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response: answers the response cache writes straight to the socket carry it too.
    reply.raw.setHeader('x-request-id', request.id);
    done();
  });
}
