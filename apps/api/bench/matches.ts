/**
 * `npm run bench:matches [-- --seconds S] [--first N] [--rounds R] [--port P]`
 *
 * Does a new search term cost more when more bounties match it? Issue 21 part 3 wants a term's
 * cost not to follow the number of matches. On the database of DATABASE_URL (filled beforehand
 * with `npm run bench:data`), takes the two-word terms `npm run bench` sends (fixtures.ts), counts
 * each one's matches in search.bounty_prefix_pairs, and groups them: terms whose page is not full
 * (up to 10 matches), and full pages with 11–40, 41–300 and over 300 matches. Then starts the
 * product as the bench does (the API bundle, response cache off), sends a first pass of N new
 * terms from the whole mix (as the bench's first pass), and drives each group in turn for S
 * seconds (50 connections), R rounds, each request a term of that group not sent before while
 * any are left (then again from the start: a group of few terms is reported as cycling). Prints
 * req/s, p50/p99, the mean answer size and the API's CPU per request (from /proc).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import { createDatabase } from '../src/db/client';
import { toPrefixQuery } from '../src/modules/bounties/bounties.service';
import { prefixPair } from '../src/modules/bounties/search.repository';
import { twoWordTerms } from './fixtures';
import { rawConnection } from './raw-db';
import { benchNodeFlags, benchServerEnv, filledDatabaseUrl, waitHealthy } from './server-env';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.resolve(here, '../../..');
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    first: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '2' },
    port: { type: 'string', default: '5764' },
  },
});
const url = filledDatabaseUrl();

const handle = await createDatabase(url, { poolSize: 2 });
const q = await rawConnection(handle);
const terms = await twoWordTerms(q, 60_000);
const pairs = terms.map((t) => {
  const tsquery = toPrefixQuery(t);
  return tsquery ? prefixPair(tsquery) : null;
});
const counted = await q.query<{ a: string; b: string; n: string }>(
  `select t.a, t.b, (select count(*) from search.bounty_prefix_pairs p
     where p.prefix_a = t.a and p.prefix_b = t.b) as n
   from unnest($1::text[], $2::text[]) as t(a, b)`,
  [pairs.map((p) => p?.[0] ?? ''), pairs.map((p) => p?.[1] ?? '')],
);
await q.release();
await handle.close();
const matches = new Map(counted.map((r) => [`${r.a} ${r.b}`, Number(r.n)]));
const countOf = (i: number) => {
  const p = pairs[i];
  return p ? (matches.get(`${p[0]} ${p[1]}`) ?? 0) : 0;
};
const groups: [string, (n: number) => boolean][] = [
  ['page not full (≤ 10 matches)', (n) => n <= 10],
  ['full page, 11–40 matches', (n) => n >= 11 && n <= 40],
  ['full page, 41–300 matches', (n) => n > 40 && n <= 300],
  ['full page, over 300 matches', (n) => n > 300],
];
const sorted = terms.map((_t, i) => countOf(i)).sort((x, y) => x - y);
const at = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * f))];
console.log(
  `${terms.length} two-word terms; matches p10 ${at(0.1)}, p50 ${at(0.5)}, p90 ${at(0.9)}, max ${sorted.at(-1)}`,
);
const lists = groups.map(([name, pick]) => ({
  name,
  terms: terms.filter((_t, i) => pick(countOf(i))),
}));
for (const g of lists) console.log(`  ${g.name}: ${g.terms.length} terms`);

const build = (await import(pathToFileURL(path.join(rootDir, 'scripts/api-build.mjs')).href)) as {
  ensureApiBuilt(): Promise<void>;
  API_ENTRY: string;
};
await build.ensureApiBuilt();
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-matches-'));
const proc = spawn(process.execPath, [...benchNodeFlags, build.API_ENTRY], {
  cwd: rootDir,
  env: { ...benchServerEnv({ port, databaseUrl: url, dataDir }), FEED_CACHE_MS: '0' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
await waitHealthy(base, 600);

const cpuMs = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};
const sent = new Map<string, number>();
async function drive(name: string, list: string[], opts: { amount?: number; duration?: number }) {
  let k = sent.get(name) ?? 0;
  const req: Request = {
    method: 'POST',
    path: '/bounty/search',
    headers: { 'content-type': 'application/json' },
    setupRequest: (r) => ({ ...r, body: JSON.stringify({ term: list[k++ % list.length] }) }),
  };
  const cpu0 = cpuMs(proc.pid!);
  const r = await autocannon({ url: base, connections: 50, ...opts, requests: [req] });
  const cpu = (cpuMs(proc.pid!) - cpu0) / r.requests.total;
  sent.set(name, k);
  const cycling = k > list.length ? ` (cycling ${list.length} terms)` : '';
  console.log(
    `${name}: ${Math.round(r.requests.total / r.duration)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ` +
      `answer ${(r.throughput.total / r.requests.total / 1024).toFixed(1)} KB, API CPU ${cpu.toFixed(2)} ms/req, ` +
      `non-2xx ${r.non2xx}${cycling}`,
  );
}

try {
  await drive('first pass, the whole mix', terms, { amount: Number(args.first) });
  for (let round = 0; round < Number(args.rounds); round++)
    for (const g of lists)
      if (g.terms.length > 0) await drive(g.name, g.terms, { duration: Number(args.seconds) });
} finally {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
