import { describe, expect, it } from 'vitest';
import {
  cardBrandOf,
  cardSchema,
  formatCardNumberInput,
  formatExpiryInput,
  isLuhnValid,
  parseExpiry,
} from './billing';

describe('card form input (SPEC.md §5)', () => {
  it('keeps digits and groups them with spaces', () => {
    expect(formatCardNumberInput('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumberInput('4242-42a42')).toBe('4242 4242');
    expect(formatCardNumberInput('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumberInput('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });

  it("inserts '/' after two digits, prefixes 0 to a leading digit above 1, max 5 characters", () => {
    expect(formatExpiryInput('1')).toBe('1');
    expect(formatExpiryInput('12')).toBe('12/');
    expect(formatExpiryInput('123')).toBe('12/3');
    expect(formatExpiryInput('12/345')).toBe('12/34');
    expect(formatExpiryInput('4')).toBe('04/');
    expect(formatExpiryInput('9x')).toBe('09/');
    expect(formatExpiryInput('0')).toBe('0');
    expect(formatExpiryInput('0a7')).toBe('07/');
    // Deleting over the slash takes it away instead of putting it back.
    expect(formatExpiryInput('12', '12/')).toBe('12');
    expect(parseExpiry('07/29')).toEqual({ month: '07', year: '29' });
    expect(parseExpiry('07/2')).toBeNull();
  });

  it('names the card brand', () => {
    expect(cardBrandOf('4242424242424242')).toBe('Visa');
    expect(cardBrandOf('5555555555554444')).toBe('Mastercard');
    expect(cardBrandOf('2223003122003222')).toBe('Mastercard');
    expect(cardBrandOf('378282246310005')).toBe('American Express');
    expect(cardBrandOf('6011111111111117')).toBe('Discover');
    expect(cardBrandOf('9999999999999995')).toBe('Card');
  });
});

describe('cardSchema', () => {
  const card = {
    number: '4242 4242 4242 4242',
    cvv: '123',
    month: '07',
    year: '29',
    name: 'A',
    zip: '1',
  };
  it('removes spaces, checks Luhn and reads a two-digit year as 20xx', () => {
    expect(cardSchema.parse(card)).toEqual({
      number: '4242424242424242',
      cvv: '123',
      month: 7,
      year: 2029,
      name: 'A',
      zip: '1',
    });
    expect(cardSchema.parse({ ...card, year: 2031, month: 1 }).year).toBe(2031);
    expect(isLuhnValid('4000000000000002')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(cardSchema.safeParse({ ...card, number: '4242424242424241' }).success).toBe(false);
    expect(cardSchema.safeParse({ ...card, cvv: '12a' }).success).toBe(false);
    expect(cardSchema.safeParse({ ...card, month: '0' }).success).toBe(false);
  });
});
