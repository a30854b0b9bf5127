import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimPath, feedSearchBody } from '../features/bounties/api/requests';
import { searchBounties } from '../features/bounties/api/search-bounties';
import { getHunterFeed } from '../features/profiles/api/get-hunter-feed';
import { hunterFeedPath } from '../features/profiles/api/requests';
import { apiRequest, setToken } from '../lib/api-client';
import { apiBaseUrl } from '../lib/config';
import {
  EARLY_MAX_AGE_MS,
  matchPath,
  preloadFiles,
  startEarly,
  takeEarly,
  type EarlyCall,
} from '../lib/early';

const TOKEN = 't'.repeat(43);

function answer(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A fetch that answers by path and records every request. */
function stubFetch(bodies: Record<string, unknown>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const path = new URL(url).pathname;
    return path in bodies ? answer(bodies[path], 200, { 'x-next-cursor': 'n1' }) : answer({}, 404);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

beforeEach(() => {
  delete window.__BH_EARLY__;
  setToken(TOKEN);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setToken(null);
  delete window.__BH_EARLY__;
});

describe('matchPath', () => {
  it('matches a route pattern and decodes its parameters', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/claim/:id', '/claim/12')).toEqual({ id: '12' });
    expect(matchPath('/claim/:id', '/claim/12/')).toEqual({ id: '12' });
    expect(matchPath('/profile/:handle', '/profile/sun%20set')).toEqual({ handle: 'sun set' });
    expect(matchPath('/claim/:id', '/claim')).toBeNull();
    expect(matchPath('/claim/:id', '/bounty/12')).toBeNull();
    expect(matchPath('/profile/:handle', '/profile/%E0%A4%A')).toBeNull();
  });
});

describe('early calls', () => {
  it('the app takes the early responses instead of asking again: GET, search, paged list', async () => {
    const calls = stubFetch({
      '/claim/5': { claimId: 5 },
      '/bounty/search': [{ bountyId: 1 }],
      '/hunter/3/feed': [{ kind: 'post' }],
    });
    const early: EarlyCall[] = [
      { method: 'GET', path: claimPath('5') },
      { method: 'POST', path: '/bounty/search', body: feedSearchBody('sun') },
      { method: 'GET', path: hunterFeedPath(3) },
    ];
    startEarly(early, apiBaseUrl(), TOKEN, () => undefined);
    expect(calls).toHaveLength(3);
    expect(calls[1]!.init.headers).toEqual({
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });

    const claim = await apiRequest('GET', claimPath('5'));
    const page = await searchBounties(feedSearchBody('sun'));
    const feed = await getHunterFeed(3);
    expect(claim).toEqual({ status: 200, data: { claimId: 5 }, message: '' });
    expect(page).toMatchObject({ status: 200, data: [{ bountyId: 1 }], nextCursor: 'n1' });
    expect(feed).toMatchObject({ status: 200, data: [{ kind: 'post' }], nextCursor: 'n1' });
    // Nothing went to the network a second time.
    expect(calls).toHaveLength(3);
    expect(window.__BH_EARLY__).toEqual([]);

    // Each early response is used once: the next ask is a new request.
    await apiRequest('GET', claimPath('5'));
    expect(calls).toHaveLength(4);
  });

  it('is not used for another request, another token, or once older than the limit', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const calls = stubFetch({ '/claim/5': { claimId: 5 }, '/bounty/search': [] });
    startEarly(
      [
        { method: 'GET', path: claimPath('5') },
        { method: 'POST', path: '/bounty/search', body: feedSearchBody('sun') },
      ],
      apiBaseUrl(),
      TOKEN,
      () => undefined,
    );
    // Another body (term) is another request.
    await searchBounties(feedSearchBody('moon'));
    expect(calls).toHaveLength(3);
    // Another token: signed out and in as someone else.
    setToken('u'.repeat(43));
    await searchBounties(feedSearchBody('sun'));
    expect(calls).toHaveLength(4);
    // Too old.
    setToken(TOKEN);
    vi.advanceTimersByTime(EARLY_MAX_AGE_MS + 1);
    expect(takeEarly('GET', `${apiBaseUrl()}${claimPath('5')}`, undefined, TOKEN)).toBeNull();
    // and nothing stale is kept.
    expect(window.__BH_EARLY__).toEqual([]);
  });

  it('a failed early request is asked again by the app', async () => {
    let n = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        n += 1;
        if (n === 1) throw new TypeError('network down');
        return answer({ claimId: 5 });
      }),
    );
    startEarly([{ method: 'GET', path: claimPath('5') }], apiBaseUrl(), TOKEN, () => undefined);
    expect(await apiRequest('GET', claimPath('5'))).toMatchObject({ status: 200 });
    expect(n).toBe(2);
  });

  it('starts the images and follow-up calls of a 200 answer, not of a refusal', async () => {
    const calls = stubFetch({ '/hunter/handle/ann': { hunterId: 3, banner: 'i-b' } });
    const preload = vi.fn();
    startEarly(
      [
        {
          method: 'GET',
          path: '/hunter/handle/ann',
          images: (a) => [{ src: `img:${(a as { banner: string }).banner}`, priority: 'high' }],
          then: (a) => [
            { method: 'GET', path: hunterFeedPath((a as { hunterId: number }).hunterId) },
          ],
        },
        {
          method: 'GET',
          path: '/hunter/handle/nobody',
          images: () => [{ src: 'never' }],
          then: () => [{ method: 'GET', path: '/never' }],
        },
      ],
      apiBaseUrl(),
      TOKEN,
      preload,
    );
    await vi.waitFor(() =>
      expect(calls.map((c) => new URL(c.url).pathname)).toContain('/hunter/3/feed'),
    );
    expect(preload).toHaveBeenCalledWith('img:i-b', 'high');
    expect(preload).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => new URL(c.url).pathname)).not.toContain('/never');
    // The app still reads the profile's body (the early script read a clone).
    const res = await apiRequest('GET', '/hunter/handle/ann');
    expect(res).toMatchObject({ status: 200, data: { hunterId: 3 } });
  });
});

describe('preloadFiles', () => {
  it('adds a modulepreload per script and a style preload per stylesheet', () => {
    preloadFiles(['/assets/home-page-x.js', '/assets/claim-media-y.css']);
    const links = [...document.head.querySelectorAll('link')].slice(-2);
    expect(links.map((l) => [l.rel, l.getAttribute('href'), l.crossOrigin])).toEqual([
      ['modulepreload', '/assets/home-page-x.js', ''],
      ['preload', '/assets/claim-media-y.css', ''],
    ]);
    expect(links[1]!.as).toBe('style');
  });
});
