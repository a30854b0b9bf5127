/**
 * `npm run bench:web [-- --smoke] [--runs N] [--only join,login,register,home,…]
 *   [--bounties N] [--keep]`
 *
 * Lighthouse (mobile form factor, simulated throttling: its defaults) on the nine pages a new
 * visitor or a member opens first: signed out, /join, /login and /register/member; signed in
 * as a member, the home feed, a bounty page, a claim page, a hunter profile, /account and
 * /message (with a few conversations). Like `npm run e2e`, it starts the product
 * (scripts/start.mjs, which builds the web app when stale) on a fresh PostgreSQL database
 * (PGlite when none answers on BENCH_PG_URL) and a fresh DATA_DIR, filled by
 * apps/api/bench/web-fixture.ts (the bench generator: bounties, claims and hunters with real
 * image derivatives, plus one member with a session); the member's conversations are opened
 * through the API once the product is up. Each Lighthouse run gets a fresh Debian Chromium
 * whose local storage holds that member's token (nothing for signed-out pages); Lighthouse
 * clears the HTTP cache before loading.
 *
 * Per page: performance, accessibility and best-practices scores, LCP, TBT, CLS and the
 * JavaScript the page loaded, gzipped (level 9, like e2e/specs/budget.spec.ts) and as
 * transferred: "initial" is what index.html names (entry script and its modulepreloads),
 * "total" every script of the load (lazy route chunks included). Full runs take the median
 * of 3 runs per page and write bench/results/web-<timestamp>.{json,md}; `--smoke` (tiny
 * data, one quick run per page) writes to the OS temp dir and fails only when a page did
 * not load signed in or a run errored, never on scores.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium';
import {
  createRunDatabase,
  productEnv,
  startProduct,
  type RunningProduct,
} from '../support/product.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const resultsDir = path.join(root, 'bench/results');

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    runs: { type: 'string' },
    only: { type: 'string' },
    bounties: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const smoke = args.smoke;
const runs = Number(args.runs ?? (smoke ? 1 : 3));
const data = smoke
  ? { bounties: 12, claimsPerBounty: 4, members: 5, images: 4 }
  : { bounties: Number(args.bounties ?? 1000), claimsPerBounty: 12, members: 500, images: 24 };

const TARGETS = { performance: 95, accessibility: 100, initialJsKb: 150 };
const API_PORT = Number(process.env.API_PORT ?? 5452);
const WEB_PORT = Number(process.env.WEB_PORT ?? 3452);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const startedAt = new Date().toISOString();
const stamp = startedAt.replace(/[:.]/g, '-');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-web-bench-'));
const log = (msg: string) => console.log(`[bench:web] ${msg}`);

interface Fixture {
  token: string;
  bountyId: number;
  claimId: number;
  handle: string;
  /** Hunters the member gets a conversation with (for /message). */
  handles: string[];
  rows: Record<string, number>;
}

interface RunResult {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  js: { initialGzipKb: number; totalGzipKb: number; transferKb: number; files: number };
  images: number;
  /** Lighthouse's CPU benchmark of this run (higher: a faster, quieter machine). */
  benchmarkIndex: number;
  finalUrl: string;
  warnings: string[];
  /** Audits scoring under 0.9 (not informative, not applicable), by category. */
  failing: Record<string, string[]>;
}

interface PageResult {
  name: string;
  path: string;
  signedIn: boolean;
  runs: RunResult[];
  median?: Omit<RunResult, 'finalUrl' | 'warnings' | 'failing' | 'benchmarkIndex'>;
  failing?: Record<string, string[]>;
  /** The median run's Lighthouse report, relative to the OS temp dir (not kept in results). */
  report?: string;
  error?: string;
}

// ---------------------------------------------------------------- database and product

const db = await createRunDatabase({
  adminUrl: PG_ADMIN,
  prefix: process.env.BENCH_DB_PREFIX ?? 'bh_webbench',
  dataDir,
  warn: log,
});
const { apiUrl, webUrl, env } = productEnv({
  dataDir,
  databaseUrl: db.url,
  apiPort: API_PORT,
  webPort: WEB_PORT,
});

function runFixture(): Promise<Fixture> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'apps/api/bench/web-fixture.ts'),
        '--bounties',
        String(data.bounties),
        '--claims-per-bounty',
        String(data.claimsPerBounty),
        '--members',
        String(data.members),
        '--images',
        String(data.images),
      ],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`web-fixture exited with ${code}`));
      try {
        resolve(JSON.parse(last) as Fixture);
      } catch {
        reject(new Error(`web-fixture printed no JSON: ${out.slice(-500)}`));
      }
    });
  });
}

let product: RunningProduct | null = null;

async function stop(): Promise<void> {
  await product?.stop();
  if (!args.keep) await db.drop();
}

