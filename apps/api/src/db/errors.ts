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
