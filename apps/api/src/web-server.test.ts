import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './env';
import { buildWebServer, renderIndex } from './web-server';

const HTML = '<html><head><title>x</title></head><body></body></html>';

describe('web server', () => {
  it('injects the runtime config and preconnect hints for the API and media origins', () => {
    const config = loadConfig({
      API_URL: 'http://api.example:5052',
      MEDIA_URL: 'https://cdn.example/media/',
    });
    const html = renderIndex(HTML, config);
    expect(html).toContain(
      '<script>window.__BH_CONFIG__={"apiUrl":"http://api.example:5052","mediaUrl":"https://cdn.example/media/"}</script>',
    );
    for (const origin of ['http://api.example:5052', 'https://cdn.example']) {
      expect(html).toContain(`<link rel="preconnect" href="${origin}" crossorigin>`);
      expect(html).toContain(`<link rel="preconnect" href="${origin}">`);
    }
    expect(renderIndex(HTML, loadConfig({}))).not.toContain('preconnect');
  });

  it('logs no line per request and starts without a deprecation warning', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), HTML);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const web = await buildWebServer(loadConfig({ DATA_DIR: dist }), logger, dist);
      try {
        expect((await web.inject({ url: '/some/client/route' })).statusCode).toBe(200);
        expect((await web.inject({ url: '/index.html' })).statusCode).toBe(200);
      } finally {
        await web.close();
      }
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(lines.filter((l) => /incoming request|request completed/.test(l))).toEqual([]);
    expect(warnings.map((w) => w.name)).not.toContain('FastifyDeprecation');
  });

  it('sends a pre-compressed asset to a browser that accepts it', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), HTML);
    const js = 'console.log("hello");'.repeat(100);
    fs.writeFileSync(path.join(dist, 'assets/app.js'), js);
    fs.writeFileSync(path.join(dist, 'assets/app.js.gz'), 'gzipped bytes');
    const config = loadConfig({ DATA_DIR: dist });
    const web = await buildWebServer(config, pino({ level: 'silent' }), dist);
    try {
      const gz = await web.inject({
        url: '/assets/app.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['content-type']).toMatch(/javascript/);
      expect(gz.headers.vary).toMatch(/accept-encoding/);
      expect(gz.body).toBe('gzipped bytes');
      const plain = await web.inject({ url: '/assets/app.js', headers: { 'accept-encoding': '' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);

      // index.html (every client route) is compressed too, with the runtime config inside.
      const page = await web.inject({ url: '/claim/12', headers: { 'accept-encoding': 'br' } });
      expect(page.headers['content-encoding']).toBe('br');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(page.rawPayload).toString()).toBe(renderIndex(HTML, config));
      const home = await web.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(home.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(home.rawPayload).toString()).toBe(renderIndex(HTML, config));
      const raw = await web.inject({ url: '/' });
      expect(raw.headers['content-encoding']).toBeUndefined();
      expect(raw.body).toBe(renderIndex(HTML, config));
    } finally {
      await web.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
