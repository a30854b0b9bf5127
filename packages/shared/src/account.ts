/**
 * The account settings (SPEC.md §2 "Settings page", §5, §8; CONTRACT.md /user/*, /hunter/*):
 * handle, stage name, bio, picture, legal name, tax address, SSN, bank, identity, e-mail and
 * password change. Request schemas, limits and texts.
 */
import { z } from 'zod';
import { AUTH_LIMITS } from './auth-texts';
import { newPasswordSchema } from './auth';

/** SPEC.md §9 limits. */
export const ACCOUNT_LIMITS = {
  handle: 15,
  handleHintMin: 3,
  stagename: 30,
  stagenameHintMin: 5,
  bio: 200,
  bankName: 50,
  routingNumber: 9,
  accountNumberMin: 5,
  accountNumberMax: 20,
  ssn: 9,
  firstName: 30,
  lastName: 30,
  street: 50,
  city: 50,
  state: 20,
  zip: 20,
} as const;

/** SPEC.md §5 and §8 texts. Wording is a requirement: change it only with SPEC.md. */
export const ACCOUNT_MSG = {
  currentPasswordRequired: 'Please enter your current password.',
  handleRequired: 'Please enter a user handle before proceeding.',
  handleTaken: 'The chosen handle is already in use. Please select a different handle.',
  pictureRequired: 'Please upload a profile picture to proceed.',
  routingInvalid: 'Invalid routing number. This field is required for processing transactions.',
  accountInvalid:
    'Invalid bank account number. This field is necessary to complete your direct deposit setup.',
  bankNameRequired: 'Bank name is required.',
  idFrontRequired:
    'ID photo is required. Please upload a clear picture of your government-issued ID.',
  idSelfieRequired:
    'Selfie with ID is required. Please upload a selfie showing you holding your ID next to your face.',
  ageRequired: 'You must confirm that you are at least 18 years old.',
  ssnIncomplete:
    'The Social Security Number entered is incomplete. Please ensure you have entered all 9 digits.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  streetRequired: 'Address is required. Please enter your street address.',
  cityRequired: 'City is required. Please enter your city.',
  stateRequired: 'State is required. Please enter your state.',
  zipRequired: 'Zip code is required. Please enter your zip code.',
  passwordWrong: 'The current password you entered does not match our records. Please try again.',
  emailChangeInvalid: 'The provided email address is invalid. Please enter a valid email.',
  emailChangeTaken:
    'This email address is already associated with an account. Please use a different email or log in to your existing account.',
  handleSuccess: 'Hooray! Your profile handle has been successfully updated.',
  pictureSuccess: 'Woot! Your profile picture has been successfully updated.',
  bioSuccess: 'Congrats! Your profile biography has been successfully updated.',
  passwordOther: (status: number) =>
    `There was a problem updating your password (Error: ${status}). Please try again, or contact support if the issue persists.`,
  handleOther: (status: number) =>
    `We encountered a problem while setting your handle (Error: ${status}). Please try again, or contact support if the issue persists.`,
  settingOther: (what: string, status: number) =>
    `We encountered a problem while setting your ${what} (Error: ${status}). Please try again, or contact support if the issue persists.`,
  emailOther: (status: number) =>
    `Unexpected error occurred (Error: ${status}). Please try again, or contact support if the issue persists.`,
  // Not SPEC.md's: what the server says of input the forms never send (they strip and cut it).
  handleChars: 'A handle has letters and digits only.',
  tooLong: (what: string, max: number) => `${what} can be at most ${max} characters.`,
} as const;

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

