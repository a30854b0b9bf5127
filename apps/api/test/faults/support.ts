/**
 * Small pieces the fault tests share on top of the harness: users who can message each other,
 * a live stream reader over HTTP, and a test video.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStream, type TestStream } from '../live-support';
import { makeVideo } from '../media-fixtures';
import { call, signUp, tempDir, type PgCluster, type User } from './harness';

export interface Pair {
  member: User;
  hunter: User;
  hunterHandle: string;
}

/** An active member and a hunter with handles, made through `base` (rows touched in `pg`). */
export async function messagingPair(base: string, pg: PgCluster): Promise<Pair> {
  const member = await signUp(base);
  const hunter = await signUp(base, { hunter: true });
  await pg.query(
    `update users set active = now() + interval '30 days', membership = 2, silver = 100 where id = $1`,
    [member.userId],
  );
  const suffix = Math.random().toString(36).slice(2, 8);
  for (const [u, h] of [
    [member, `m${suffix}`],
    [hunter, `h${suffix}`],
  ] as const) {
    const res = await call(base, 'PUT', '/user/handle', { token: u.token, json: { handle: h } });
    if (res.status !== 200) throw new Error(`handle: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { member, hunter, hunterHandle: `h${suffix}` };
}

/** member → hunter: the hunter's stream on `streamBase` must show the text sent through `sendBase`. */
export async function messageCrosses(
  pair: Pair,
  sendBase: string,
  streamBase: string,
  text: string,
  timeoutMs = 10_000,
): Promise<void> {
  const stream: TestStream = await openStream(streamBase, { token: pair.hunter.token });
  try {
    const conv = await call(sendBase, 'POST', '/conversations', {
      token: pair.member.token,
      json: { handle: pair.hunterHandle },
    });
    if (conv.status !== 200)
      throw new Error(`conversation: ${conv.status} ${JSON.stringify(conv.body)}`);
    const sent = await call(
      sendBase,
      'POST',
      `/conversations/${conv.body.conversationId}/messages`,
      {
        token: pair.member.token,
        json: { text },
      },
    );
    if (sent.status !== 200)
      throw new Error(`message: ${sent.status} ${JSON.stringify(sent.body)}`);
    await stream.next((e) => e.data.type === 'message' && e.data.message?.text === text, timeoutMs);
  } finally {
    stream.close();
  }
}

let video: Buffer | undefined;

/** A short real MP4 (made once per test file). */
export function testVideo(seconds = 2, size = '320x240'): Buffer {
  if (seconds === 2 && size === '320x240' && video) return video;
  const file = path.join(tempDir('video'), 'v.mp4');
  const bytes = makeVideo(file, { seconds, size });
  fs.rmSync(file);
  if (seconds === 2 && size === '320x240') video = bytes;
  return bytes;
}

/** Polls GET /media/:key/status until the media is ready (or failed: an error). */
export async function waitReady(base: string, token: string, key: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(base, 'GET', `/media/${key}/status`, { token }).catch(() => null);
    if (res?.status === 200 && res.body.status === 'ready') return res.body;
    if (res?.status === 200 && res.body.status === 'failed') {
      throw new Error(`media ${key} failed: ${res.body.error}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`media ${key} not ready after ${timeoutMs} ms: ${JSON.stringify(res?.body)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The `{message, code}` error shape with a usable Retry-After. */
export function isUnavailableAnswer(a: {
  status: number;
  headers: Headers;
  body: unknown;
}): boolean {
  const b = a.body as { message?: unknown; code?: unknown } | null;
  const retry = Number(a.headers.get('retry-after'));
  return (
    a.status === 503 &&
    typeof b?.message === 'string' &&
    b.message.length > 0 &&
    typeof b.code === 'string' &&
    Number.isInteger(retry) &&
    retry >= 1
  );
}

/** S3 settings of an API instance on the harness's s3rver. */
export function s3Env(endpoint: string, bucket: string): Record<string, string> {
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    MEDIA_URL: `${endpoint}/${bucket}/`,
  };
}

const SUFFIXES = ['-f.webp', '-t.webp', '-p.mp4'];

/** The media key an object belongs to (`private/`, `originals/` and suffixes stripped). */
export function keyOfObject(name: string): string {
  let base = name.replace(/^private\//, '').replace(/^originals\//, '');
  for (const s of SUFFIXES) if (base.endsWith(s)) base = base.slice(0, -s.length);
  return base;
}

/**
 * What "nothing lost or half-written" means for media, as a list of problems (empty: fine):
 * - an orphan object: a stored object whose media key has no row;
 * - a half-written row: a ready image without its full, thumbnail and original; a ready video
 *   without its preview, poster and original; a processing video without its original or
 *   without a queued, retrying or running preview job (it would never finish).
 */
export async function mediaProblems(pg: PgCluster, objects: string[]): Promise<string[]> {
  const rows = await pg.query<{ key: string; kind: string; status: string; visibility: string }>(
    'select key, kind, status, visibility from media',
  );
  const have = new Set(objects);
  const keys = new Set(rows.map((r) => r.key));
  const problems: string[] = [];
  for (const o of objects) {
    if (!keys.has(keyOfObject(o))) problems.push(`orphan object ${o}`);
  }
  const jobs = await pg.query<{ key: string }>(
    `select singleton_key as key from pgboss.job
      where name = 'media.video-preview' and state in ('created', 'retry', 'active')`,
  );
  const queued = new Set(jobs.map((j) => j.key));
  for (const r of rows) {
    const pub = (name: string) => (r.visibility === 'private' ? `private/${name}` : name);
    const need: string[] = [`private/originals/${r.key}`];
    if (r.status === 'ready' && r.kind === 'image')
      need.push(pub(`${r.key}-f.webp`), pub(`${r.key}-t.webp`));
    if (r.status === 'ready' && r.kind === 'video') need.push(`${r.key}-p.mp4`, `${r.key}-t.webp`);
    if (r.status !== 'failed') {
      for (const n of need)
        if (!have.has(n)) problems.push(`${r.status} ${r.kind} ${r.key} lacks ${n}`);
    }
    if (r.status === 'processing' && !queued.has(r.key)) {
      problems.push(`processing video ${r.key} has no job that would finish it`);
    }
  }
  return problems;
}
