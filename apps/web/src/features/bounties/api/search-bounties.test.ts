import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  readSearchCache,
  searchBounties,
  writeSearchCache,
  type SearchPage,
} from './search-bounties';

const page: SearchPage = { status: 200, data: [], message: '', nextCursor: null };

function answer(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

beforeEach(() => window.sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('SPEC.md §9 search cache (session storage e-{claimId}, 5 minutes)', () => {
  it('keeps a page for 300000 ms, then discards it', () => {
    writeSearchCache(7, page, 1_000);
    expect(window.sessionStorage.getItem('e-7')).not.toBeNull();
    expect(readSearchCache(7, 1_000 + 299_999)).toEqual(page);
    expect(readSearchCache(7, 1_000 + 300_000)).toBeNull();
    expect(window.sessionStorage.getItem('e-7')).toBeNull();
  });

  it('is used only when a claimId is given, and only for the first page', async () => {
    const fetchMock = vi.fn(async () => answer([{ bountyId: 1 }], 200, { 'x-next-cursor': 'abc' }));
    vi.stubGlobal('fetch', fetchMock);
    const first = await searchBounties({ term: '', excludeId: 3 }, { claimId: 9 });
    expect(first).toMatchObject({ status: 200, nextCursor: 'abc' });
    expect(first.data).toHaveLength(1);
    await searchBounties({ term: '', excludeId: 3 }, { claimId: 9 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await searchBounties({ term: '', excludeId: 3, cursor: 'abc' }, { claimId: 9 });
    await searchBounties({ term: '' });
    await searchBounties({ term: '' });
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('keeps failures out of the cache and reports their status (SPEC.md §7)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ message: 'nope', code: 'X' }, 503)),
    );
    const res = await searchBounties({ term: 'x' }, { claimId: 4 });
    expect(res).toEqual({ status: 503, data: [], message: 'nope', nextCursor: null });
    expect(window.sessionStorage.getItem('e-4')).toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('network down');
      }),
    );
    expect(await searchBounties({ term: 'x' })).toEqual({
      status: 500,
      data: [],
      message: 'UNKNOWN_ERROR',
      nextCursor: null,
    });
  });
});
