/**
 * The profiles feature's first requests as plain data, shared by the query options
 * (profile-api.ts) and the early script (../early.ts).
 */
export const hunterProfilePath = (handle: string) => `/hunter/handle/${encodeURIComponent(handle)}`;
export const hunterFeedPath = (hunterId: number | undefined) => `/hunter/${hunterId}/feed`;
