/**
 * Conventions every endpoint shares (CONTRACT.md "Shapes of answers", paging), the texts of a
 * request that fails for no feature-specific reason (SPEC.md §8), and app-wide settings.
 *
 * No zod here: the web app's first screens and the inline early script (8 KB cap) load this
 * module. The error answer's zod schema is `errorAnswer` in users.ts.
 */

/** The body of every 4xx/5xx answer. */
export interface ErrorAnswer {
  message: string;
  code: string;
}

/** Header carrying the next page's cursor of a paged list. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** SPEC.md §8 texts of failed requests in general, and of the first screens' loads. */
export const API_MSG = {
  systemError: 'A system error occurred...',
  unknownError: 'UNKNOWN_ERROR',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  unavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'Your account cannot do this.',
  notFound: 'Not found.',
  formOther: (status: number) =>
    `An unexpected error occurred (Error: ${status}). Please try again, or contact support if the issue persists.`,
  thrown: (detail: string) => `A system error occurred... ${detail}`,
  feedError: (status: number) => `Error loading bounties: ${status}`,
  claimLoadError: (status: number) => `Error loading claim: ${status}`,
  bountyLoadError: (status: number) => `Error loading bounty: ${status}`,
} as const;

/** Settings of the web app (and the support address the API's e-mails give). */
export const UI = {
  mobileBreakpoint: 768,
  snackbarMs: 6000,
  confettiMs: 5000,
  tokenStorageKey: 'ss',
  searchCachePrefix: 'e-',
  searchCacheMs: 300_000,
  defaultImageSize: 500,
  supportEmail: 'support@bountyhunt.app',
  marketingSite: 'https://bountyhunt.app',
} as const;
