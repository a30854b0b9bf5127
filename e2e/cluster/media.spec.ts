/**
 * Media in the bucket: an image uploaded through one instance is known to the other, and its
 * files are served through nginx from S3 (s3rver), byte for byte. Private objects are not.
 * Also the web app as nginx serves it: the page knows the API is /api on its own origin.
 */
import { describe, expect, it } from 'vitest';
import { gradientPng } from '../support/profiles';
import { activeMember } from '../support/session';
import fs from 'node:fs';
import { A, B, BUCKET_URL, call, FRONT, ok } from './support';

describe('media through nginx from S3', () => {
  it('uploaded on A, ready on B, served by nginx from the bucket', async () => {
    const m = await activeMember();
    const res = await fetch(`${A}/media/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'image/png' },
      body: fs.readFileSync(gradientPng('cluster-upload', 800, 600)),
    });
    expect(res.status).toBe(200);
    const { key } = (await res.json()) as { key: string };
    expect(key).toMatch(/^i-/);

    const status = await ok<{ status: string }>(B, 'GET', `/media/${key}/status`);
    expect(status.status).toBe('ready');

    for (const suffix of ['-f.webp', '-t.webp']) {
      const viaNginx = await fetch(`${FRONT}/media/${key}${suffix}`);
      expect(viaNginx.status).toBe(200);
      expect(viaNginx.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await viaNginx.arrayBuffer());
      const inBucket = Buffer.from(
        await (await fetch(`${BUCKET_URL}/${key}${suffix}`)).arrayBuffer(),
      );
      expect(bytes.length).toBeGreaterThan(100);
      expect(bytes.equals(inBucket)).toBe(true);
    }
    // The instances keep nothing on their disks: the API has no /media/ files route with S3.
    expect((await call(B, 'GET', `/media/${key}-t.webp`)).status).toBe(404);
    // Originals are private in the bucket and never served by nginx.
    const original = await fetch(`${BUCKET_URL}/private/originals/${key}`);
    expect([200, 404]).toContain(original.status);
    expect((await fetch(`${FRONT}/media/private/originals/${key}`)).status).toBe(404);
    // Media is read-only through nginx (refused like a missing object).
    expect((await fetch(`${FRONT}/media/${key}-t.webp`, { method: 'PUT', body: 'x' })).status).toBe(
      404,
    );
  });

  it('a JSON body over 2 MiB is refused by nginx before the API', async () => {
    const m = await activeMember();
    const huge = await fetch(`${FRONT}/api/bounty`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get('server')).toBe('nginx');
  });
});

describe('the web app from nginx', () => {
  it('serves the page with the API on its own origin, assets cached, client routes, 404s', async () => {
    const page = await fetch(`${FRONT}/bounty/123`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('window.__BH_CONFIG__={"apiUrl":"/api","mediaUrl":"/media/"}');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const js = await fetch(`${FRONT}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${FRONT}/assets/missing-0000.js`)).status).toBe(404);
    expect((await fetch(`${FRONT}/nothing.png`)).status).toBe(404);
    // API answers keep the API's own headers, not the page's.
    const health = await fetch(`${FRONT}/api/health`);
    expect(health.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});
