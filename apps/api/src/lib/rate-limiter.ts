/**
 * Fixed-window counters (CONTRACT.md "Rate limits"). In process by default; in Redis when
 * REDIS_URL is set, so every API instance counts together.
 */
import net from 'node:net';
import type { Redis } from 'ioredis';
import type { RateRule } from '../env';
import { tooManyRequests } from '../errors';
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

/** What routes call: throws 429 with Retry-After when a limit is passed. */
export class RateLimiter {
  private readonly allow: net.BlockList;
  constructor(
    readonly store: RateStore,
    allow: string[] = [],
  ) {
    this.allow = parseAllowList(allow);
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
    const state = await this.store.incr(key, rule.windowMs);
    if (state.count > rule.limit) throw tooManyRequests(state.retryAfterMs / 1000);
  }

  /** 429 when the key already reached the limit (used for failure-only counters). */
  async check(ip: string | undefined, key: string, rule: RateRule): Promise<void> {
    if (this.isExempt(ip)) return;
    const state = await this.store.peek(key);
    if (state.count >= rule.limit) throw tooManyRequests(state.retryAfterMs / 1000);
  }

  /** Counts a failure without throwing. */
  async record(ip: string | undefined, key: string, rule: RateRule): Promise<void> {
    if (this.isExempt(ip)) return;
    await this.store.incr(key, rule.windowMs);
  }

  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
