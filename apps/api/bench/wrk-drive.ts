/**
 * `npm run bench -- --client wrk`: the measured runs sent by wrk (Debian's `wrk` package, a C
 * client) instead of autocannon, for reads whose answers are large. autocannon decodes every
 * answer's body into a string; at 50 connections on this 2-core machine it fills a core of its
 * own under the ~90 KB bounty page of 5 rounds × 50 claims, and its p99 then measures its own
 * queue (decision 0042). The product and the bare floor are driven alike, so the ratios still
 * compare like with like.
 *
 * The requests are the ones autocannon would have sent next: the endpoint's request rotation
 * (endpoints.ts) is read ahead into a file, one request a line, and a Lua script sends them in
 * turn from every connection. Requests that must not repeat (votes) are sent by wrk too
 * (decision 0043): a run that may have gone past the end of the file, and so round again to
 * requests already sent, is refused rather than recorded.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Request } from 'autocannon';

/** What a wrk run gives the bench (the fields of load-client.ts's DriveResult it can fill). */
export interface WrkResult {
  total: number;
  seconds: number;
  p50: number;
  p99: number;
  mean: number;
  bytes: number;
  non2xx: number;
  errors: number;
}

// Each line: method, path, body, then "name:value" headers, separated by tabs. JSON bodies and
// tokens hold no tab or newline.
const SCRIPT = `
local reqs = {}
local function split(s)
  local t, i = {}, 1
  while true do
    local j = string.find(s, "\\t", i, true)
    if not j then t[#t + 1] = string.sub(s, i); return t end
    t[#t + 1] = string.sub(s, i, j - 1)
    i = j + 1
  end
end
function init(args)
  for line in io.lines(args[1]) do
    local f = split(line)
    local h = {}
    for n = 4, #f do
      local c = string.find(f[n], ":", 1, true)
      h[string.sub(f[n], 1, c - 1)] = string.sub(f[n], c + 1)
    end
    reqs[#reqs + 1] = wrk.format(f[1], f[2], h, f[3] ~= "" and f[3] or nil)
  end
end
local i = 0
function request()
  i = i + 1
  if i > #reqs then i = 1 end
  return reqs[i]
end
`;

let wrkPath: string | null | undefined;
/** The wrk binary, or null when it is not installed. */
export function findWrk(): string | null {
  if (wrkPath !== undefined) return wrkPath;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'wrk');
    if (fs.existsSync(p)) return (wrkPath = p);
  }
  return (wrkPath = null);
}

/** The next `count` requests of the rotation, as the script's lines. */
function requestLines(request: Request, count: number): string[] {
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const base = {
      method: request.method ?? 'GET',
      path: request.path ?? '/',
      headers: request.headers ?? {},
      body: request.body,
    } as Request;
    const r = (request.setupRequest ? request.setupRequest(base, {}) : base) ?? base;
    const body = typeof r.body === 'string' ? r.body : r.body ? String(r.body) : '';
    const headers = Object.entries(r.headers ?? {}).map(([k, v]) => `${k}:${String(v)}`);
    const line = [r.method ?? 'GET', r.path ?? '/', body, ...headers].join('\t');
    if (/[\t\n]/.test(body) || headers.some((h) => /[\t\n]/.test(h)))
      throw new Error('wrk: a request holds a tab or a newline');
    lines.push(line);
  }
  return lines;
}

/** How many of `lines` come before the first one that repeats an earlier one. */
function distinctRun(lines: string[]): number {
  const seen = new Set<string>();
  for (const [i, line] of lines.entries()) {
    if (seen.has(line)) return i;
    seen.add(line);
  }
  return lines.length;
}

/** wrk's "3.71ms", "812.00us", "1.20s" in ms. */
function ms(v: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

const SIZE: Record<string, number> = {
  B: 1,
  KB: 1024,
  MB: 1024 ** 2,
  GB: 1024 ** 3,
  TB: 1024 ** 4,
};

/** Parses wrk's report (with --latency). Exported for its test. */
export function parseWrk(out: string): WrkResult {
  const total = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(out);
  const read = /requests in [^,]+, ([\d.]+)([KMGT]?B) read/.exec(out);
  const pct = (p: string) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const mean = ms(/^\s+Latency\s+(\S+)/m.exec(out)?.[1] ?? '');
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (!total || !read) throw new Error(`wrk: unreadable report:\n${out}`);
  const seconds = Number(total[2]) * (total[3] === 'ms' ? 0.001 : total[3] === 'm' ? 60 : 1);
  const p50 = pct('50');
  const p99 = pct('99');
  // A report without its latency lines (no --latency, or no answer at all) would put NaN in
  // the results as if measured.
  if ([p50, p99, mean].some(Number.isNaN)) throw new Error(`wrk: no latency in report:\n${out}`);
  return {
    total: Number(total[1]),
    seconds,
    p50,
    p99,
    mean,
    bytes: Math.round(Number(read[1]) * SIZE[read[2]!]!),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    errors: sock ? sock.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
  };
}

/**
 * `seconds` of load from `connections` connections (one thread, as autocannon's one process),
 * sending the rotation's next requests. Enough of them are read ahead for ~20,000 a second
 * (`readAhead` sets the number). With `noRepeat` (votes: each a new member and claim), a run
 * that may have sent more requests than were read ahead throws: past the end, the script sends
 * the file round again.
 */
export async function driveWrk(
  url: string,
  request: Request,
  connections: number,
  seconds: number,
  opts: { noRepeat?: boolean; readAhead?: number } = {},
): Promise<WrkResult> {
  const bin = findWrk();
  if (!bin) throw new Error('--client wrk: wrk is not installed (apt-get install -y wrk)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-wrk-'));
  try {
    const reqFile = path.join(dir, 'requests.txt');
    const script = path.join(dir, 'rotate.lua');
    const count = opts.readAhead ?? Math.max(1000, Math.ceil(seconds * 20_000));
    const lines = requestLines(request, count);
    fs.writeFileSync(reqFile, lines.join('\n') + '\n');
    // Requests that must not repeat: those sent before the rotation itself (a small bench's few
    // members × claims) or the file's end comes round to one already sent.
    const distinct = opts.noRepeat ? distinctRun(lines) : count;
    fs.writeFileSync(script, SCRIPT);
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        bin,
        [
          '-t1',
          `-c${connections}`,
          `-d${seconds}s`,
          '--timeout',
          '30s',
          '--latency',
          '-s',
          script,
          url,
          '--',
          reqFile,
        ],
        { maxBuffer: 1 << 20 },
        (err, stdout, stderr) =>
          err ? reject(new Error(`wrk: ${stderr || err.message}`)) : resolve(stdout),
      ),
    );
    const result = parseWrk(out);
    // Sent = answered + at most one in flight per connection when the run stopped.
    if (opts.noRepeat && result.total + connections > distinct)
      throw new Error(
        `wrk: ${result.total} answers from ${connections} connections, but only ${distinct} distinct requests were read ahead: some may have been sent twice`,
      );
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