/** PUT /user/password */
export const passwordChangeSchema = z.object({
  oldPassword: z
    .string({ error: ACCOUNT_MSG.currentPasswordRequired })
    .min(1, ACCOUNT_MSG.currentPasswordRequired)
    .max(AUTH_LIMITS.passwordMax),
  newPassword: newPasswordSchema,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** Handle: letters and digits only, at most 15; SPEC.md enforces no minimum. */
export const HANDLE_STRIP_RE = /[^A-Za-z0-9]/g;
export const handleSchema = z.object({
  handle: z
    .string({ error: ACCOUNT_MSG.handleRequired })
    .min(1, ACCOUNT_MSG.handleRequired)
    .max(ACCOUNT_LIMITS.handle, ACCOUNT_MSG.tooLong('A handle', ACCOUNT_LIMITS.handle))
    .regex(/^[A-Za-z0-9]+$/, ACCOUNT_MSG.handleChars),
});
export type HandleInput = z.infer<typeof handleSchema>;

/** Letters and digits only, at most 15 (SPEC.md §5 Handle: others stripped as typed). */
export function stripHandle(typed: string, max = 15): string {
  return typed.replace(/[^A-Za-z0-9]/g, '').slice(0, max);
}

/** Stage name and bio: empty is sent as the text "null" and stored as no value. */
const nullableText = (max: number) =>
  z
    .string()
    .max(Math.max(max, 4))
    .transform((v) => (v.trim() === '' || v === 'null' ? null : v.trim()))
    .pipe(z.string().max(max).nullable());

export const stagenameSchema = z.object({ stagename: nullableText(ACCOUNT_LIMITS.stagename) });
export type StagenameInput = z.infer<typeof stagenameSchema>;
export const bioSchema = z.object({ bio: nullableText(ACCOUNT_LIMITS.bio) });
export type BioInput = z.infer<typeof bioSchema>;

/** PUT /hunter/picture (CONTRACT.md: {picture: key} where key came from an upload). */
export const pictureSchema = z.object({
  picture: z
    .string({ error: ACCOUNT_MSG.pictureRequired })
    .trim()
    .min(1, ACCOUNT_MSG.pictureRequired)
    .max(200),
});
export type PictureInput = z.infer<typeof pictureSchema>;

/**
 * A settings form's required text: missing, null or blank gets SPEC.md's `required` message
 * (a schema-wide `error` alone would also answer a too-long value with it, hence `max`'s own).
 */
function requiredText(required: string, label: string, max: number) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, ACCOUNT_MSG.tooLong(label, max));
}

export const nameSchema = z.object({
  firstName: requiredText(ACCOUNT_MSG.firstNameRequired, 'First name', ACCOUNT_LIMITS.firstName),
  lastName: requiredText(ACCOUNT_MSG.lastNameRequired, 'Last name', ACCOUNT_LIMITS.lastName),
});
export type NameInput = z.infer<typeof nameSchema>;

export const addressSchema = z.object({
  street: requiredText(ACCOUNT_MSG.streetRequired, 'Street', ACCOUNT_LIMITS.street),
  city: requiredText(ACCOUNT_MSG.cityRequired, 'City', ACCOUNT_LIMITS.city),
  state: requiredText(ACCOUNT_MSG.stateRequired, 'State', ACCOUNT_LIMITS.state),
  zip: requiredText(ACCOUNT_MSG.zipRequired, 'Zip code', ACCOUNT_LIMITS.zip),
});
export type AddressInput = z.infer<typeof addressSchema>;

export const ssnSchema = z.object({
  ssn: z.string({ error: ACCOUNT_MSG.ssnIncomplete }).regex(/^\d{9}$/, ACCOUNT_MSG.ssnIncomplete),
});
export type SsnInput = z.infer<typeof ssnSchema>;

/** ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = value.split('').map(Number) as number[];
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

export const bankSchema = z.object({
  name: requiredText(ACCOUNT_MSG.bankNameRequired, 'Bank name', ACCOUNT_LIMITS.bankName),
  accountType: z.enum(['checking', 'savings']).default('checking'),
  routingNumber: z
    .string({ error: ACCOUNT_MSG.routingInvalid })
    .refine(isValidRoutingNumber, ACCOUNT_MSG.routingInvalid),
  accountNumber: z
    .string({ error: ACCOUNT_MSG.accountInvalid })
    .regex(
      new RegExp(`^\\d{${ACCOUNT_LIMITS.accountNumberMin},${ACCOUNT_LIMITS.accountNumberMax}}$`),
      ACCOUNT_MSG.accountInvalid,
    ),
});
export type BankInput = z.infer<typeof bankSchema>;

/** The identity form's two private uploads. */
export const identitySchema = z.object({
  idFront: z
    .string({ error: ACCOUNT_MSG.idFrontRequired })
    .min(1, ACCOUNT_MSG.idFrontRequired)
    .max(200),
  idSelfie: z
    .string({ error: ACCOUNT_MSG.idSelfieRequired })
    .min(1, ACCOUNT_MSG.idSelfieRequired)
    .max(200),
});
export type IdentityInput = z.infer<typeof identitySchema>;

/**
 * PUT /user/identity: SPEC.md's `{idFront, idSelfie}`; the form's age confirmation, when sent,
 * is recorded with the submission (CONTRACT.md: extra fields are optional).
 */
export const identitySubmitSchema = identitySchema.extend({
  ageConfirmed: z.boolean().optional(),
});
export type IdentitySubmitInput = z.infer<typeof identitySubmitSchema>;

/** The identity form (SPEC.md §5 Identity): the user confirms being at least 18. */
export const identityFormSchema = identitySchema.extend({
  ageConfirmed: z.literal(true, { error: ACCOUNT_MSG.ageRequired }),
});
export type IdentityFormInput = z.infer<typeof identityFormSchema>;
