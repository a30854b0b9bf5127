import { describe, expect, it } from 'vitest';
import { createQueryClient, prefetchApiQuery } from './query';

/** Prefetches `key` answering `status`, then tells whether the page would ask again. */
async function asksAgain(status: number): Promise<boolean> {
  const client = createQueryClient();
  const key = ['thing', status];
  const prefetching = client.prefetchQuery({
    queryKey: key,
    queryFn: () => Promise.resolve({ status, data: null, message: '' }),
  });
  prefetchApiQuery(client, key, prefetching);
  await prefetching;
  await new Promise((r) => setTimeout(r, 0));
  return client.getQueryState(key)!.isInvalidated;
}

describe('prefetchApiQuery', () => {
  it('keeps a 200, a 404 and a 400 (asking again would answer the same)', async () => {
    expect(await asksAgain(200)).toBe(false);
    expect(await asksAgain(404)).toBe(false);
    expect(await asksAgain(400)).toBe(false);
  });

  it('marks a refusal or a failure stale, so the page asks again when it mounts', async () => {
    expect(await asksAgain(401)).toBe(true);
    expect(await asksAgain(403)).toBe(true);
    expect(await asksAgain(500)).toBe(true);
  });
});
