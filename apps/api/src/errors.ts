/** The few typed errors services throw; plugins/error-handler maps them to {message, code}. */
import { API_MSG } from '@bountyhunt/shared/api';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') =>
  new AppError(400, code, message);
export const unauthorized = (message: string = API_MSG.unauthorized) =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string = API_MSG.forbidden, code = 'FORBIDDEN') =>
  new AppError(403, code, message);
export const notFound = (message: string = API_MSG.notFound, code = 'NOT_FOUND') =>
  new AppError(404, code, message);
export const notAcceptable = (message: string, code = 'NOT_ACCEPTABLE') =>
  new AppError(406, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
export const paymentRequired = (message: string, code = 'PAYMENT_REQUIRED') =>
  new AppError(402, code, message);
export const payloadTooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);
export const unsupportedMedia = (message: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
/** How long a client should wait before trying again after a 503 (a backing service is down). */
export const RETRY_AFTER_UNAVAILABLE_S = 5;
/** 503; with `retryAfterSeconds` when the cause is passing (a service down), not lasting. */
export const unavailable = (message: string, code = 'UNAVAILABLE', retryAfterSeconds?: number) =>
  new AppError(
    503,
    code,
    message,
    retryAfterSeconds ? { 'retry-after': String(Math.ceil(retryAfterSeconds)) } : {},
  );
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'TOO_MANY_REQUESTS', API_MSG.tooManyRequests, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
