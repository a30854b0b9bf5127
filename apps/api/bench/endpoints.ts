/**
 * What `npm run bench` sends: each endpoint's request (a rotation over the phase's fixtures) and
 * the bare floor's. Imported by the bench and by its load client (load-client.ts), which builds
 * the same requests in a process of its own.
 */
import type { Request } from 'autocannon';
import { SEARCH_TERM, voteRequest, type Voter } from './fixtures';

export interface Fixtures {
  bountyIds: number[];
  claimIds: number[];
  activeClaims: number[];
  /** Bounties of 5 rounds × 50 claims (fixtures.ts addRoundBounties). */
  roundBounties: number[];
  voters: Record<'product' | 'floor', Voter[]>;
  /** Every one-word term that matches, and distinct two-word ones (shuffled). */
  oneWordTerms: string[];
  twoWordTerms: string[];
  /** Two-word terms whose first page is full (more than a page matches), up to 2,000. */
  fullPageTerms: string[];
}

export interface Endpoint {
  name: string;
  label: string;
  method: 'GET' | 'POST';
  /** OpenAPI path the product must have for this endpoint to run. */
  route: string;
  request(fx: Fixtures, who: 'product' | 'floor'): Request;
  /** A fixed request whose answer is compared between product and floor. */
  sample?(fx: Fixtures, who: 'product' | 'floor'): { path: string; init: RequestInit };
  /** Why this endpoint cannot run on this data (it is then skipped), if it cannot. */
  unavailable?(fx: Fixtures): string | undefined;
  /** Extra environment for the product: such endpoints run on a product started with it. */
  env?: Record<string, string>;
  /**
   * How many requests read each id or term of the endpoint's rotation once: the first pass,
   * measured on its own before the warm-up (none for writes). For a new term each request, a
   * third of the terms: the figures are then those of a server that has been answering searches
   * (their bounties kept, decision 0030), each still with a term it never saw.
   */
  passSize?(fx: Fixtures, who: 'product' | 'floor'): number;
  /** Measured on the product only (the same-SQL floor answers no compressed JSON). */
  productOnly?: boolean;
  /**
   * Each request must be new (a vote): under `--client wrk` a run that may have sent its
   * read-ahead file round again is refused (decision 0043).
   */
  noRepeat?: boolean;
}

const json = { 'content-type': 'application/json' };

function rotate<T>(list: T[]): () => T {
  let i = 0;
  return () => list[i++ % list.length]!;
}

/** Reads go out as a signed-in member's would: each with the next member's token. */
function asMembers(fx: Fixtures, who: 'product' | 'floor', req: Request): Request {
  const nextVoter = rotate(fx.voters[who]);
  const setup = req.setupRequest;
  return {
    ...req,
    setupRequest: (r, ctx) => {
      const out = setup ? setup(r, ctx) : r;
      return {
        ...out,
        headers: { ...out.headers, authorization: `Bearer ${nextVoter().token}` },
      };
    },
  };
}

function bountyRequest(ids: number[]): Request {
  const next = rotate(ids);
  return { method: 'GET', setupRequest: (r) => ({ ...r, path: `/bounty/${next()}` }) };
}

/**
 * POST /bounty/search with the next term of `terms` on each request (all connections share it),
 * with `headers` besides the JSON type.
 */
function termsInTurn(terms: string[], headers: Record<string, string> = {}): Request {
  const next = rotate(terms);
  return {
    method: 'POST',
    path: '/bounty/search',
    headers: { ...json, ...headers },
    setupRequest: (r) => ({ ...r, body: JSON.stringify({ term: next() }) }),
  };
}

/** What Chromium and Firefox send (decision 0036). */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const searchSample = (term: string) => ({
  path: '/bounty/search',
  init: { method: 'POST', headers: json, body: JSON.stringify({ term }) },
});

