import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_MSG,
  bankSchema,
  bioSchema,
  handleSchema,
  isValidRoutingNumber,
  stagenameSchema,
} from './account';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('account schemas (SPEC.md §5)', () => {
  it('takes handles of letters and digits up to 15', () => {
    expect(handleSchema.safeParse({ handle: 'Ab3' }).success).toBe(true);
    expect(handleSchema.safeParse({ handle: 'a' }).success).toBe(true); // no minimum enforced
    expect(firstMessage(handleSchema.safeParse({ handle: '' }))).toBe(ACCOUNT_MSG.handleRequired);
    expect(handleSchema.safeParse({ handle: 'a_b' }).success).toBe(false);
    expect(handleSchema.safeParse({ handle: 'a'.repeat(16) }).success).toBe(false);
  });

  it('turns an empty or "null" stage name and bio into null', () => {
    expect(stagenameSchema.parse({ stagename: 'null' }).stagename).toBeNull();
    expect(stagenameSchema.parse({ stagename: '  ' }).stagename).toBeNull();
    expect(bioSchema.parse({ bio: 'Hi' }).bio).toBe('Hi');
    expect(bioSchema.safeParse({ bio: 'x'.repeat(201) }).success).toBe(false);
  });

  it('checks the ABA routing check digit and account number length', () => {
    expect(isValidRoutingNumber('011000015')).toBe(true);
    expect(isValidRoutingNumber('021000021')).toBe(true);
    expect(isValidRoutingNumber('021000022')).toBe(false);
    const ok = {
      name: 'Bank',
      accountType: 'checking',
      routingNumber: '021000021',
      accountNumber: '12345',
    };
    expect(bankSchema.safeParse(ok).success).toBe(true);
    expect(firstMessage(bankSchema.safeParse({ ...ok, routingNumber: '12345678' }))).toBe(
      ACCOUNT_MSG.routingInvalid,
    );
    expect(firstMessage(bankSchema.safeParse({ ...ok, accountNumber: '1234' }))).toBe(
      ACCOUNT_MSG.accountInvalid,
    );
    expect(firstMessage(bankSchema.safeParse({ ...ok, accountNumber: '1'.repeat(21) }))).toBe(
      ACCOUNT_MSG.accountInvalid,
    );
  });
});
