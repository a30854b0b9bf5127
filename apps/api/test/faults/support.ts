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
