/**
 * Modules that only some requests or configurations need stay out of the process until then
 * (docs/decisions/0008-api-memory.md): loading everything server.ts loads at start-up, with the
 * embedded defaults, must not load sharp, the S3 SDK, nodemailer, ioredis or file-type, nor
 * the 1099-NEC's pdf-lib or the admin's TOTP and QR code packages (decision 0038).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const apiDir = path.resolve(import.meta.dirname, '..');

// Runs in a child process: records every module the ESM loader resolves (how the app's
// TypeScript reaches its packages), loads what server.ts loads, then lists the packages seen.
const script = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const seen = new Set();
port1.on('message', (url) => seen.add(url));
port1.unref();
const hooks = 'let port; export function initialize(data) { port = data.port; }' +
  ' export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
await import('./src/app.ts');
await import('./src/composition.ts');
await import('./src/jobs/pg-boss-queue.ts');
await import('./src/seed/seed-at-start.ts');
await import('./src/web-server.ts');
const { loadConfig } = await import('./src/env.ts');
const config = loadConfig({ DATABASE_URL: 'memory://', DATA_DIR: process.env.TMP_DATA, LOG_LEVEL: 'silent' });
const { createRoot } = await import('./src/composition.ts');
const { MemoryJobQueue } = await import('./src/jobs/memory-queue.ts');
const log = { info() {}, warn() {}, error() {} };
// Every service and adapter, as server.ts builds them (the database is not touched to build).
createRoot({ config, database: { db: {}, kind: 'pglite' }, log, jobs: new MemoryJobQueue() });
await new Promise((r) => setTimeout(r, 200));
const loaded = (pkg) => [...seen].some((url) => url.includes('/node_modules/' + pkg + '/'));
const pkgs = ['pg', 'fastify', 'sharp', '@aws-sdk/client-s3', 'nodemailer', 'ioredis', 'file-type', 'pdf-lib', 'otpauth', 'qrcode'];
console.log(JSON.stringify(pkgs.filter(loaded)));
`;

describe('start-up imports', () => {
  it('leave out the modules only uploads, mail, S3, Redis, tax forms or admin sign-in need', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-startup-imports-'));
    try {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { cwd: apiDir, encoding: 'utf8', env: { ...process.env, TMP_DATA: dataDir } },
      );
      // pg and fastify are loaded at start-up: they show the check sees packages at all.
      expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual(['pg', 'fastify']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
