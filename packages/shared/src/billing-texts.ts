/**
 * Billing texts pages show without the billing schemas (zod): importing billing.ts brings
 * them, and with them ~26 KB gzipped of the web app's JavaScript.
 */

/** Both stated in SPEC.md §9; they disagree and both are shown where SPEC.md shows them. */
export const CARD_ENTRY_FEE_TEXT = '$4.99';
export const JOIN_STARTS_AT_TEXT = 'Starts at $6.99';
