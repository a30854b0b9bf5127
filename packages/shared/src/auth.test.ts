import { describe, expect, it } from 'vitest';
import { AUTH_MSG } from './auth-texts';
import { registerSchema } from './auth';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('auth schemas (SPEC.md §5)', () => {
  it('checks e-mail and password with the signup messages', () => {
    expect(registerSchema.safeParse({ email: 'a@b.co', password: 'Abcdef1!' }).success).toBe(true);
    expect(firstMessage(registerSchema.safeParse({ email: 'a@b', password: 'Abcdef1!' }))).toBe(
      AUTH_MSG.emailInvalid,
    );
    expect(firstMessage(registerSchema.safeParse({ email: 'a@b.co', password: 'abcdefg!' }))).toBe(
      AUTH_MSG.passwordInvalid,
    );
  });
});
