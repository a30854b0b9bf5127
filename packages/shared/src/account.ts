/** Account feature: request bodies beyond schemas.ts, and the masking of SPEC.md §2 "Settings page". */
import { z } from 'zod';
import { identitySchema } from './schemas';
import { MSG } from './messages';

/** PUT /user/identity: the two private uploads and the age confirmation (SPEC.md §5 Identity). */
export const identitySubmitSchema = identitySchema.extend({
  ageConfirmed: z.literal(true, { error: MSG.ageRequired }),
});
export type IdentitySubmitInput = z.infer<typeof identitySubmitSchema>;

/** PUT /hunter/picture (CONTRACT.md: {picture: key} where key came from an upload). */
export const pictureSchema = z.object({
  picture: z.string({ error: MSG.pictureRequired }).trim().min(1, MSG.pictureRequired).max(200),
});

/** SSN shown on the settings page: xxx-xx- plus the last four digits. */
export function maskSsn(lastFour: string | null | undefined): string | null {
  return lastFour ? `xxx-xx-${lastFour}` : null;
}

/** Bank account or card: 'Ending in' plus the last four digits. */
export function endingIn(lastFour: string | null | undefined): string | null {
  return lastFour ? `Ending in ${lastFour}` : null;
}

/** Letters and digits only, at most 15 (SPEC.md §5 Handle: others stripped as typed). */
export function stripHandle(typed: string, max = 15): string {
  return typed.replace(/[^A-Za-z0-9]/g, '').slice(0, max);
}

/** Where the reset e-mail's link points: {PUBLIC_WEB_URL}/reset/{code}. */
export function resetLink(publicWebUrl: string, code: string): string {
  return `${publicWebUrl.replace(/\/+$/, '')}/reset/${encodeURIComponent(code)}`;
}

/**
 * Success snackbars of the settings forms. The handle, picture and biography texts are
 * SPEC.md §2's; the others follow their tone.
 */
export const ACCOUNT_SUCCESS = {
  email: 'Your email address has been successfully updated.',
  password: 'Your password has been successfully updated.',
  handle: 'Hooray! Your profile handle has been successfully updated.',
  bio: 'Congrats! Your profile biography has been successfully updated.',
  picture: 'Woot! Your profile picture has been successfully updated.',
  stagename: 'Your stage name has been successfully updated.',
  name: 'Your legal name has been successfully updated.',
  address: 'Your address has been successfully updated.',
  ssn: 'Your Social Security Number has been successfully saved.',
  bank: 'Your direct deposit details have been successfully saved.',
  identity: 'Thank you! Your identity documents were submitted and are pending review.',
} as const;

/** Upload failures of the identity form (SPEC.md §8). */
export const IDENTITY_UPLOAD_ERRORS = {
  idFront: 'Error uploading identification front',
  idSelfie: 'Error uploading identification selfie',
} as const;
