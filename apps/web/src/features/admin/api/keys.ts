/** The admin feature's query keys; everything sits under `['admin']`. */
export const adminKeys = {
  all: ['admin'] as const,
  totpStatus: () => [...adminKeys.all, 'totp-status'] as const,
  dashboard: () => [...adminKeys.all, 'dashboard'] as const,
  identity: (id: number) => [...adminKeys.all, 'identity', id] as const,
  /** One user's page (GET /admin/users/{userId}). */
  user: (userId: number) => [...adminKeys.all, 'user', userId] as const,
  payoutPreview: () => [...adminKeys.all, 'payout-preview'] as const,
  payoutBatch: (batchId: number) => [...adminKeys.all, 'payout-batch', batchId] as const,
  taxForms: (year: number) => [...adminKeys.all, 'tax-forms', year] as const,
  /** A paged table: its path and filters, then the page's cursor. */
  table: (path: string, params: Record<string, string>) =>
    [...adminKeys.all, 'table', path, params] as const,
};
