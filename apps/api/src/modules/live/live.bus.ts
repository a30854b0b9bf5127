/**
 * Wakes every API instance when an event is stored (issue 19). Events are written to
 * `live_events` first; the bus only carries them to the instances holding streams. Three
 * backends behind one interface: in process (the embedded default: one process), PostgreSQL
 * LISTEN/NOTIFY (several instances on one database) and Redis pub/sub (`REDIS_URL`).
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** A stored event as it travels: to one user, or to the streams watching a topic. */
export interface BusEvent {
  id: number;
  userId: number | null;
  topic: string | null;
  data: unknown;
}

export type BusListener = (events: BusEvent[]) => void;

export interface EventBus {
  readonly kind: 'memory' | 'postgres' | 'redis';
  publish(events: BusEvent[]): Promise<void>;
  /**
   * Publishes inside the caller's transaction, delivered when it commits (PostgreSQL NOTIFY):
   * no second commit, and nothing is announced that did not commit. Absent: `publish` after it.
   */
  publishWithin?(db: DbOrTx, events: BusEvent[]): Promise<void>;
  /**
   * One listener per instance (the live hub). `onGap` runs after the bus lost its connection
   * and got it back: events published meanwhile never arrived and must be read from the store.
   */
  listen(listener: BusListener, onGap?: () => void): void;
  close(): Promise<void>;
}

const CHANNEL = 'bh_live';

/**
 * Redis pub/sub channels are global to a Redis server (not per database index), so the channel
 * names the deployment's database: two deployments sharing one Redis never wake each other
 * with event ids from another database. The password never takes part.
 */
export function redisChannelFor(databaseUrl: string): string {
  let identity = databaseUrl;
  try {
    const u = new URL(databaseUrl);
    identity = `${u.protocol}//${u.hostname}:${u.port}${u.pathname}`;
  } catch {
    // not a URL: the whole string names it
  }
  const digest = crypto.createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return `${CHANNEL}:${digest}`;
}
/** PostgreSQL's NOTIFY payload limit is 8,000 bytes; bigger batches travel as ids. */
const MAX_PAYLOAD = 7000;

/**
 * What goes over the wire: the events, or, when they are too big, the stored ones' ids and the
 * topics of those that are not stored (control messages: `lost`).
 */
type Wire = { e: BusEvent[] } | { ids: number[]; lost?: string[] };

/** The data of a control message that was too big to travel: its handler's `gap` runs. */
export const LOST_CONTROL = Object.freeze({ lost: true });

export function encode(events: BusEvent[], limit: number): string {
  const full = JSON.stringify({ e: events } satisfies Wire);
  if (Buffer.byteLength(full) <= limit) return full;
  const lost = [...new Set(events.flatMap((e) => (e.id > 0 || !e.topic ? [] : [e.topic])))];
  return JSON.stringify({
    ids: events.flatMap((e) => (e.id > 0 ? [e.id] : [])),
    ...(lost.length ? { lost } : {}),
  } satisfies Wire);
}

export type LoadEvents = (ids: number[]) => Promise<BusEvent[]>;

abstract class WireBus {
  protected listener: BusListener = () => undefined;
  protected gap: () => void = () => undefined;
  constructor(
    protected readonly load: LoadEvents,
    protected readonly log: FastifyBaseLogger,
  ) {}
  listen(listener: BusListener, onGap?: () => void): void {
    this.listener = listener;
    if (onGap) this.gap = onGap;
  }
  protected receive(payload: string): void {
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire;
    } catch {
      return;
    }
    if ('e' in wire) return this.listener(wire.e);
    if (wire.lost?.length)
      this.listener(wire.lost.map((topic) => ({ id: 0, userId: null, topic, data: LOST_CONTROL })));
    if (wire.ids.length)
      this.load(wire.ids).then(this.listener, (err: Error) =>
        this.log.warn({ err: { message: err.message } }, 'live: loading events failed'),
      );
  }
}

export class MemoryBus implements EventBus {
  readonly kind = 'memory' as const;
  private listener: BusListener = () => undefined;
  listen(listener: BusListener): void {
    this.listener = listener;
  }
  async publish(events: BusEvent[]): Promise<void> {
    // After the caller's await, like a real bus: never inside the publisher's stack.
    queueMicrotask(() => this.listener(events));
  }
  async close(): Promise<void> {}
}

