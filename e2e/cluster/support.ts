/**
 * The cluster under test (started by run.mjs): nginx's origin (API_URL is its /api), each API
 * instance by its own port, the run's directory (logs) and the bucket on s3rver.
 */
import fs from 'node:fs';
import path from 'node:path';
import { API_URL } from '../support/env';

export const FRONT = API_URL.replace(/\/api$/, '');
export const INSTANCES = (process.env.E2E_CLUSTER_INSTANCES ?? '').split(',').filter(Boolean);
export const [A = '', B = ''] = INSTANCES;
export const CLUSTER_DIR = process.env.E2E_CLUSTER_DIR ?? '';
/** The bucket's base URL on s3rver (no final slash). */
export const BUCKET_URL = process.env.E2E_CLUSTER_S3 ?? '';

export interface Answer<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** One JSON call to `base` (nginx's /api or an instance). */
export async function call<T = unknown>(
  base: string,
  method: string,
  urlPath: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const res = await fetch(`${base}${urlPath}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, data: data as T, headers: res.headers };
}

/** Like `call`, but throws unless the answer is 200. */
export async function ok<T = unknown>(...args: Parameters<typeof call>): Promise<T> {
  const res = await call<T>(...args);
  if (res.status !== 200)
    throw new Error(
      `${args[1]} ${args[2]} on ${args[0]} answered ${res.status}: ${JSON.stringify(res.data)}`,
    );
  return res.data;
}

/** A file under the run's directory (logs/api-1.log, nginx/logs/bountyhunt.access.log…). */
export function clusterFile(rel: string): string {
  const file = path.join(CLUSTER_DIR, rel);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** The JSON lines of an instance's log (1 or 2). */
export function instanceLog(n: 1 | 2): Record<string, unknown>[] {
  return clusterFile(`logs/api-${n}.log`)
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export interface LiveEvent {
  id: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: { type: string; [key: string]: any };
}

/** An open `GET /events` stream on `base`, its events collected as they arrive. */
export async function openStream(base: string, token: string) {
  const abort = new AbortController();
  const res = await fetch(`${base}/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`GET /events answered ${res.status}`);
  const events: LiveEvent[] = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id: number | undefined;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = Number(line.slice(4));
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (id !== undefined && data) events.push({ id, data: JSON.parse(data) });
        }
      }
    } catch {
      // closed by close()
    }
  })();
  return {
    events,
    headers: res.headers,
    /** The first event `pick` accepts, within `timeoutMs`. */
    async next(pick: (e: LiveEvent) => boolean, timeoutMs = 10_000): Promise<LiveEvent> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const hit = events.find(pick);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
    },
    close: () => abort.abort(),
  };
}
