import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { activeMember, postBounty, type Session } from '../../test/factories';
import { CompressedOnce, pickEncoding } from './compress';

describe('pickEncoding', () => {
  it('prefers brotli, falls back to gzip, and honours q=0 and *', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('x-gzip')).toBe('gzip');
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('CompressedOnce', () => {
  it('compresses a body once per encoding', async () => {
    const body = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, t: 'sunset' })));
    const once = new CompressedOnce(body);
    const [a, b] = await Promise.all([once.get('br'), once.get('br')]);
    expect(a).toBe(b);
    expect(brotliDecompressSync(a).toString()).toBe(body);
    expect(gunzipSync(await once.get('gzip')).toString()).toBe(body);
  });
});

describe('compressed JSON answers', () => {
  let t: TestApp;
  let member: Session;
  beforeAll(async () => {
    t = await createTestApp({ env: { FEED_CACHE_MS: '60000', PAGE_CACHE_MS: '60000' } });
    member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 1000);
    for (let i = 0; i < 12; i++)
      await postBounty(t.app, member, { title: `Golden hour over the harbour ${i}` });
  });
  afterAll(() => t.close());

  const search = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/bounty/search',
      payload: { term: '' },
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the feed as brotli or gzip when the client accepts it, the same JSON inside', async () => {
    const plain = await search();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.json()).toHaveLength(10);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await search('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gz = await search('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('compresses other JSON answers over 1 KB, and leaves small ones and errors alone', async () => {
    const doc = await t.app.inject({
      method: 'GET',
      url: '/docs/json',
      headers: { 'accept-encoding': 'br' },
    });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(doc.rawPayload).toString()).openapi).toMatch(/^3\./);

    const health = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'accept-encoding': 'br' },
    });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });

    const missing = await t.app.inject({
      method: 'GET',
      url: '/bounty/999999',
      headers: { 'accept-encoding': 'br' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.json().message).toBeTruthy();
  });

  it('sends a kept page as its UTF-8 bytes: length and text exact beyond ASCII', async () => {
    const title = 'Café at dawn — naïve 🌅 "quoted" \\ back';
    const { bountyId } = (await postBounty(t.app, member, { title })) as { bountyId: number };
    for (let i = 0; i < 2; i++) {
      // The second read is the kept page.
      const page = await t.app.inject({ method: 'GET', url: `/bounty/${bountyId}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(page.headers['content-length'])).toBe(page.rawPayload.length);
      expect(page.rawPayload.toString('utf8')).toBe(page.body);
      expect(page.json().title).toBe(title);
    }
    const found = await t.app.inject({
      method: 'POST',
      url: '/bounty/search',
      payload: { term: 'naïve' },
    });
    expect(Number(found.headers['content-length'])).toBe(found.rawPayload.length);
    expect(found.json()).toMatchObject([{ bountyId, title }]);
  });

  it('sends an answer under 1 KB as it is (a bounty page without claims)', async () => {
    const [first] = (await search()).json() as { bountyId: number }[];
    const plain = await t.app.inject({ method: 'GET', url: `/bounty/${first!.bountyId}` });
    const gz = await t.app.inject({
      method: 'GET',
      url: `/bounty/${first!.bountyId}`,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(plain.rawPayload.length).toBeLessThan(1024);
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBeUndefined();
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.body).toBe(plain.body);
  });
});
