/** Where the product under test runs (set by run-e2e.mjs; defaults match it). */
export const API_URL =
  process.env.E2E_API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 5152}`;
export const WEB_URL =
  process.env.E2E_WEB_URL ?? `http://127.0.0.1:${process.env.WEB_PORT ?? 3100}`;
/** Where the product writes mail (.eml files) when SMTP is not configured. */
export const DATA_DIR = process.env.E2E_DATA_DIR ?? '';
