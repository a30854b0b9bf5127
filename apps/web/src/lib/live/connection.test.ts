import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notificationKeys } from './keys';
import { backoffMs, eventsUrl, LiveConnection, parseLiveEvent } from './connection';

afterEach(() => {
  vi.useRealTimers();
});

function streamOf(chunks: string[], keepOpen = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      if (!keepOpen) controller.close();
    },
  });
}

describe('live connection helpers', () => {
  it('builds the events URL with sorted, unique watched ids', () => {
    expect(eventsUrl('http://api', [])).toBe('http://api/events');
    expect(eventsUrl('http://api', [5, 2, 5])).toBe('http://api/events?watch=2,5');
  });

  it('backs off exponentially up to 30 s', () => {
    const mid = () => 0.5;
    expect(backoffMs(1, 3000, mid)).toBe(3000);
    expect(backoffMs(2, 3000, mid)).toBe(6000);
    expect(backoffMs(10, 3000, mid)).toBe(30_000);
  });

  it('parses only known events', () => {
    expect(parseLiveEvent('{"type":"reset"}')).toEqual({ type: 'reset' });
    expect(parseLiveEvent('{"type":"other"}')).toBeNull();
    expect(parseLiveEvent('nope')).toBeNull();
  });
});

describe('LiveConnection', () => {
  it('sends the token, applies events and resumes with Last-Event-ID', async () => {
    const client = new QueryClient();
    const calls: { url: string; headers: Record<string, string> }[] = [];
    let n = 0;
    const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(url), headers: init?.headers as Record<string, string> });
      n++;
      const body =
        n === 1
          ? streamOf([
              'retry: 500\n: ping\n\n',
              'id: 41\ndata: {"type":"notification","unread":2,"notification":{}}\n\n',
            ])
          : streamOf([], true);
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    const live = new LiveConnection(client, fetchImpl as typeof fetch);
    live.update({ token: 'tok', me: 3, watch: [7] });
    await vi.waitFor(() => expect(calls.length).toBe(2), { timeout: 3000 });
    expect(calls[0]!.url).toMatch(/\/events\?watch=7$/);
    expect(calls[0]!.headers.authorization).toBe('Bearer tok');
    expect(calls[0]!.headers['last-event-id']).toBeUndefined();
    expect(calls[1]!.headers['last-event-id']).toBe('41');
    expect(client.getQueryData(notificationKeys.unread())).toMatchObject({ data: { unread: 2 } });
    // Same target: no new request. Another token: a fresh stream without the old id.
    live.update({ token: 'tok', me: 3, watch: [7] });
    live.update({ token: 'tok2', me: 4, watch: [] });
    await vi.waitFor(() => expect(calls.length).toBe(3));
    expect(calls[2]!.headers['last-event-id']).toBeUndefined();
    expect(calls[2]!.url).toMatch(/\/events$/);
    live.close();
  });

  it('stops after a 401 and does not connect without a token or a watch', async () => {
    const fetchImpl = vi.fn(async () => new Response('{}', { status: 401 }));
    const live = new LiveConnection(new QueryClient(), fetchImpl as typeof fetch);
    live.update({ token: null, me: null, watch: [] });
    expect(fetchImpl).not.toHaveBeenCalled();
    live.update({ token: 'x', me: 1, watch: [] });
    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    live.close();
  });
});
