/**
 * The live scenario of `npm run bench` (issue 19): N event streams held open on one API
 * instance (2,000 by default) while messages flow between members; reports the delivery
 * latency (from just before `POST /conversations/{id}/messages` to the event arriving on the
 * recipient's stream: p50, p99, max), messages lost, and the server's RSS per open stream.
 * Users, sessions and conversations are written straight into a fresh PostgreSQL database.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { hashToken } from '../src/lib/tokens';
import { readEvents } from '../test/live-support';

export interface LiveServer {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

export interface LiveOptions {
  streams: number;
  messages: number;
  /** Messages started per second (an open-loop flow, as users write). */
  rate: number;
  senders: number;
}

export interface LiveResult {
  streams: number;
  opened: number;
  messages: number;
  delivered: number;
  lost: number;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** The sender's POST alone (answered), for comparison. */
  postMs: { p50: number; p99: number };
  messagesPerSecond: number;
  rssMb: { before: number; withStreams: number; afterMessages: number };
  rssKbPerStream: number;
  openSeconds: number;
  /**
   * How late each process's event loop ran while the messages flowed (p99 and max, ms): the
   * bench client's (both latencies above are measured there) and the server's (its metrics).
   */
  eventLoopLagMs: { client: Lag; server: Lag | null };
}

interface Lag {
  p99: number;
  max: number;
}