export const ENDPOINTS: Endpoint[] = [
  {
    name: 'feed',
    label: 'feed search, empty term',
    method: 'POST',
    route: '/bounty/search',
    request: (fx, who) =>
      asMembers(fx, who, {
        method: 'POST',
        path: '/bounty/search',
        headers: json,
        body: JSON.stringify({ term: '' }),
      }),
    sample: () => ({
      path: '/bounty/search',
      init: { method: 'POST', headers: json, body: JSON.stringify({ term: '' }) },
    }),
  },
  {
    name: 'feed-term',
    label: `feed search, term "${SEARCH_TERM}"`,
    method: 'POST',
    route: '/bounty/search',
    request: (fx, who) =>
      asMembers(fx, who, {
        method: 'POST',
        path: '/bounty/search',
        headers: json,
        body: JSON.stringify({ term: SEARCH_TERM }),
      }),
    sample: () => ({
      path: '/bounty/search',
      init: { method: 'POST', headers: json, body: JSON.stringify({ term: SEARCH_TERM }) },
    }),
  },
  {
    // Uncached search (issue 21): the response cache is off, so every request searches.
    name: 'feed-words',
    label: 'feed search, every matching one-word term in turn, cache off',
    method: 'POST',
    route: '/bounty/search',
    env: { FEED_CACHE_MS: '0' },
    request: (fx) => termsInTurn(fx.oneWordTerms),
    sample: (fx) => searchSample(fx.oneWordTerms[0]!),
    passSize: (fx) => fx.oneWordTerms.length,
  },
  {
    name: 'feed-pairs',
    label: 'feed search, a new two-word term per request, cache off',
    method: 'POST',
    route: '/bounty/search',
    env: { FEED_CACHE_MS: '0' },
    request: (fx) => termsInTurn(fx.twoWordTerms),
    sample: (fx) => searchSample(fx.twoWordTerms[0]!),
    passSize: (fx) => Math.floor(fx.twoWordTerms.length / 3),
  },
  {
    // As feed-pairs, asked as a browser asks: the answer goes out compressed, for this request
    // alone (decision 0036). The terms from the middle of the list on, so this run does not
    // begin where feed-pairs began on the same server.
    name: 'feed-pairs-browser',
    label: "feed search, a new two-word term per request, a browser's Accept-Encoding, cache off",
    method: 'POST',
    route: '/bounty/search',
    env: { FEED_CACHE_MS: '0' },
    request: (fx) => {
      const half = Math.floor(fx.twoWordTerms.length / 2);
      return termsInTurn([...fx.twoWordTerms.slice(half), ...fx.twoWordTerms.slice(0, half)], {
        'accept-encoding': BROWSER_ACCEPT_ENCODING,
      });
    },
    passSize: (fx) => Math.floor(fx.twoWordTerms.length / 3),
    productOnly: true,
  },
  {
    // The same answers at both sizes: at 10,000 claims a new two-word term matches one bounty at
    // the median (a 7 KB answer), at 1,000,000 every one fills its page of ten (41 KB). These
    // terms fill their page at both sizes; at 10,000 claims they are few (~180), so they come
    // round again (nothing is cached by term: the cache is off). The cost growth of a search at
    // equal answers is this at 10,000 claims against feed-pairs at 1,000,000 (decision 0033).
    name: 'feed-pairs-full',
    label: 'feed search, a two-word term whose page is full, cache off',
    method: 'POST',
    route: '/bounty/search',
    env: { FEED_CACHE_MS: '0' },
    unavailable: (fx) =>
      fx.fullPageTerms.length === 0 ? 'no two-word term fills a page at this size' : undefined,
    request: (fx) => termsInTurn(fx.fullPageTerms),
    sample: (fx) => searchSample(fx.fullPageTerms[0]!),
    passSize: (fx) => fx.fullPageTerms.length,
  },
  {
    name: 'bounty',
    label: 'bounty page',
    method: 'GET',
    route: '/bounty/{id}',
    request: (fx, who) => asMembers(fx, who, bountyRequest(fx.bountyIds)),
    sample: (fx) => ({ path: `/bounty/${fx.bountyIds[0]}`, init: {} }),
    passSize: (fx) => fx.bountyIds.length,
  },
  {
    name: 'bounty-rounds',
    label: 'bounty page, 5 rounds × 50 claims',
    method: 'GET',
    route: '/bounty/{id}',
    request: (fx, who) => asMembers(fx, who, bountyRequest(fx.roundBounties)),
    sample: (fx) => ({ path: `/bounty/${fx.roundBounties[0]}`, init: {} }),
    passSize: (fx) => fx.roundBounties.length,
  },
  {
    name: 'claim',
    label: 'claim page',
    method: 'GET',
    route: '/claim/{id}',
    request: (fx, who) => {
      const next = rotate(fx.claimIds);
      return asMembers(fx, who, {
        method: 'GET',
        setupRequest: (r) => ({ ...r, path: `/claim/${next()}` }),
      });
    },
    sample: (fx) => ({ path: `/claim/${fx.claimIds[0]}`, init: {} }),
    passSize: (fx) => fx.claimIds.length,
  },
  {
    name: 'user',
    label: 'current user',
    method: 'GET',
    route: '/user',
    request: (fx, who) => {
      const next = rotate(fx.voters[who]);
      return {
        method: 'GET',
        path: '/user',
        setupRequest: (r) => ({ ...r, headers: { authorization: `Bearer ${next().token}` } }),
      };
    },
    sample: (fx) => ({
      // Both servers read the same user (the product's first voter) for the comparison.
      path: '/user',
      init: { headers: { authorization: `Bearer ${fx.voters.product[0]!.token}` } },
    }),
    passSize: (fx, who) => fx.voters[who].length,
  },
  {
    name: 'vote',
    noRepeat: true,
    label: 'vote (distinct members)',
    method: 'POST',
    route: '/vote',
    unavailable: (fx) => (fx.activeClaims.length === 0 ? 'no claim in an active round' : undefined),
    request: (fx, who) => {
      let k = 0;
      // 1 to 5 silver in turn (the i-th vote 1 + (i + 1) mod 5, as the bench always sent).
      return voteRequest(
        fx.voters[who],
        fx.activeClaims,
        () => k++,
        (i) => 1 + ((i + 1) % 5),
      );
    },
  },
];

/** The bare floor: one primary-key SELECT answered as ~340 B of JSON (floor-server.ts). */
export const BARE: Endpoint = {
  name: 'bare',
  label: 'bare floor: one primary-key SELECT',
  method: 'GET',
  route: '/bare/{id}',
  request: (fx) => {
    const next = rotate(fx.claimIds);
    return { method: 'GET', setupRequest: (r) => ({ ...r, path: `/bare/${next()}` }) };
  },
};
