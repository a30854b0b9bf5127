/** SPEC.md §9 / CONTRACT.md "Money and tokens". Prices in cents. */
export const PLANS = [
  { index: 0, name: 'Standard', priceCents: 699, resolution: '720p (HD)', silver: 50, gold: 200 },
  {
    index: 1,
    name: 'Premium',
    priceCents: 1549,
    resolution: '1080p (Full HD)',
    silver: 100,
    gold: 600,
  },
  {
    index: 2,
    name: 'Deluxe',
    priceCents: 2299,
    resolution: '4K (Ultra HD) + HDR',
    silver: 200,
    gold: 1000,
  },
] as const;

export const DEFAULT_PLAN_INDEX = 2;
/** Both stated in SPEC.md §9; they disagree and both are shown where SPEC.md shows them. */
export const CARD_ENTRY_FEE_TEXT = '$4.99';
export const JOIN_STARTS_AT_TEXT = 'Starts at $6.99';

export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
