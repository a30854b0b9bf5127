import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, requestLogger } from '../app';
import { testConfig } from '../../test/helper';
import { lazyChild } from './lazy-logger';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) {
        if (!l) continue;
        raw.push(l);
        lines.push(JSON.parse(l));
      }
      cb();
    },
  });
  const config = testConfig({ LOG_LEVEL: level });
  return { lines, raw, logger: createLogger(config, stream) };
}

describe('lazyChild', () => {
  it('makes the child on the first line written, and only once', () => {
    const { lines, logger } = capture('warn');
    let made = 0;
    const lazy = lazyChild(logger, () => {
      made += 1;
      return logger.child({ reqId: 'r-1' });
    });
    lazy.info('not written');
    lazy.debug('not written');
    lazy.trace('not written');
    expect(made).toBe(0);
    expect(lines).toHaveLength(0);
    expect(lazy.level).toBe('warn');
    lazy.warn({ a: 1 }, 'first');
    lazy.error('second');
    lazy.info('still not written');
    expect(made).toBe(1);
    expect(lines.map((l) => [l.msg, l.reqId, l.a])).toEqual([
      ['first', 'r-1', 1],
      ['second', 'r-1', undefined],
    ]);
  });

  it('makes the child for child() and for a level set on it', () => {
    const { lines, logger } = capture('warn');
    let made = 0;
    const make = () => {
      made += 1;
      return logger.child({ reqId: 'r-2' });
    };
    lazyChild(logger, make).child({ part: 'x' }).warn('from the grandchild');
    expect(made).toBe(1);
    expect(lines[0]).toMatchObject({ reqId: 'r-2', part: 'x', msg: 'from the grandchild' });
    const lazy = lazyChild(logger, make);
    lazy.level = 'debug';
    lazy.debug('now written');
    expect(made).toBe(2);
    expect(lines[1]).toMatchObject({ reqId: 'r-2', msg: 'now written' });
  });
});

describe('requests log lines with their id', () => {
  async function appAt(level: string) {
    const { lines, raw, logger } = capture(level);
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLogger });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/loud', async (request) => {
      request.log.info('info from the route');
      request.log.warn('warn from the route');
      return { ok: true };
    });
    app.get('/own-level', { logLevel: 'debug' }, async (request) => {
      request.log.debug('debug from a route at its own level');
      return { ok: true };
    });
    await app.ready();
    return { app, lines, raw };
  }

  it('at warn: lines the route writes carry the request id once; quiet requests write none', async () => {
    const { app, lines, raw } = await appAt('warn');
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(lines).toHaveLength(0);
    await app.inject('/loud');
    expect(lines.map((l) => l.msg)).toEqual(['warn from the route']);
    expect(lines[0]!.reqId).toMatch(/^req-/);
    expect(raw[0]!.split('"reqId"')).toHaveLength(2);
    // A route at its own level: Fastify's request lines and the route's, all with one id.
    const before = lines.length;
    expect((await app.inject('/own-level')).statusCode).toBe(200);
    const own = lines.slice(before);
    expect(own.map((l) => l.msg)).toEqual([
      'incoming request',
      'debug from a route at its own level',
      'request completed',
    ]);
    expect(new Set(own.map((l) => l.reqId)).size).toBe(1);
    expect(own[0]!.reqId).not.toBe(lines[0]!.reqId);
    await app.close();
  });

  it("at info: Fastify's request lines and the route's carry the same id", async () => {
    const { app, lines } = await appAt('info');
    await app.inject('/loud');
    const msgs = lines.map((l) => l.msg);
    expect(msgs).toEqual([
      'incoming request',
      'info from the route',
      'warn from the route',
      'request completed',
    ]);
    expect(new Set(lines.map((l) => l.reqId)).size).toBe(1);
    expect(lines[0]!.reqId).toBeTruthy();
    await app.close();
  });
});
