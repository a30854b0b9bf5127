/** The profiles feature's query keys, in one place; everything sits under `['profiles']`. */
export const profileKeys = {
  all: ['profiles'] as const,
  hunter: (handle: string) => [...profileKeys.all, 'hunter', handle.toLowerCase()] as const,
  feed: (hunterId: number | undefined) => [...profileKeys.all, 'feed', hunterId] as const,
  directory: (q: string) => [...profileKeys.all, 'directory', q] as const,
};
