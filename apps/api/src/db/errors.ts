/** Recognises database errors through Drizzle's wrapper, on both drivers. */
function pgCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (pgCode(err) !== '23505') return false;
  if (!constraint) return true;
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c === constraint;
    e = (e as { cause?: unknown }).cause;
  }
  return true;
}

export function isSerializationFailure(err: unknown): boolean {
  const code = pgCode(err);
  return code === '40001' || code === '40P01';
}

/** Socket-level failures: the database (or another backing service) cannot be reached. */
const CONNECTION_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** node-postgres's own words when a connection dies or cannot be had in time. */
const CONNECTION_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection timeout|terminating connection|the database system is (?:starting up|shutting down|in recovery mode)/i;

/**
 * True when a query failed because PostgreSQL is unreachable, restarting or refusing
 * connections (not because of the query): connection exceptions (08xxx), admin/crash
 * shutdown and "cannot connect now" (57P01–57P03), too many connections (53300), socket
 * errors and the pool's connect timeout. Such a request answers 503 with Retry-After.
 */
export function isConnectionError(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (CONNECTION_ERRNO.has(code)) return true;
      if (code.startsWith('08') && code.length === 5) return true;
      if (code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGE.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
