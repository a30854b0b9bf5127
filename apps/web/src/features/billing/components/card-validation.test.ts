import { describe, expect, it } from 'vitest';
import { EMPTY_CARD, validateCard } from './card-validation';

const good = {
  number: '4242 4242 4242 4242',
  expiry: '07/29',
  cvv: '123',
  name: 'Ada Lovelace',
  zip: '10001',
};

describe('validateCard', () => {
  it('sends the number without spaces and the expiry as month and year', () => {
    expect(validateCard(good, new Date('2026-11-23'))).toEqual({
      body: {
        number: '4242424242424242',
        cvv: '123',
        month: '07',
        year: '29',
        name: 'Ada Lovelace',
        zip: '10001',
      },
    });
  });

  it('names every bad field with the shared messages', () => {
    const r = validateCard(EMPTY_CARD);
    expect(r).toEqual({
      errors: {
        number: 'Please enter a valid card number.',
        expiry: 'Please enter a valid expiry date.',
        cvv: 'Please enter a valid CVV.',
        name: 'Please enter the name on the card.',
        zip: 'Please enter your billing zip code.',
      },
    });
    expect(validateCard({ ...good, number: '4242 4242 4242 4241' })).toEqual({
      errors: { number: 'Please enter a valid card number.' },
    });
  });

  it('refuses an expiry month that has passed, accepts the current one', () => {
    const now = new Date(2026, 10, 23);
    expect(validateCard({ ...good, expiry: '10/26' }, now)).toEqual({
      errors: { expiry: 'Your card has expired.' },
    });
    expect('body' in validateCard({ ...good, expiry: '11/26' }, now)).toBe(true);
  });
});
