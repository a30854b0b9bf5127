/** Every failure answers {message, code} (CONTRACT.md "API conventions"), never a stack trace. */
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { API_MSG } from '@bountyhunt/shared/api';
import { isConnectionError } from '../db/errors';
import { AppError, RETRY_AFTER_UNAVAILABLE_S } from '../errors';
import { sanitizeErrorMessage } from './logging';
import { drainUnreadBody } from './unread-body';

const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

export function registerErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler(async (request, reply) => {
    await drainUnreadBody(request, reply);
    return reply
      .code(404)
      .send({ message: `Route ${request.method} not found.`, code: 'NOT_FOUND' });
  });

  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    // Answered before the body was read (413, a refused upload…): read the rest first, so a
    // client still sending can read the answer instead of a reset connection.
    await drainUnreadBody(request, reply);
    if (err instanceof AppError) {
      reply.headers(err.headers);
      return reply.code(err.status).send({ message: err.message, code: err.code });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const message = first?.message ?? 'Invalid request.';
      return reply.code(400).send({ message, code: 'VALIDATION' });
    }
    if (isResponseSerializationError(err)) {
      request.log.error(
        { issues: err.cause.issues.map((i) => ({ path: i.path, code: i.code })) },
        'response does not match its schema',
      );
      return reply.code(500).send({ message: 'Internal server error.', code: 'INTERNAL' });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, bad content type…
      const code =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError'
          ? 'INVALID_JSON'
          : (STATUS_CODES[status] ?? 'BAD_REQUEST');
      const message =
        status === 413
          ? 'Request body is too large.'
          : status === 415
            ? 'Unsupported content type.'
            : code === 'INVALID_JSON'
              ? 'Malformed JSON in request body.'
              : sanitizeErrorMessage(err.message);
      const extra = (err as { headers?: Record<string, string> }).headers;
      if (extra) reply.headers(extra);
      return reply.code(status).send({ message, code });
    }
    if (isConnectionError(err)) {
      // The database is restarting or unreachable: say so at once, and when to come back.
      request.log.warn(
        { err: { message: sanitizeErrorMessage(err.message) } },
        'database unavailable',
      );
      reply.header('retry-after', String(RETRY_AFTER_UNAVAILABLE_S));
      return reply.code(503).send({ message: API_MSG.unavailable, code: 'UNAVAILABLE' });
    }
    const safe = new Error(sanitizeErrorMessage(err.message));
    safe.name = err.name;
    safe.stack = `${err.name}: ${safe.message}\n${(err.stack ?? '')
      .split('\n')
      .filter((l) => l.trimStart().startsWith('at '))
      .join('\n')}`;
    request.log.error({ err: safe }, 'request failed');
    return reply.code(500).send({ message: 'Internal server error.', code: 'INTERNAL' });
  });
}
