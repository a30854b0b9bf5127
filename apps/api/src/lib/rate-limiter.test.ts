import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from './clock';
import { MemoryRateStore, RateLimiter, RedisRateStore } from './rate-limiter';

const rule = { limit: 3, windowMs: 60_000 };

describe('in-process rate limiter', () => {
  it('allows the limit, then answers 429 with Retry-After until the window passes', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const rl = new RateLimiter(new MemoryRateStore(clock));
    for (let i = 0; i < 3; i++) await rl.consume('1.2.3.4', 'k', rule);
    const err = await rl.consume('1.2.3.4', 'k', rule).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
    clock.advance(30_000);
    await expect(rl.consume('1.2.3.4', 'k', rule)).rejects.toMatchObject({
      headers: { 'retry-after': '30' },
    });
    clock.advance(30_001);
    await expect(rl.consume('1.2.3.4', 'k', rule)).resolves.toBeUndefined();
  });

  it('counts failures only with record/check', async () => {
    const rl = new RateLimiter(new MemoryRateStore(new ManualClock()));
    for (let i = 0; i < 3; i++) {
      await rl.check('ip', 'fail', rule);
      await rl.record('ip', 'fail', rule);
    }
    await expect(rl.check('ip', 'fail', rule)).rejects.toMatchObject({ status: 429 });
    await rl.reset('fail');
    await expect(rl.check('ip', 'fail', rule)).resolves.toBeUndefined();
  });

  it('exempts RATE_LIMIT_ALLOW addresses and ranges, IPv4-mapped too', async () => {
    const rl = new RateLimiter(new MemoryRateStore(new ManualClock()), [
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(rl.isExempt('10.1.2.3')).toBe(true);
    expect(rl.isExempt('::ffff:127.0.0.1')).toBe(true);
    expect(rl.isExempt('::1')).toBe(true);
    expect(rl.isExempt('192.0.2.1')).toBe(false);
    for (let i = 0; i < 10; i++) await rl.consume('10.9.9.9', 'allow', rule);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(redisUrl)('Redis rate limiter (TEST_REDIS_URL): shared by API instances', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('counts across two instances and expires with the window', async () => {
    const a = new Redis(redisUrl!);
    const b = new Redis(redisUrl!);
    clients.push(a, b);
    const prefix = `bh:test:${crypto.randomBytes(4).toString('hex')}:`;
    const one = new RateLimiter(new RedisRateStore(a, prefix));
    const two = new RateLimiter(new RedisRateStore(b, prefix));
    const short = { limit: 4, windowMs: 400 };
    await one.consume('ip', 'shared', short);
    await two.consume('ip', 'shared', short);
    await Promise.all([one.consume('ip', 'shared', short), two.consume('ip', 'shared', short)]);
    const err = await two.consume('ip', 'shared', short).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429 });
    expect(
      Number((err as { headers: Record<string, string> }).headers['retry-after']),
    ).toBeGreaterThanOrEqual(1);
    // The key carries a TTL, so a window never outlives itself.
    const ttl = await a.pttl(`${prefix}shared`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(400);
  });
});

describe('rate limiter while its shared store is down (docs/decisions/0013-redis-outage.md)', () => {
  const down: MemoryRateStore & object = Object.assign(new MemoryRateStore(new ManualClock()), {
    incr: () => Promise.reject(new Error("Stream isn't writeable")),
    peek: () => Promise.reject(new Error("Stream isn't writeable")),
    reset: () => Promise.reject(new Error("Stream isn't writeable")),
  });

  it('an open rule counts in this process instead, a closed one answers 503 with Retry-After', async () => {
    const warnings: string[] = [];
    const rl = new RateLimiter(down, [], {
      fallback: new MemoryRateStore(new ManualClock()),
      warn: (m) => warnings.push(m),
    });
    for (let i = 0; i < 3; i++) await rl.consume('ip', 'open', rule);
    await expect(rl.consume('ip', 'open', rule)).rejects.toMatchObject({ status: 429 });
    await expect(rl.reset('open')).resolves.toBeUndefined();
    await expect(rl.consume('ip', 'open', rule)).resolves.toBeUndefined();
    await expect(rl.consume('ip', 'closed', { ...rule, onOutage: 'closed' })).rejects.toMatchObject(
      { status: 503, code: 'UNAVAILABLE', headers: { 'retry-after': '5' } },
    );
    expect(warnings).toHaveLength(1);
  });

  it('without outage handling (one process, in-memory store) a store error is an error', async () => {
    await expect(new RateLimiter(down).consume('ip', 'k', rule)).rejects.toThrow(/writeable/);
  });
});
