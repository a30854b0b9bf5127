/**
 * Text PostgreSQL cannot store: a NUL character (U+0000) in any string of a request (JSON
 * body, query, path) makes the database refuse the statement, which would surface as a 500.
 * No field of this API has a use for it, so such a request is bad input (400) before any
 * route's own validation runs.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors';

const MAX_DEPTH = 64;

/** True when a string anywhere in `value` (plain objects, arrays, keys too) contains NUL. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  // Raw upload bodies (streams) and bytes are not text.
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') {
    return false;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  }
  return false;
}

export function registerInputTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw badRequest('Text may not contain NUL characters.', 'VALIDATION');
    }
  });
}
