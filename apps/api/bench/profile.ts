/**
 * `npm run bench:profile -- --endpoint user|vote|feed|feed-term|feed-words|feed-pairs|feed-pairs-full|claim|bounty|bounty-rounds
 *   [--seconds S] [--first N] [--server floor]`
 *
 * CPU profile of the product under load: starts the API (node --cpu-prof) on the database of
 * DATABASE_URL (filled beforehand with `npm run bench:data`), adds members with sessions,
 * drives one endpoint with autocannon (50 connections) and prints where the server's CPU
 * time went: the heaviest functions by self time and the share of each package. The
 * .cpuprofile file is kept for Chrome DevTools (its path is printed). feed-words (every
 * matching one-word term in turn), feed-pairs (a new two-word term per request) and
 * feed-pairs-full (two-word terms whose first page is full, in turn) run with the response cache
 * off, as in `npm run bench`. `--first N` sends N requests before the profiled
 * ones and leaves them out, as the bench's first pass (20,000 new two-word terms at 1M) does.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import { SEARCH_PAGE } from '@bountyhunt/shared/bounties';
import { createDatabase } from '../src/db/client';
import {
  activeClaimIds,
  addVoters,
  fullPageTerms,
  oneWordTerms,
  roundBounties,
  sampleIds,
  SEARCH_TERM,
  twoWordTerms,
  voteRequest,
} from './fixtures';
import { rawConnection } from './raw-db';
import { benchNodeFlags, benchServerEnv, filledDatabaseUrl, waitHealthy } from './server-env';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.resolve(here, '../../..');
const { values: args } = parseArgs({
  options: {
    endpoint: { type: 'string', default: 'user' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    /** Requests sent before the profiled load (left out of the profile), as the bench's first pass. */
    first: { type: 'string', default: '0' },
    port: { type: 'string', default: '5762' },
    /** floor: profile bench/floor-server.ts instead of the product. */
    server: { type: 'string', default: 'product' },
  },
});
const url = filledDatabaseUrl();
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;

const handle = await createDatabase(url, { poolSize: 2 });
const q = await rawConnection(handle);
const voters = await addVoters(q, 500);
const claimIds = await sampleIds(q, 'claims', 2000);
const bountyIds = await sampleIds(q, 'bounties', 2000);
const active = await activeClaimIds(q, 2000);
const words = await oneWordTerms(q);
const pairs = await twoWordTerms(q, 40_000);
const fullPairs =
  args.endpoint === 'feed-pairs-full'
    ? await fullPageTerms(q, pairs, SEARCH_PAGE.default, 2_000)
    : [];
if (args.endpoint === 'feed-pairs-full' && fullPairs.length === 0) {
  console.error('No two-word term fills a page on this database: fill it with more bounties.');
  process.exit(2);
}
const roundIds = args.endpoint === 'bounty-rounds' ? await roundBounties(q, 8) : [];
await q.release();
await handle.close();

const json = { 'content-type': 'application/json' };
let k = 0;
const next = <T>(list: T[]) => list[k++ % list.length]!;
const requests: Record<string, Request> = {
  feed: { method: 'POST', path: '/bounty/search', headers: json, body: '{"term":""}' },
  'feed-term': {
    method: 'POST',
    path: '/bounty/search',
    headers: json,
    body: JSON.stringify({ term: SEARCH_TERM }),
  },
  'feed-words': {
    method: 'POST',
    path: '/bounty/search',
    headers: json,
    setupRequest: (r) => ({ ...r, body: JSON.stringify({ term: next(words) }) }),
  },
  'feed-pairs': {
    method: 'POST',
    path: '/bounty/search',
    headers: json,
    setupRequest: (r) => ({ ...r, body: JSON.stringify({ term: next(pairs) }) }),
  },
  'feed-pairs-full': {
    method: 'POST',
    path: '/bounty/search',
    headers: json,
    setupRequest: (r) => ({ ...r, body: JSON.stringify({ term: next(fullPairs) }) }),
  },
  // Reads go out with a member's token, as a signed-in member's would.
  bounty: {
    method: 'GET',
    setupRequest: (r) => ({
      ...r,
      path: `/bounty/${next(bountyIds)}`,
      headers: { authorization: `Bearer ${next(voters).token}` },
    }),
  },
  // The bounty page of 5 rounds × 50 claims (~90 KB), as in `npm run bench`.
  'bounty-rounds': {
    method: 'GET',
    setupRequest: (r) => ({
      ...r,
      path: `/bounty/${next(roundIds)}`,
      headers: { authorization: `Bearer ${next(voters).token}` },
    }),
  },
  claim: {
    method: 'GET',
    setupRequest: (r) => ({
      ...r,
      path: `/claim/${next(claimIds)}`,
      headers: { authorization: `Bearer ${next(voters).token}` },
    }),
  },
  user: {
    method: 'GET',
    path: '/user',
    setupRequest: (r) => ({ ...r, headers: { authorization: `Bearer ${next(voters).token}` } }),
  },
  vote: voteRequest(voters, active, () => k++),
};
const req = requests[args.endpoint];
if (!req) {
  console.error(`--endpoint is one of ${Object.keys(requests).join(', ')}`);
  process.exit(2);
}

