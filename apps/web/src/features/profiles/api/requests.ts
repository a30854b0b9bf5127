/**
 * The profiles feature's requests as plain data, shared by the query options (this folder)
 * and the early script (../early.ts).
 */
export const hunterProfilePath = (handle: string) => `/hunter/handle/${encodeURIComponent(handle)}`;
export const hunterFeedPath = (hunterId: number | undefined) => `/hunter/${hunterId}/feed`;

/** `path?k=v…` without the empty parameters (the first page of a feed has none). */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
