/**
 * `npx tsx apps/api/bench/search-sql.ts <database url> [<database url> …] [--rounds N]`
 *
 * The feed search's statement alone (no HTTP, no claims grid): for every matching one-word
 * term (bench/fixtures.ts oneWordTerms) and as many two-word terms, one page (limit 11)
 * through the index paths (search.bounty_prefixes, search.bounty_prefix_pairs) and through
 * the reference (every match ranked with ts_rank), one connection, the databases and paths interleaved so that a busy machine slows
 * them alike. Prints the time per statement (mean, p50, p99) per database and path, and the
 * growth from the first database to each other. The databases are filled beforehand with
 * `npm run bench:data` (and migrated).
 */
import { parseArgs } from 'node:util';
import { createDatabase, type DatabaseHandle } from '../src/db/client';
import { toPrefixQuery } from '../src/modules/bounties/bounties.service';
import { searchBounties } from '../src/modules/bounties/search.repository';
import { oneWordTerms, twoWordTerms } from './fixtures';
import { rawConnection } from './raw-db';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' } },
});
if (positionals.length === 0) {
  console.error('usage: search-sql.ts <database url> [<database url> …] [--rounds N]');
  process.exit(2);
}
const rounds = Number(values.rounds);

interface Target {
  url: string;
  handle: DatabaseHandle;
  bounties: number;
  words: string[];
  pairs: string[];
}

const targets: Target[] = [];
for (const url of positionals) {
  const handle = await createDatabase(url, { poolSize: 1 });
  const q = await rawConnection(handle);
  const [{ n }] = (await q.query<{ n: number }>('select count(*)::int as n from bounties')) as [
    { n: number },
  ];
  const words = await oneWordTerms(q);
  const pairs = await twoWordTerms(q, words.length);
  await q.release();
  targets.push({ url: new URL(url).pathname.slice(1), handle, bounties: n, words, pairs });
}

type Path =
  | 'one word, index walk'
  | 'one word, rank every match'
  | 'two words, index walk'
  | 'two words, rank every match';
const INDEXED: Path[] = ['one word, index walk', 'two words, index walk'];
const times = new Map<string, number[]>();
const key = (t: Target, p: Path) => `${t.url}\u0000${p}`;
async function time(t: Target, p: Path, term: string) {
  const tsquery = toPrefixQuery(term);
  const start = performance.now();
  await searchBounties(t.handle.db, { tsquery, limit: 11, rankAll: !INDEXED.includes(p) });
  const ms = performance.now() - start;
  const list = times.get(key(t, p)) ?? [];
  list.push(ms);
  times.set(key(t, p), list);
}

// Warm-up: every statement prepared and the pages read once.
for (const t of targets)
  for (const w of t.words.slice(0, 50)) {
    await time(t, 'one word, index walk', w);
    await time(t, 'one word, rank every match', w);
  }
for (const t of targets)
  for (const pair of t.pairs.slice(0, 50)) {
    await time(t, 'two words, index walk', pair);
    await time(t, 'two words, rank every match', pair);
  }
times.clear();

for (let r = 0; r < rounds; r++) {
  const n = Math.max(...targets.map((t) => t.words.length));
  for (let i = 0; i < n; i++)
    for (const t of targets) {
      const w = t.words[i % t.words.length]!;
      const pair = t.pairs[(r * n + i) % t.pairs.length]!;
      await time(t, 'one word, index walk', w);
      await time(t, 'one word, rank every match', w);
      await time(t, 'two words, index walk', pair);
      await time(t, 'two words, rank every match', pair);
    }
}

const q = (xs: number[], f: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(f * (xs.length - 1))]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `| database | bounties | statement | runs | mean ms | p50 ms | p99 ms | mean vs ${targets[0]!.url} |`,
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|');
const paths: Path[] = [
  'one word, index walk',
  'one word, rank every match',
  'two words, index walk',
  'two words, rank every match',
];
for (const p of paths)
  for (const t of targets) {
    const xs = times.get(key(t, p))!;
    const base = times.get(key(targets[0]!, p))!;
    console.log(
      `| ${t.url} | ${t.bounties} | ${p} | ${xs.length} | ${mean(xs).toFixed(3)} | ${q(xs, 0.5).toFixed(3)} | ${q(xs, 0.99).toFixed(3)} | ${(mean(xs) / mean(base)).toFixed(2)}× |`,
    );
  }
for (const t of targets) await t.handle.close();
process.exit(0);
