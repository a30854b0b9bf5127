/**
 * Live tests (issue 19): a real HTTP reader of `GET /events` (the stream never ends, so
 * `inject` cannot read it) and small helpers for users who message.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Session } from './factories';

export interface StreamEvent {
  id: number;
  /** The event's JSON (LiveEvent); loosely typed so tests can reach into any event type. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: { type: string; [key: string]: any };
}

export interface TestStream {
  events: StreamEvent[];
  /** Comment lines seen (heartbeats). */
  comments: string[];
  status: number;
  /** The first event (after those already seen, from `from`) that `pick` accepts. */
  next(pick?: (e: StreamEvent) => boolean, timeoutMs?: number, from?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Reads a Server-Sent Events body until it ends (or is aborted): each comment line and each
 * event (its `id:` and its `data:` lines joined) as it arrives. Used by the tests and the bench.
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  on: { comment?(text: string): void; event(id: number, data: string): void },
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
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
          if (line.startsWith(':')) on.comment?.(line.slice(1).trim());
          else if (line.startsWith('id: ')) id = Number(line.slice(4));
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (id !== undefined && data) on.event(id, data);
      }
    }
  } catch {
    // aborted by the reader's owner
  }
}

/** Opens `GET /events` on a listening app; resolves once the stream is open. */
export async function openStream(
  base: string,
  opts: { token?: string; watch?: number[]; lastEventId?: number; ticket?: string } = {},
): Promise<TestStream> {
  const url = new URL('/events', base);
  if (opts.watch?.length) url.searchParams.set('watch', opts.watch.join(','));
  if (opts.ticket) url.searchParams.set('ticket', opts.ticket);
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let opened!: () => void;
  const openedP = new Promise<void>((r) => (opened = r));
  let endResolve!: () => void;
  const ended = new Promise<void>((r) => (endResolve = r));
  const stream: TestStream = {
    events,
    comments,
    status: res.status,
    ended,
    close: () => controller.abort(),
    next(pick = () => true, timeoutMs = 5000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(pick);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  if (res.status !== 200 || !res.body) {
    endResolve();
    return stream;
  }
  void readEvents(res.body, {
    comment(text) {
      comments.push(text);
      if (text === 'open') opened();
    },
    event(id, data) {
      events.push({ id, data: JSON.parse(data) });
      for (const w of [...waiters]) w();
    },
  }).finally(() => {
    opened();
    endResolve();
  });
  await openedP;
  return stream;
}

/** Sets a handle for the session's user. */
export async function giveHandle(app: FastifyInstance, s: Session, prefix = 'u'): Promise<string> {
  const handle = `${prefix}${crypto.randomBytes(4).toString('hex')}`.slice(0, 15);
  const res = await app.inject({
    method: 'PUT',
    url: '/user/handle',
    headers: s.auth,
    payload: { handle },
  });
  if (res.statusCode !== 200) throw new Error(`handle: ${res.statusCode} ${res.body}`);
  return handle;
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}
