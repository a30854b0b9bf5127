/** The card form's values → the API body, checked with the shared cardSchema (SPEC.md §5). */
import { CARD_MSG, cardSchema, parseExpiry, PAYMENT_MSG } from '@bountyhunt/shared/billing';
import type { CardBody } from '../api/card-body';

export type CardField = 'number' | 'expiry' | 'cvv' | 'name' | 'zip';

export const EMPTY_CARD: Record<CardField, string> = {
  number: '',
  expiry: '',
  cvv: '',
  name: '',
  zip: '',
};

/** Form values → API body, or the first message per field. */
export function validateCard(
  v: Record<CardField, string>,
  now = new Date(),
): { body: CardBody } | { errors: Partial<Record<CardField, string>> } {
  const errors: Partial<Record<CardField, string>> = {};
  const exp = parseExpiry(v.expiry);
  if (!exp) errors.expiry = CARD_MSG.expiry;
  const body: CardBody = {
    number: v.number.replace(/\s+/g, ''),
    cvv: v.cvv,
    month: exp?.month ?? '',
    year: exp?.year ?? '',
    name: v.name,
    zip: v.zip,
  };
  const parsed = cardSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      const field: CardField = key === 'month' || key === 'year' ? 'expiry' : (key as CardField);
      errors[field] ??= issue.message;
    }
  } else if (exp) {
    // The card is good through the last day of its expiry month.
    const end = new Date(parsed.data.year, parsed.data.month, 1);
    if (end.getTime() <= now.getTime()) errors.expiry = PAYMENT_MSG.expired;
  }
  return Object.keys(errors).length > 0 ? { errors } : { body };
}