const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-prof-'));
const spawnedAt = performance.now();
const proc = spawn(
  process.execPath,
  [
    ...(args.server === 'floor' ? [] : benchNodeFlags),
    '--cpu-prof',
    '--cpu-prof-dir',
    profDir,
    '--import',
    'tsx',
    args.server === 'floor' ? 'apps/api/bench/floor-server.ts' : 'apps/api/src/server.ts',
  ],
  {
    cwd: rootDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...benchServerEnv({ port, databaseUrl: url, dataDir: profDir }),
      ...(args.endpoint.startsWith('feed-words') || args.endpoint.startsWith('feed-pairs')
        ? { FEED_CACHE_MS: '0' }
        : {}),
    },
  },
);
await waitHealthy(base);
if (Number(args.first) > 0) {
  const first = await autocannon({
    url: base,
    connections: Number(args.connections),
    amount: Number(args.first),
    requests: [req],
  });
  console.log(
    `first pass: ${first.requests.total} requests, ${Math.round(first.requests.total / first.duration)} req/s (not profiled)`,
  );
}
// Samples before the load (start-up: loading and compiling modules, a first pass) are left
// out below.
const loadStartMs = performance.now() - spawnedAt;
const result = await autocannon({
  url: base,
  connections: Number(args.connections),
  duration: Number(args.seconds),
  requests: [req],
});
console.log(
  `${args.endpoint}: ${Math.round(result.requests.total / result.duration)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
);
const exited = new Promise((r) => proc.once('exit', r));
proc.kill('SIGTERM');
await exited;

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const profile = JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Leaves out the samples of start-up (before the load began), setting their time to 0.
{
  let elapsed = 0;
  profile.timeDeltas = profile.timeDeltas.map((d) => {
    elapsed += d;
    return elapsed < loadStartMs * 1000 ? 0 : d;
  });
}
const self = new Map<number, number>();
profile.samples.forEach((id, i) =>
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fns = new Map<string, number>();
const pkgs = new Map<string, number>();
for (const [id, us] of self) {
  const f = byId.get(id)!.callFrame;
  const where = f.url.replace(/^file:\/\//, '').replace(rootDir, '');
  fns.set(
    `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`,
    (fns.get(`${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`) ?? 0) + us,
  );
  const pkg =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
    (where.startsWith('/apps/') || where.startsWith('/packages/')
      ? where.split('/').slice(1, 3).join('/')
      : where.startsWith('node:')
        ? 'node internals'
        : f.functionName.startsWith('(')
          ? f.functionName
          : where || 'native');
  pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
}
const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;

// Inclusive time: the share of busy samples with a package (or a product file) anywhere on
// the stack, e.g. how much of the work ran under helmet's hook or drizzle's query builder.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const unitOf = (url: string) => {
  const where = url.replace(/^file:\/\//, '').replace(rootDir, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1];
  if (pkg) return pkg;
  if (where.startsWith('/apps/') || where.startsWith('/packages/'))
    return where.replace(/\.[cm]?[jt]s$/, '');
  return null;
};
const inclusive = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const fn = byId.get(id)!.callFrame.functionName;
  if (fn === '(idle)' || fn === '(program)') return;
  const us = profile.timeDeltas[i] ?? 0;
  busy += us;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const unit = unitOf(byId.get(at)!.callFrame.url);
    if (unit) seen.add(unit);
  }
  for (const u of seen) inclusive.set(u, (inclusive.get(u) ?? 0) + us);
});
console.log('\nInclusive share of busy time (package or product file anywhere on the stack):');
for (const [u, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${u}`);
console.log('\nSelf time by package:');
for (const [p, us] of [...pkgs].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${pct(us)}  ${p}`);
console.log('\nHeaviest functions (self time):');
for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${pct(us)}  ${f}`);
console.log(`\nprofile: ${path.join(profDir, file)}`);
process.exit(0);
