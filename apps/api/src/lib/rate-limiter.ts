/**
 * Fixed-window counters (CONTRACT.md "Rate limits"). In process by default; in Redis when
 * REDIS_URL is set, so every API instance counts together.
 */
import net from 'node:net';
import type { Redis } from 'ioredis';
import { API_MSG } from '@bountyhunt/shared/api';
import type { RateRule } from '../env';
import { RETRY_AFTER_UNAVAILABLE_S, tooManyRequests, unavailable } from '../errors';
import type { Clock } from './clock';

export interface RateState {
  count: number;
  retryAfterMs: number;
}

export interface RateStore {
  /** Adds one to the key's window and returns the new state. */
  incr(key: string, windowMs: number): Promise<RateState>;
  /** The current state without counting. */
  peek(key: string): Promise<RateState>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateStore implements RateStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweeps = 0;
  constructor(private readonly clock: Clock) {}

  private live(key: string) {
    const now = this.clock.now().getTime();
    const w = this.windows.get(key);
    if (w && w.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private sweep() {
    if (++this.sweeps % 1000 !== 0) return;
    const now = this.clock.now().getTime();
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }

  async incr(key: string, windowMs: number): Promise<RateState> {
    this.sweep();
    const now = this.clock.now().getTime();
    let w = this.live(key);
    if (!w) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, retryAfterMs: w.resetAt - now };
  }

  async peek(key: string): Promise<RateState> {
    const w = this.live(key);
    return w
      ? { count: w.count, retryAfterMs: w.resetAt - this.clock.now().getTime() }
      : { count: 0, retryAfterMs: 0 };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

export class RedisRateStore implements RateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'bh:rl:',
  ) {}

  async incr(key: string, windowMs: number): Promise<RateState> {
    const k = this.prefix + key;
    const res = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 0);
    const ttl = Number(res?.[2]?.[1] ?? windowMs);
    return { count, retryAfterMs: ttl > 0 ? ttl : windowMs };
  }

  async peek(key: string): Promise<RateState> {
    const k = this.prefix + key;
    const res = await this.redis.multi().get(k).pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 0);
    const ttl = Number(res?.[1]?.[1] ?? 0);
    return { count, retryAfterMs: ttl > 0 ? ttl : 0 };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export function parseAllowList(entries: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [addr, bits] = entry.split('/');
    if (!addr) continue;
    const family = net.isIPv6(addr) ? 'ipv6' : 'ipv4';
    if (bits !== undefined) list.addSubnet(addr, Number(bits), family);
    else list.addAddress(addr, family);
  }
  return list;
}

export interface OutageHandling {
  /** Counts in this process while the shared store fails (rules with onOutage 'open'). */
  fallback: RateStore;
  /** Told once per outage (and again every minute while it lasts). */
  warn(message: string): void;
}

/**
 * What routes call: throws 429 with Retry-After when a limit is passed. With `outage` (the
 * shared Redis store), a failing store does not fail the request: each rule says whether to
 * count in this process meanwhile (`open`) or to answer 503 with Retry-After (`closed`).
 */
export class RateLimiter {
  private readonly allow: net.BlockList;
  private warnedAt = 0;
  constructor(
    readonly store: RateStore,
    allow: string[] = [],
    private readonly outage?: OutageHandling,
  ) {
    this.allow = parseAllowList(allow);
  }

  private async state(op: 'incr' | 'peek', key: string, rule: RateRule): Promise<RateState> {
    try {
      return op === 'incr' ? await this.store.incr(key, rule.windowMs) : await this.store.peek(key);
    } catch (err) {
      if (!this.outage) throw err;
      const now = Date.now();
      if (now - this.warnedAt > 60_000) {
        this.warnedAt = now;
        this.outage.warn(
          `rate limits: shared store unavailable (${(err as Error).message}); open limits count per instance, closed ones answer 503`,
        );
      }
      if (rule.onOutage === 'closed') {
        throw unavailable(API_MSG.unavailable, 'UNAVAILABLE', RETRY_AFTER_UNAVAILABLE_S);
      }
      const local = this.outage.fallback;
      return op === 'incr' ? local.incr(key, rule.windowMs) : local.peek(key);
    }
  }

  isExempt(ip: string | undefined): boolean {
    if (!ip) return false;
    const v4mapped = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    const family = net.isIPv6(v4mapped) ? 'ipv6' : 'ipv4';
    return this.allow.check(v4mapped, family);
  }

  /** Counts this request; 429 once the count passes the rule's limit. */
  async consume(ip: string | undefined, key: string, rule: RateRule): Promise<void> {
    if (this.isExempt(ip)) return;
    const state = await this.state('incr', key, rule);
    if (state.count > rule.limit) throw tooManyRequests(state.retryAfterMs / 1000);
  }

  /** 429 when the key already reached the limit (used for failure-only counters). */
  async check(ip: string | undefined, key: string, rule: RateRule): Promise<void> {
    if (this.isExempt(ip)) return;
    const state = await this.state('peek', key, rule);
    if (state.count >= rule.limit) throw tooManyRequests(state.retryAfterMs / 1000);
  }

  /** Counts a failure without throwing. */
  async record(ip: string | undefined, key: string, rule: RateRule): Promise<void> {
    if (this.isExempt(ip)) return;
    await this.state('incr', key, rule);
  }

  async reset(key: string): Promise<void> {
    if (!this.outage) return this.store.reset(key);
    await this.outage.fallback.reset(key);
    // A reset that cannot reach the store is not worth failing the request for.
    await this.store.reset(key).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.outage?.fallback.close();
    await this.store.close();
  }
}
