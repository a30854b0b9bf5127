/** SPEC.md §5 and §8 texts. Wording is a requirement: change it only with SPEC.md. */
export const MSG = {
  emailInvalid: 'Please enter a valid email address.',
  emailInvalidLong: "Please enter a valid email address. Ensure it's correctly formatted.",
  passwordInvalid: 'Please enter a valid password.',
  passwordCriteria:
    'Your new password does not meet the required criteria. Ensure it includes a mix of uppercase, lowercase, and special characters, and is at least 8 characters long.',
  currentPasswordRequired: 'Please enter your current password.',
  handleRequired: 'Please enter a user handle before proceeding.',
  handleTaken: 'The chosen handle is already in use. Please select a different handle.',
  pictureRequired: 'Please upload a profile picture to proceed.',
  titleBlank: 'Title cannot be blank',
  hoursInvalid: 'Invalid value for hours remaining',
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
  loginInvalid: 'Invalid login credentials. Please try again.',
  loginUserLoad: 'Error loading user data. Please try again',
  emailExists: 'Email already exists. Please sign in.',
  resetNotFound: "Email address not found. If you're new, please sign up.",
  resetSent: 'A password reset email has been sent. Please check your inbox.',
  resetThrown:
    'A system error occurred. We apologize for the inconvenience. Please try again later...',
  passwordWrong: 'The current password you entered does not match our records. Please try again.',
  emailChangeInvalid: 'The provided email address is invalid. Please enter a valid email.',
  emailChangeTaken:
    'This email address is already associated with an account. Please use a different email or log in to your existing account.',
  handleSuccess: 'Hooray! Your profile handle has been successfully updated.',
  pictureSuccess: 'Woot! Your profile picture has been successfully updated.',
  bioSuccess: 'Congrats! Your profile biography has been successfully updated.',
  systemError: 'A system error occurred...',
  unknownError: 'UNKNOWN_ERROR',
  resetCodeInvalid: 'This password reset link is invalid or has expired.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'Your account cannot do this.',
  notFound: 'Not found.',
} as const;

/** Messages that carry a status code (SPEC.md §8). */
export const MSGF = {
  loginOther: (status: number) => `Error authenticate (${status})`,
  loginThrown: (error: string) => `Error ${error}`,
  createAccount: (status: number) => `Error createAccount(${status})`,
  authenticate: (status: number) => `Error authenticate(${status})`,
  resetOther: (status: number) =>
    `Unexpected error occurred (Error: ${status}). Please verify your email address and try again, or contact our support team for assistance.`,
  passwordOther: (status: number) =>
    `There was a problem updating your password (Error: ${status}). Please try again, or contact support if the issue persists.`,
  handleOther: (status: number) =>
    `We encountered a problem while setting your handle (Error: ${status}). Please try again, or contact support if the issue persists.`,
  settingOther: (what: string, status: number) =>
    `We encountered a problem while setting your ${what} (Error: ${status}). Please try again, or contact support if the issue persists.`,
  emailOther: (status: number) =>
    `Unexpected error occurred (Error: ${status}). Please try again, or contact support if the issue persists.`,
  postError: (status: number) => `Error updating profile code ${status}`,
  feedError: (status: number) => `Error loading bounties: ${status}`,
  claimPostError: (status: number) => `Error posting claim: ${status}`,
  claimPostThrown: (error: string) => `Post error: ${error}`,
  bountyPostError: (status: number) => `Error posting bounty (${status})`,
  bountyPostThrown: (error: string) => `Error ${error}`,
  claimLoadError: (status: number) => `Error loading claim: ${status}`,
  bountyLoadError: (status: number) => `Error loading bounty: ${status}`,
  paymentError: (status: number) =>
    `We encountered an issue while updating your credit card information. Error: ${status}`,
  formOther: (status: number) =>
    `An unexpected error occurred (Error: ${status}). Please try again, or contact support if the issue persists.`,
  thrown: (detail: string) => `A system error occurred... ${detail}`,
} as const;
