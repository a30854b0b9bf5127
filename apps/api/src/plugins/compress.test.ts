import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { activeMember, postBounty, type Session } from '../../test/factories';
import { CompressedOnce, ONE_OFF_GZIP_LEVEL, pickEncoding } from './compress';

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

  it('prefers gzip when asked (answers made for one request), else brotli, else none', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', 'gzip')).toBe('gzip');
    expect(pickEncoding('br', 'gzip')).toBe('br');
    expect(pickEncoding('gzip;q=0, br', 'gzip')).toBe('br');
    expect(pickEncoding('x-gzip, br', 'gzip')).toBe('gzip');
    expect(pickEncoding('*', 'gzip')).toBe('gzip');
    expect(pickEncoding('identity', 'gzip')).toBeNull();
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

  it('made for one answer: gzip when the client accepts it, at ONE_OFF_GZIP_LEVEL', async () => {
    const body = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, t: 'sunset' })));
    const once = new CompressedOnce(body, { oneOff: true });
    expect(once.encodingFor('gzip, deflate, br, zstd')).toBe('gzip');
    expect(once.encodingFor('br')).toBe('br');
    expect(new CompressedOnce(body).encodingFor('gzip, deflate, br, zstd')).toBe('br');
    const gz = await once.get('gzip');
    expect(gz.equals(gzipSync(body, { level: ONE_OFF_GZIP_LEVEL }))).toBe(true);
    expect(brotliDecompressSync(await once.get('br')).toString()).toBe(body);
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

  /** POST /bounty/search for `term` (the feed when empty), with that Accept-Encoding if given. */
  const search = (acceptEncoding?: string, term = '') =>
    t.app.inject({
      method: 'POST',
      url: '/bounty/search',
      payload: { term },
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

  it("sends a term's page as gzip to a browser (made for one answer), as brotli to a client that takes only that", async () => {
    const find = (acceptEncoding?: string) => search(acceptEncoding, 'golden harb');
    const plain = await find();
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toHaveLength(10);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const browser = await find('gzip, deflate, br, zstd');
    expect(browser.headers['content-encoding']).toBe('gzip');
    expect(browser.headers.vary).toMatch(/accept-encoding/i);
    expect(browser.headers['x-next-cursor']).toBe(plain.headers['x-next-cursor']);
    expect(gunzipSync(browser.rawPayload).toString()).toBe(plain.body);
    const br = await find('br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
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
    // Made for its request: gzip for a client that takes it too.
    const docGz = await t.app.inject({
      method: 'GET',
      url: '/docs/json',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(docGz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(docGz.rawPayload).toString()).toBe(
      brotliDecompressSync(doc.rawPayload).toString(),
    );

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