/** The server's event loop lag since its metrics were last read (prom-client resets it then). */
async function serverLag(base: string): Promise<Lag | null> {
  const text = await fetch(`${base}/metrics`)
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  const read = (name: string) => {
    const m = new RegExp(`^bountyhunt_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(
      text,
    );
    return m ? Math.round(Number(m[1]) * 10_000) / 10 : NaN;
  };
  const lag = { p99: read('p99'), max: read('max') };
  return Number.isFinite(lag.max) ? lag : null;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Members (receivers hold streams, senders write) with sessions and one conversation each. */
export async function seedLive(
  url: string,
  o: LiveOptions,
): Promise<{
  receivers: { token: string; conversationId: number; sender: number }[];
  senderTokens: string[];
}> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const run = crypto.randomBytes(3).toString('hex');
    const total = o.streams + o.senders;
    const tokens = Array.from({ length: total }, () =>
      crypto.randomBytes(32).toString('base64url'),
    );
    const ids: number[] = [];
    for (let i = 0; i < total; i += 1000) {
      const n = Math.min(1000, total - i);
      const rows = await client.query<{ id: number }>(
        `insert into users (email, password_hash, role, handle, active, membership)
         select 'live' || $1 || '-' || g || '@bench.example', 'x', 1, 'l' || $1 || g,
                now() + interval '30 days', 2
         from generate_series($2::int, $3::int) g returning id`,
        [run, i, i + n - 1],
      );
      ids.push(...rows.rows.map((r) => r.id));
      await client.query(
        `insert into sessions (user_id, token_hash, expires_at)
         select unnest($1::int[]), unnest($2::text[]), now() + interval '1 day'`,
        [rows.rows.map((r) => r.id), tokens.slice(i, i + n).map(hashToken)],
      );
    }
    const senderIds = ids.slice(o.streams);
    const receivers: { token: string; conversationId: number; sender: number }[] = [];
    for (let i = 0; i < o.streams; i++) {
      const r = ids[i]!;
      const s = senderIds[i % senderIds.length]!;
      const [a, b] = r < s ? [r, s] : [s, r];
      const conv = await client.query<{ id: number }>(
        `insert into conversations (user_a, user_b, created_at) values ($1, $2, now()) returning id`,
        [a, b],
      );
      const id = conv.rows[0]!.id;
      await client.query(
        `insert into conversation_members (conversation_id, user_id, other_id) values ($1, $2, $3), ($1, $3, $2)`,
        [id, r, s],
      );
      receivers.push({ token: tokens[i]!, conversationId: id, sender: i % senderIds.length });
    }
    return { receivers, senderTokens: tokens.slice(o.streams) };
  } finally {
    await client.end();
  }
}

interface Stream {
  close(): void;
}

/** Opens a stream and calls `onMessage(text, at)` for each message event. */
async function openStream(
  base: string,
  token: string,
  onMessage: (text: string, at: number) => void,
): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream: ${res.status}`);
  let opened!: () => void;
  const open = new Promise<void>((r) => (opened = r));
  void readEvents(res.body, {
    comment: (text) => {
      if (text === 'open') opened();
    },
    event: (_id, data) => {
      const e = JSON.parse(data) as { type: string; message?: { text: string } };
      if (e.type === 'message' && e.message) onMessage(e.message.text, performance.now());
    },
  }).finally(() => opened());
  await open;
  return { close: () => controller.abort() };
}

export async function runLive(
  server: LiveServer,
  url: string,
  o: LiveOptions,
  log: (m: string) => void,
): Promise<LiveResult> {
  log(`live: seeding ${o.streams} members with streams and ${o.senders} senders`);
  const seeded = await seedLive(url, o);
  const before = rssMb(server.pid);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const onMessage = (text: string, at: number) => {
    const t0 = sentAt.get(text);
    if (t0 === undefined) return;
    sentAt.delete(text);
    latencies.push(at - t0);
  };
  log(`live: opening ${o.streams} streams`);
  const openStarted = performance.now();
  const streams: Stream[] = [];
  for (let i = 0; i < seeded.receivers.length; i += 100) {
    const batch = seeded.receivers.slice(i, i + 100);
    streams.push(
      ...(await Promise.all(batch.map((r) => openStream(server.base, r.token, onMessage)))),
    );
  }
  const openSeconds = (performance.now() - openStarted) / 1000;
  // Let the server settle (and collect) before reading its memory.
  await new Promise((r) => setTimeout(r, 2000));
  const withStreams = rssMb(server.pid);
  log(
    `live: ${streams.length} streams open in ${openSeconds.toFixed(1)} s; sending ${o.messages} messages`,
  );
  let errors = 0;
  const postLatencies: number[] = [];
  await serverLag(server.base);
  const clientLag = monitorEventLoopDelay({ resolution: 10 });
  clientLag.enable();
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let k = 0; k < o.messages; k++) {
    // Message k starts at k / rate seconds, whatever the earlier ones are doing.
    const due = started + (k * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sends.push(
      (async () => {
        const r = seeded.receivers[(k * 7919) % seeded.receivers.length]!;
        const text = `bench ${k}`;
        const t0 = performance.now();
        sentAt.set(text, t0);
        const res = await fetch(`${server.base}/conversations/${r.conversationId}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${seeded.senderTokens[r.sender]}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ text }),
        });
        if (res.status !== 200) {
          errors += 1;
          sentAt.delete(text);
        }
        await res.arrayBuffer();
        postLatencies.push(performance.now() - t0);
      })(),
    );
  }
  await Promise.all(sends);
  const sendSeconds = (performance.now() - started) / 1000;
  const deadline = Date.now() + 10_000;
  while (sentAt.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  clientLag.disable();
  const lagOfServer = await serverLag(server.base);
  const afterMessages = rssMb(server.pid);
  for (const s of streams) s.close();
  latencies.sort((a, b) => a - b);
  postLatencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    streams: o.streams,
    opened: streams.length,
    messages: o.messages,
    delivered: latencies.length,
    lost: sentAt.size,
    errors,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? NaN),
    },
    postMs: {
      p50: round(percentile(postLatencies, 50)),
      p99: round(percentile(postLatencies, 99)),
    },
    messagesPerSecond: Math.round(o.messages / sendSeconds),
    rssMb: {
      before: round(before),
      withStreams: round(withStreams),
      afterMessages: round(afterMessages),
    },
    rssKbPerStream: round(((withStreams - before) * 1024) / Math.max(1, streams.length)),
    openSeconds: round(openSeconds),
    eventLoopLagMs: {
      client: { p99: round(clientLag.percentile(99) / 1e6), max: round(clientLag.max / 1e6) },
      server: lagOfServer,
    },
  };
}

export function liveMarkdown(r: LiveResult): string {
  return [
    `## Live: ${r.opened} open event streams on one instance while messages flow (PostgreSQL)`,
    '',
    '| messages | sent/s | delivered | lost | errors | p50 ms | p90 ms | p99 ms | max ms | POST p50 / p99 ms | RSS before | RSS with streams | RSS per stream |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${r.messages} | ${r.messagesPerSecond} | ${r.delivered} | ${r.lost} | ${r.errors} | ${r.latencyMs.p50} | ${r.latencyMs.p90} | ${r.latencyMs.p99} | ${r.latencyMs.max} | ${r.postMs.p50} / ${r.postMs.p99} | ${r.rssMb.before} MB | ${r.rssMb.withStreams} MB | ${r.rssKbPerStream} KB |`,
    '',
    `Latency: from just before the sender's POST to the event on the recipient's stream (the bench client and the server share this machine). Target p99 < 100 ms. Streams opened in ${r.openSeconds} s.`,
    '',
    `Event loop lag while the messages flowed (p99 / max): the bench client ${r.eventLoopLagMs.client.p99} / ${r.eventLoopLagMs.client.max} ms, ` +
      `the server ${r.eventLoopLagMs.server ? `${r.eventLoopLagMs.server.p99} / ${r.eventLoopLagMs.server.max} ms` : 'not read'}.`,
  ].join('\n');
}
