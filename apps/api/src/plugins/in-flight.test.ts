import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { InFlight, trackHandlers } from './in-flight';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('InFlight', () => {
  it('counts sync calls, promises that resolve or reject, and throws', async () => {
    const f = new InFlight();
    expect(f.track(() => 7)).toBe(7);
    expect(() =>
      f.track(() => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(f.count).toBe(0);

    const a = deferred();
    const b = deferred();
    const ok = f.track(() => a.promise);
    const failing = f.track(() => b.promise.then(() => Promise.reject(new Error('late'))));
    expect(f.count).toBe(2);
    let idle: boolean | undefined;
    void f.idle(1000).then((v) => (idle = v));
    a.resolve();
    await ok;
    expect(f.count).toBe(1);
    expect(idle).toBeUndefined();
    b.resolve();
    await expect(failing).rejects.toThrow('late');
    await tick();
    expect(f.count).toBe(0);
    expect(idle).toBe(true);
    expect(await f.idle(1000)).toBe(true);
  });

  it('answers false when a handler outlasts the wait', async () => {
    const f = new InFlight();
    const a = deferred();
    void f.track(() => a.promise);
    expect(await f.idle(20)).toBe(false);
    expect(f.count).toBe(1);
    a.resolve();
    await tick();
    expect(f.count).toBe(0);
  });
});

describe('trackHandlers', () => {
  it('waits for a handler whose client went away, which app.close() does not', async () => {
    const app = Fastify();
    const inFlight = new InFlight();
    trackHandlers(app, inFlight);
    const started = deferred();
    const release = deferred();
    let finished = false;
    app.get('/slow', async () => {
      started.resolve();
      await release.promise;
      finished = true;
      return { ok: true };
    });
    app.get('/sync', (_request, reply) => {
      void reply.send({ ok: true });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    expect((await app.inject({ method: 'GET', url: '/sync' })).json()).toEqual({ ok: true });
    expect(inFlight.count).toBe(0);

    // The client sends its request and goes away while the handler waits.
    const req = http.get({ host: '127.0.0.1', port, path: '/slow' });
    req.on('error', () => undefined);
    await started.promise;
    req.destroy();
    await app.close();
    expect(finished).toBe(false);
    expect(inFlight.count).toBe(1);

    const idle = inFlight.idle(2000);
    release.resolve();
    expect(await idle).toBe(true);
    expect(finished).toBe(true);
    expect(inFlight.count).toBe(0);
  });
});

describe('the API counts its handlers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('while a search runs, and not after', async () => {
    const bounties = t.app.root.services.bounties;
    const searchPage = bounties.searchPage.bind(bounties);
    let seen = -1;
    const spy = vi.spyOn(bounties, 'searchPage').mockImplementation((input) => {
      seen = t.app.inFlight.count;
      return searchPage(input);
    });
    try {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/bounty/search',
        payload: { term: 'sun' },
      });
      expect(answer.statusCode).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toBe(1);
    await tick();
    expect(t.app.inFlight.count).toBe(0);
    expect(await t.app.inFlight.idle(100)).toBe(true);
  });
});