/** LISTEN on one dedicated connection (reconnecting); NOTIFY through the pool. */
export class PgNotifyBus extends WireBus implements EventBus {
  readonly kind = 'postgres' as const;
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    load: LoadEvents,
    log: FastifyBaseLogger,
  ) {
    super(load, log);
  }

  async start(): Promise<void> {
    const { default: pgLib } = await import('pg');
    const client = new pgLib.Client({ connectionString: this.url });
    client.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload) this.receive(n.payload);
    });
    client.on('error', (err) => {
      this.log.warn({ err: { message: err.message } }, 'live: LISTEN connection lost');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private reconnect(lost: pg.Client): void {
    if (this.closed || this.client !== lost) return;
    this.client = undefined;
    void lost.end().catch(() => undefined);
    this.scheduleStart();
  }

  private scheduleStart(): void {
    if (this.closed) return;
    // Streams stay open; what was missed meanwhile is replayed from live_events (onGap).
    this.retry = setTimeout(() => {
      this.start().then(
        () => this.gap(),
        () => this.scheduleStart(),
      );
    }, 1000);
  }

  async publish(events: BusEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.pool.query('select pg_notify($1, $2)', [CHANNEL, encode(events, MAX_PAYLOAD)]);
  }

  async publishWithin(db: DbOrTx, events: BusEvent[]): Promise<void> {
    if (events.length === 0) return;
    await db.execute(sql`select pg_notify(${CHANNEL}, ${encode(events, MAX_PAYLOAD)})`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

export class RedisBus extends WireBus implements EventBus {
  readonly kind = 'redis' as const;
  constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    load: LoadEvents,
    log: FastifyBaseLogger,
    private readonly channel = CHANNEL,
  ) {
    super(load, log);
  }

  async start(): Promise<void> {
    let ready = this.sub.status === 'ready';
    // ioredis subscribes again after a reconnect; what was published meanwhile is replayed.
    this.sub.on('ready', () => {
      if (ready) this.gap();
      ready = true;
    });
    this.sub.on('message', (channel: string, payload: string) => {
      if (channel === this.channel) this.receive(payload);
    });
    await this.sub.subscribe(this.channel);
  }

  async publish(events: BusEvent[]): Promise<void> {
    if (events.length === 0) return;
    // Redis takes big messages; the id form keeps them small all the same.
    await this.pub.publish(this.channel, encode(events, 64_000));
  }

  async close(): Promise<void> {
    await Promise.all([
      this.sub.quit().catch(() => undefined),
      this.pub.quit().catch(() => undefined),
    ]);
  }
}

/**
 * The bus for this deployment (LIVE_BUS=auto): Redis pub/sub with REDIS_URL, else PostgreSQL
 * LISTEN/NOTIFY on PostgreSQL, else in process. Started (connected and listening) on return.
 */
export async function createEventBus(
  opts: {
    choice: 'auto' | 'memory' | 'postgres' | 'redis';
    redisUrl?: string | undefined;
    pool?: pg.Pool | undefined;
    databaseUrl: string;
    load: LoadEvents;
  },
  log: FastifyBaseLogger,
): Promise<EventBus> {
  const kind =
    opts.choice !== 'auto'
      ? opts.choice
      : opts.redisUrl
        ? 'redis'
        : opts.pool
          ? 'postgres'
          : 'memory';
  if (kind === 'redis') {
    if (!opts.redisUrl) throw new Error('LIVE_BUS=redis needs REDIS_URL');
    const { Redis } = await import('ioredis');
    // Publishing fails at once while Redis is down (the event is stored; streams catch up from
    // live_events when the subscriber is back: onGap). The subscriber reconnects by itself.
    const pub = new Redis(opts.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: 1000,
    });
    const sub = new Redis(opts.redisUrl);
    for (const c of [pub, sub])
      c.on('error', (err: Error) =>
        log.warn({ err: { message: err.message } }, 'live: redis error'),
      );
    const bus = new RedisBus(pub, sub, opts.load, log, redisChannelFor(opts.databaseUrl));
    await bus.start();
    return bus;
  }
  if (kind === 'postgres') {
    if (!opts.pool) throw new Error('LIVE_BUS=postgres needs DATABASE_URL (PostgreSQL)');
    // The pool's own connection string: DATABASE_URL, or the embedded server's socket.
    const url =
      (opts.pool.options as { connectionString?: string }).connectionString ?? opts.databaseUrl;
    const bus = new PgNotifyBus(opts.pool, url, opts.load, log);
    await bus.start();
    return bus;
  }
  return new MemoryBus();
}
