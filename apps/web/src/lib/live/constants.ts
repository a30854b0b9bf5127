/**
 * The stream's numbers from packages/shared/src/live.ts `EVENTS`, copied: that module builds zod
 * schemas as it loads, and the live connection must not bring zod into pages that do not
 * otherwise need it. constants.test.ts keeps the copy equal to the contract.
 */
export const LIVE = {
  /** Comment lines this often keep proxies from closing an idle stream. */
  heartbeatMs: 25_000,
  /** The client waits this long before reconnecting (the stream's `retry:`). */
  retryMs: 3000,
  /** Bounties one stream may watch for tallies (`?watch=1,2`). */
  maxWatch: 20,
} as const;
