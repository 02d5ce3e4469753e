/**
 * The one application error type. Routes and services throw it; the error handler in
 * `http/error-handler.ts` turns it into `{ error, message }` with its status (and a
 * `Retry-After` header when the error says when to come back).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Seconds the client should wait before trying again (429 and 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, code, message);
export const unauthorized = (message = 'You need to sign in first.') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do that.') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found.') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
export const payloadTooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);
export const unsupportedMediaType = (message: string) => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
export const tooManyRequests = (message = 'Too many requests. Please wait a moment and try again.', retryAfterSeconds?: number) =>
  new AppError(429, 'TOO_MANY_REQUESTS', message, retryAfterSeconds);
export const serviceUnavailable = (
  message = 'The site cannot reach its database right now. Please try again in a moment.',
  retryAfterSeconds = 5,
) => new AppError(503, 'SERVICE_UNAVAILABLE', message, retryAfterSeconds);
