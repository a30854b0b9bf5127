// Types of glibc-env.mjs (used by apps/api/bench and its test).
export const GLIBC_ENV: Readonly<{ MALLOC_ARENA_MAX: string; MALLOC_TRIM_THRESHOLD_: string }>;