/**
 * The member's conversations for /message: one with each of the fixture's other hunters,
 * each with a message, through the API as the app would open them.
 */
async function openConversations(f: Fixture): Promise<void> {
  const call = async (method: string, p: string, body: unknown) => {
    const res = await fetch(`${apiUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { conversationId: number };
  };
  for (const [i, handle] of f.handles.entries()) {
    const conversation = await call('POST', '/conversations', { handle });
    await call('POST', `/conversations/${conversation.conversationId}/messages`, {
      text: `Hello @${handle}, loved your claim. Are you taking bounty requests this week? (${i + 1})`,
    });
  }
  log(`${f.handles.length} conversations opened for /message`);
}

// ---------------------------------------------------------------- measuring

/** The scripts a page's index.html names: the entry module and the chunks it modulepreloads. */
async function initialScripts(pagePath: string): Promise<Set<string>> {
  const html = await (await fetch(`${webUrl}${pagePath}`)).text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g))
    urls.add(new URL(m[1]!, webUrl).href);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
    urls.add(new URL(m[1]!, webUrl).href);
  return urls;
}

const gzipCache = new Map<string, number>();
async function gzippedBytes(url: string): Promise<number> {
  const cached = gzipCache.get(url);
  if (cached !== undefined) return cached;
  const body = Buffer.from(await (await fetch(url)).arrayBuffer());
  const n = gzipSync(body, { level: 9 }).length;
  gzipCache.set(url, n);
  return n;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  statusCode?: number;
  mimeType?: string;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

const flags: Flags = {
  logLevel: 'error',
  output: 'json',
  onlyCategories: ['performance', 'accessibility', 'best-practices'],
  maxWaitForLoad: 45_000,
  // Smoke: no settling pauses, no screenshots; still every audit of the three categories.
  ...(smoke
    ? {
        pauseAfterFcpMs: 0,
        pauseAfterLoadMs: 0,
        networkQuietThresholdMs: 250,
        cpuQuietThresholdMs: 250,
        disableFullPageScreenshot: true,
        skipAudits: ['screenshot-thumbnails', 'final-screenshot'],
      }
    : {}),
};

function failingAudits(lhr: Result): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [id, cat] of Object.entries(lhr.categories)) {
    const ids = cat.auditRefs
      .filter((ref) => {
        const a = lhr.audits[ref.id];
        if (!a || a.score === null) return false;
        if (a.scoreDisplayMode === 'notApplicable' || a.scoreDisplayMode === 'informative')
          return false;
        return a.score < 0.9;
      })
      .map((ref) => {
        const a = lhr.audits[ref.id]!;
        return `${ref.id}${a.displayValue ? ` (${a.displayValue})` : ''}`;
      });
    if (ids.length) out[id] = ids;
  }
  return out;
}

async function measure(
  name: string,
  pagePath: string,
  /** The member's token; null: signed out. */
  token: string | null,
  initial: Set<string>,
): Promise<{ result: RunResult; lhr: Result }> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-web-bench-chrome-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    userDataDir,
    defaultViewport: null,
  });
  try {
    const page = await browser.newPage();
    // Sign in the way the app does (local storage `ss`), on a small file of the same origin
    // so no script of the app is in the HTTP cache. Lighthouse's default storage reset
    // clears the HTTP cache, service workers and Cache Storage, not local storage.
    if (token) {
      await page.goto(`${webUrl}/logo.svg`);
      await page.evaluate((t) => localStorage.setItem('ss', t), token);
    }
    const url = `${webUrl}${pagePath}`;
    const runner = await lighthouse(url, flags, undefined, page);
    if (!runner) throw new Error('Lighthouse returned nothing');
    const lhr = runner.lhr;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const finalUrl = lhr.finalDisplayedUrl;
    if (new URL(finalUrl).pathname !== pagePath)
      throw new Error(
        `${name}: ended on ${finalUrl}, not ${pagePath} (${token ? 'not signed in?' : 'redirected'})`,
      );
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] })?.items ??
      []) as NetworkItem[];
    const scripts = new Map<string, number>();
    for (const it of items)
      if (it.resourceType === 'Script' && it.url.startsWith(webUrl))
        scripts.set(it.url, (scripts.get(it.url) ?? 0) + (it.transferSize ?? 0));
    let initialGzip = 0;
    let totalGzip = 0;
    for (const u of scripts.keys()) {
      const g = await gzippedBytes(u);
      totalGzip += g;
      if (initial.has(u)) initialGzip += g;
    }
    const images = items.filter(
      (it) => it.resourceType === 'Image' && it.statusCode === 200 && it.url.startsWith(apiUrl),
    ).length;
    return {
      lhr,
      result: {
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        lcpMs: Math.round(num('largest-contentful-paint')),
        tbtMs: Math.round(num('total-blocking-time')),
        cls: Math.round(num('cumulative-layout-shift') * 1000) / 1000,
        js: {
          initialGzipKb: kb(initialGzip),
          totalGzipKb: kb(totalGzip),
          transferKb: kb([...scripts.values()].reduce((a, b) => a + b, 0)),
          files: scripts.size,
        },
        images,
        benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
        finalUrl,
        warnings: lhr.runWarnings.map(String),
        failing: failingAudits(lhr),
      },
    };
  } finally {
    await browser.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round(((s[mid - 1]! + s[mid]!) / 2) * 1000) / 1000;
}

function summarize(rs: RunResult[]): NonNullable<PageResult['median']> {
  const m = (f: (r: RunResult) => number) => median(rs.map(f));
  return {
    performance: m((r) => r.performance),
    accessibility: m((r) => r.accessibility),
    bestPractices: m((r) => r.bestPractices),
    lcpMs: m((r) => r.lcpMs),
    tbtMs: m((r) => r.tbtMs),
    cls: m((r) => r.cls),
    js: {
      initialGzipKb: m((r) => r.js.initialGzipKb),
      totalGzipKb: m((r) => r.js.totalGzipKb),
      transferKb: m((r) => r.js.transferKb),
      files: m((r) => r.js.files),
    },
    images: m((r) => r.images),
  };
}

// ---------------------------------------------------------------- report

const label = (p: PageResult) => `${p.name} \`${p.path}\`${p.signedIn ? '' : ' (signed out)'}`;

function markdown(report: {
  startedAt: string;
  smoke: boolean;
  runs: number;
  database: string;
  data: Record<string, number>;
  pages: PageResult[];
}): string {
  const L: string[] = [];
  L.push(`# Web benchmark ${report.startedAt}${report.smoke ? ' (smoke)' : ''}`, '');
  L.push(
    `Lighthouse ${lighthouseVersion}, mobile form factor, simulated throttling (its defaults), ` +
      `Chromium at ${path.basename(CHROMIUM)}; ${report.runs} run(s) per page, median shown. ` +
      `Pages marked "signed out" load without a session; the rest signed in as a member with ` +
      `an active membership. Database: ${report.database}; ` +
      `data: ${Object.entries(report.data)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}.`,
    '',
  );
  L.push(
    '| page | perf | a11y | best practices | LCP | TBT | CLS | JS gzip initial | JS gzip total | JS transferred | images | targets |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const p of report.pages) {
    const m = p.median;
    if (!m) {
      L.push(`| ${label(p)} | failed: ${p.error ?? '?'} |||||||||||`);
      continue;
    }
    const missed = [
      m.performance < TARGETS.performance ? 'perf' : '',
      m.accessibility < TARGETS.accessibility ? 'a11y' : '',
      m.js.initialGzipKb >= TARGETS.initialJsKb ? 'JS' : '',
    ].filter(Boolean);
    L.push(
      `| ${label(p)} | ${m.performance} | ${m.accessibility} | ${m.bestPractices} | ` +
        `${(m.lcpMs / 1000).toFixed(2)} s | ${m.tbtMs} ms | ${m.cls} | ${m.js.initialGzipKb} KB | ` +
        `${m.js.totalGzipKb} KB (${m.js.files} files) | ${m.js.transferKb} KB | ${m.images} | ` +
        `${missed.length ? `missed: ${missed.join(', ')}` : 'met'} |`,
    );
  }
  L.push(
    '',
    `Targets: performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility}, ` +
      `initial JavaScript < ${TARGETS.initialJsKb} KB gzipped. "Initial" is what index.html ` +
      'names (entry and modulepreloads); "total" adds the lazy chunks the page loaded. Gzip is ' +
      'level 9 of each file; "transferred" is what went over the wire.',
  );
  const runsLine = report.pages
    .filter((p) => p.runs.length > 1)
    .map((p) => `${p.name} ${p.runs.map((r) => r.performance).join('/')}`);
  if (runsLine.length) L.push('', `Performance per run: ${runsLine.join('; ')}.`);
  const bench = report.pages.flatMap((p) => p.runs.map((r) => r.benchmarkIndex));
  if (bench.length)
    L.push(
      '',
      `Lighthouse CPU benchmark index over the runs: ${Math.min(...bench)} to ${Math.max(...bench)} ` +
        '(this 2-core machine is shared; lower means a busier CPU and worse TBT/LCP).',
    );
  const failing = report.pages.filter((p) => p.failing && Object.keys(p.failing).length);
  if (failing.length) {
    L.push('', '## Audits under 0.9 (median run)', '');
    for (const p of failing)
      for (const [cat, ids] of Object.entries(p.failing!))
        L.push(`- ${p.name}, ${cat}: ${ids.join(', ')}`);
  }
  return L.join('\n');
}

const lighthouseVersion = (
  JSON.parse(fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as {
    version: string;
  }
).version;

// ---------------------------------------------------------------- main

const pages: PageResult[] = [];
const reportsDir = path.join(os.tmpdir(), `bh-web-bench-${stamp}`);
let code = 1;
let fixture: Fixture | null = null;
try {
  const t0 = performance.now();
  log(`data: ${JSON.stringify(data)} into ${db.postgres ? 'PostgreSQL' : 'PGlite'}`);
  fixture = await runFixture();
  log(`data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  product = startProduct({ env, dataDir });
  if (!(await product.waitUntilUp())) {
    console.error(product.log());
    throw new Error('the product did not start');
  }
  log(`product up (api ${apiUrl}, web ${webUrl})`);
  await openConversations(fixture);
  const all = [
    { name: 'join', path: '/join', signedIn: false },
    { name: 'login', path: '/login', signedIn: false },
    { name: 'register', path: '/register/member', signedIn: false },
    { name: 'home', path: '/', signedIn: true },
    { name: 'bounty', path: `/bounty/${fixture.bountyId}`, signedIn: true },
    { name: 'claim', path: `/claim/${fixture.claimId}`, signedIn: true },
    { name: 'profile', path: `/profile/${fixture.handle}`, signedIn: true },
    { name: 'account', path: '/account', signedIn: true },
    { name: 'message', path: '/message', signedIn: true },
  ];
  const only = args.only?.split(',').map((s) => s.trim());
  fs.mkdirSync(reportsDir, { recursive: true });
  for (const p of all.filter((p) => !only || only.includes(p.name))) {
    const res: PageResult = { ...p, runs: [] };
    const initial = await initialScripts(p.path);
    const token = p.signedIn ? fixture.token : null;
    pages.push(res);
    const lhrs: Result[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      try {
        const { result, lhr } = await measure(p.name, p.path, token, initial);
        res.runs.push(result);
        lhrs.push(lhr);
        log(
          `${p.name} run ${i + 1}/${runs}: perf ${result.performance}, a11y ${result.accessibility}, ` +
            `bp ${result.bestPractices}, LCP ${result.lcpMs} ms, TBT ${result.tbtMs} ms, ` +
            `CLS ${result.cls}, JS ${result.js.initialGzipKb}/${result.js.totalGzipKb} KB gz, ` +
            `${result.images} images, CPU benchmark ${result.benchmarkIndex} ` +
            `(${((performance.now() - t) / 1000).toFixed(1)} s)`,
        );
      } catch (err) {
        res.error = err instanceof Error ? err.message : String(err);
        log(`${p.name} run ${i + 1}/${runs} failed: ${res.error}`);
        break;
      }
    }
    if (!res.error && res.runs.length) {
      res.median = summarize(res.runs);
      // The run closest to the median performance score: its audits and report.
      const idx = res.runs.reduce(
        (best, r, i) =>
          Math.abs(r.performance - res.median!.performance) <
          Math.abs(res.runs[best]!.performance - res.median!.performance)
            ? i
            : best,
        0,
      );
      res.failing = res.runs[idx]!.failing;
      res.report = path.join(path.basename(reportsDir), `${p.name}.json`);
      fs.writeFileSync(path.join(reportsDir, `${p.name}.json`), JSON.stringify(lhrs[idx]));
    }
  }
  code = pages.some((p) => p.error || !p.median) ? 1 : 0;
} catch (err) {
  console.error(`[bench:web] ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await stop();
}

const report = {
  startedAt,
  smoke,
  runs,
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    loadAvgAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  },
  lighthouse: lighthouseVersion,
  database: db.postgres ? 'PostgreSQL' : 'PGlite',
  data: fixture?.rows ?? {},
  targets: TARGETS,
  pages,
};
const md = markdown(report);
console.log(`\n${md}\n`);
if (pages.some((p) => p.report)) log(`Lighthouse reports (median runs): ${reportsDir}`);
if (smoke) {
  const file = path.join(os.tmpdir(), `bh-web-bench-smoke-${stamp}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  log(`smoke results in ${file} (full runs write bench/results/)`);
} else if (pages.length) {
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, `web-${stamp}.json`), JSON.stringify(report, null, 2));
  fs.writeFileSync(path.join(resultsDir, `web-${stamp}.md`), `${md}\n`);
  log(`results in bench/results/web-${stamp}.{json,md}`);
}
if (code === 0 && !args.keep) fs.rmSync(dataDir, { recursive: true, force: true });
else log(`server log and data kept in ${dataDir}`);
process.exit(code);
