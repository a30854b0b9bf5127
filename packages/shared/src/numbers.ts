import { z } from 'zod';

/** Digits only: what a whole number looks like in a path, a query or a form field. */
const DIGITS = /^\d{1,16}$/;

/**
 * A whole number that may come as digits (a path, a query, a form field): `inner` checks it.
 * `z.coerce.number()` also read '' and ' ' as 0, '0x1' as 1 and '1e3' as 1000, so a blank
 * plan index chose plan 0 and a blank card year read as 2000; here such a string stays a
 * string, and `inner` refuses it with its own message. Numbers pass as they are.
 */
export function digits<T extends z.ZodType>(inner: T) {
  return z.preprocess((v) => (typeof v === 'string' && DIGITS.test(v) ? Number(v) : v), inner);
}
