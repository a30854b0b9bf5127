/**
 * The live module (issue 19): stores events and wakes streams, on this instance and (through
 * the bus) on every other. Modules that raise events call `record` inside their own
 * transaction (store first) and `wake` after it commits, or `emit` for both at once.
 */
import crypto from 'node:crypto';
import { EVENTS, type LiveEvent } from '@bountyhunt/shared/live';
import type { Actor, ServiceContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { LOST_CONTROL, type BusEvent, type EventBus } from './live.bus';
import { LiveHub, type LiveStream } from './live.hub';
import * as repo from './live.repository';

/** A stream resuming further back than this gets `reset` instead of a replay. */
const REPLAY_MAX = 500;
/** Events are kept this long for resumes. */
const KEEP_DAYS = 7;

export interface LiveEventRow {
  /** One user's event; or a topic's (`bounty:12`) for every stream watching it. */
  userId?: number;
  topic?: string;
  data: LiveEvent;
}

export function bountyTopic(bountyId: number): string {
  return `bounty:${bountyId}`;
}

export interface OpenStream {
  userId: number | null;
  topics: Set<string>;
  /** Last-Event-ID, when resuming. */
  after: number | null;
  /** Writes one event (id + data) to the client. */
  write(event: BusEvent): void;
}

/** Bus topics of control messages between instances (never a stream's topic). */
const CONTROL = 'sys:';

/**
 * Which topics streams watch, told between instances (decision 0044): each instance names its
 * watched topics when one is first watched there and every WATCH_REFRESH_MS; what it hears
 * counts for WATCH_KEEP_MS (so also a while after the last stream left: a reconnect resumes
 * with nothing missing). At start, and after the bus lost messages, every topic counts as
 * watched until the others have answered.
 */
const WATCH_CONTROL = 'watch';
const WATCH_REFRESH_MS = 20_000;
const WATCH_KEEP_MS = 3 * WATCH_REFRESH_MS;
/** After asking the others what they watch, every topic counts as watched this long. */
const WATCH_ASK_MS = 3_000;
/** More topics than this watched on one instance: it says "everything" instead of naming them. */
const WATCH_LIST_MAX = 5_000;
/** Topics named per message (a NOTIFY carries at most 8,000 bytes). */
const WATCH_CHUNK = 200;

export interface ControlHandler {
  on(data: unknown): void;
  gap(): void;
}

export class LiveService {
  readonly hub = new LiveHub();
  /** Open streams and the last event id each was sent (for catch-up after a bus gap). */
  private readonly streams = new Map<LiveStream, { last: number; write(e: BusEvent): void }>();
  private readonly throttles = new Map<string, { timer: NodeJS.Timeout | null; again: boolean }>();

  /** Topics streams on other instances watch (or here, lately), until when. */
  private readonly watchedElsewhere = new Map<string, number>();
  /** Until then every topic counts as watched (start, a bus gap). */
  private everythingWatchedUntil = Date.now() + WATCH_KEEP_MS;
  private readonly watchTimer: NodeJS.Timeout;
  private readonly watchStarts: ((topics: string[]) => void)[] = [];

  constructor(
    private readonly ctx: ServiceContext,
    private readonly bus: EventBus,
  ) {
    this.controls.set(WATCH_CONTROL, {
      on: (data) => this.heardWatch(data),
      gap: () => {
        this.everythingWatchedUntil = Date.now() + WATCH_KEEP_MS;
        void this.announceWatched();
      },
    });
    this.watchTimer = setInterval(() => {
      const now = Date.now();
      for (const [topic, until] of this.watchedElsewhere)
        if (until <= now) this.watchedElsewhere.delete(topic);
      void this.announceWatched();
    }, WATCH_REFRESH_MS);
    this.watchTimer.unref();
    // The others say what they watch; until they have, everything counts as watched.
    if (bus.kind === 'memory') this.everythingWatchedUntil = 0;
    else
      void this.control(WATCH_CONTROL, { ask: true }).then((sent) => {
        if (sent) this.everythingWatchedUntil = Date.now() + WATCH_ASK_MS;
      });
    bus.listen(
      (events) => {
        const forStreams = events.filter((e) => !e.topic?.startsWith(CONTROL));
        if (forStreams.length < events.length) this.receiveControls(events);
        for (const watch of this.watchers) watch(forStreams);
        this.hub.deliver(forStreams);
      },
      () => {
        for (const c of this.controls.values()) c.gap();
        void this.catchUp();
      },
    );
  }

  /** Handlers of control messages between instances, by name (not stored, never streamed). */
  private readonly controls = new Map<string, ControlHandler>();
  /** Modules that watch the events every instance receives (the bounty page cache). */
  private readonly watchers: ((events: BusEvent[]) => void)[] = [];

  /**
   * `handler` sees every event the bus delivers to this instance (its own included), before
   * the streams get them. It must be quick and never throw.
   */
  onEvents(handler: (events: BusEvent[]) => void): void {
    this.watchers.push(handler);
  }

  /**
   * Another module's messages to every instance (the session cache's forgettings): `on` gets
   * each, here and elsewhere; `gap` runs when the bus lost messages (then trust nothing kept).
   */
  onControl(name: string, handler: ControlHandler): void {
    this.controls.set(name, handler);
  }

  /**
   * Sends a control message to every instance. With `db` on PostgreSQL it leaves when the
   * caller's transaction commits (NOTIFY); otherwise at once. Never throws: tells whether it
   * went.
   */
  async control(name: string, data: unknown, db?: DbOrTx): Promise<boolean> {
    const event: BusEvent = { id: 0, userId: null, topic: `${CONTROL}${name}`, data };
    try {
      if (db && this.bus.publishWithin) await this.bus.publishWithin(db, [event]);
      else await this.bus.publish([event]);
      return true;
    } catch (err) {
      this.ctx.log.warn({ err: { message: (err as Error).message } }, 'live: control failed');
      return false;
    }
  }

  /**
   * Whether a stream on any instance watches `topic` (or did within WATCH_KEEP_MS, or this
   * instance cannot tell yet): what only watchers see (a bounty's tallies) is made only then.
   */
  isWatched(topic: string): boolean {
    if (this.hub.watches(topic)) return true;
    const now = Date.now();
    return now < this.everythingWatchedUntil || (this.watchedElsewhere.get(topic) ?? 0) > now;
  }

  /**
   * `handler` gets the topics a new stream here watches that no stream anywhere watched: what
   * was not made while nobody watched (a tally) is made now, for every watcher.
   */
  onWatchStart(handler: (topics: string[]) => void): void {
    this.watchStarts.push(handler);
  }

  private heardWatch(data: unknown): void {
    const m = data as { topics?: unknown; all?: unknown; ask?: unknown } | null;
    const until = Date.now() + WATCH_KEEP_MS;
    if (m?.ask === true) void this.announceWatched();
    else if (m?.all === true) this.everythingWatchedUntil = until;
    else if (Array.isArray(m?.topics))
      for (const t of m.topics) if (typeof t === 'string') this.watchedElsewhere.set(t, until);
  }

  /** Tells every instance what streams here watch. */
  private async announceWatched(topics: string[] = this.hub.topics()): Promise<void> {
    if (!topics.length) return;
    if (topics.length > WATCH_LIST_MAX) await this.control(WATCH_CONTROL, { all: true });
    else
      for (let i = 0; i < topics.length; i += WATCH_CHUNK)
        await this.control(WATCH_CONTROL, { topics: topics.slice(i, i + WATCH_CHUNK) });
  }

  private receiveControls(events: BusEvent[]): void {
    for (const e of events) {
      if (!e.topic?.startsWith(CONTROL)) continue;
      try {
        const handler = this.controls.get(e.topic.slice(CONTROL.length));
        // Too big for the bus (LOST_CONTROL): what it said is unknown, as after a gap.
        if (e.data === LOST_CONTROL) handler?.gap();
        else handler?.on(e.data);
      } catch (err) {
        this.ctx.log.warn(
          { err: { message: (err as Error).message } },
          'live: control handler failed',
        );
      }
    }
  }

  get busKind(): EventBus['kind'] {
    return this.bus.kind;
  }

  /**
   * Stores events in the caller's transaction; `wake` them once it has committed. On PostgreSQL
   * NOTIFY goes out in the same transaction (delivered at its commit), and `wake` has nothing
   * left to do.
   */
  async record(db: DbOrTx, rows: LiveEventRow[]): Promise<BusEvent[]> {
    const events = await repo.insertEvents(db, rows, this.ctx.clock.now());
    if (this.bus.publishWithin && events.length) {
      await this.bus.publishWithin(db, events);
      announced.add(events);
    }
    return events;
  }

  /** Tells every instance about stored events. Never throws: the events are stored already. */
  async wake(events: BusEvent[]): Promise<void> {
    if (!events.length || announced.has(events)) return;
    try {
      await this.bus.publish(events);
    } catch (err) {
      this.ctx.log.warn({ err: { message: (err as Error).message } }, 'live: publish failed');
    }
  }

  async emit(rows: LiveEventRow[]): Promise<void> {
    await this.wake(await this.record(this.ctx.db, rows));
  }

  /**
   * Runs `fn` at most `perSecond` times a second per key on this instance: the first call at
   * once, later ones folded into one run at the end of the window (a vote storm → a few tallies).
   */
  throttle(key: string, fn: () => Promise<void>, perSecond: number = EVENTS.talliesPerSecond) {
    const state = this.throttles.get(key);
    if (state) {
      state.again = true;
      return;
    }
    const entry = { timer: null as NodeJS.Timeout | null, again: false };
    this.throttles.set(key, entry);
    const run = () => {
      fn().catch((err: Error) =>
        this.ctx.log.warn({ err: { message: err.message }, key }, 'live: throttled run failed'),
      );
      entry.timer = setTimeout(() => {
        if (entry.again) {
          entry.again = false;
          run();
        } else this.throttles.delete(key);
      }, 1000 / perSecond);
      entry.timer.unref();
    };
    run();
  }

  /**
   * Opens a stream: registers it (buffering what arrives meanwhile), replays what it missed
   * since `after`, then sends the buffer without repeats. Returns the close function.
   */
  async open(stream: OpenStream): Promise<() => void> {
    let buffer: BusEvent[] | null = [];
    const open = {
      last: stream.after ?? 0,
      write(e: BusEvent) {
        if (e.id > this.last) this.last = e.id;
        stream.write(e);
      },
    };
    const member: LiveStream = {
      userId: stream.userId,
      topics: stream.topics,
      send: (e) => {
        if (buffer) buffer.push(e);
        else open.write(e);
      },
    };
    const newHere = [...stream.topics].filter((t) => !this.hub.watches(t));
    const unwatched = newHere.filter((t) => !this.isWatched(t));
    this.hub.add(member);
    if (newHere.length) void this.announceWatched(newHere);
    if (unwatched.length)
      for (const start of this.watchStarts) {
        try {
          start(unwatched);
        } catch (err) {
          this.ctx.log.warn(
            { err: { message: (err as Error).message } },
            'live: watch start failed',
          );
        }
      }
    const sent = new Set<number>();
    try {
      if (stream.after !== null) {
        const missed = await repo.eventsSince(this.ctx.db, {
          userId: stream.userId,
          topics: [...stream.topics],
          after: stream.after,
          limit: REPLAY_MAX + 1,
        });
        if (missed.length > REPLAY_MAX) {
          const last = await repo.lastEventId(this.ctx.db);
          open.write({ id: last, userId: stream.userId, topic: null, data: { type: 'reset' } });
        } else
          for (const e of missed) {
            sent.add(e.id);
            open.write(e);
          }
      } else open.last = await repo.lastEventId(this.ctx.db);
    } catch (err) {
      this.leave(member);
      throw err;
    }
    const pending: BusEvent[] = buffer;
    buffer = null;
    for (const e of pending) if (!sent.has(e.id)) open.write(e);
    this.streams.set(member, open);
    return () => {
      if (this.streams.delete(member)) this.leave(member);
    };
  }

  /** A stream goes; its topics still count as watched a while (a reconnect misses nothing). */
  private leave(member: LiveStream): void {
    this.hub.remove(member);
    const until = Date.now() + WATCH_KEEP_MS;
    for (const t of member.topics) if (!this.hub.watches(t)) this.watchedElsewhere.set(t, until);
  }

  /** After the bus lost events: each open stream gets what was stored since its last event. */
  private async catchUp(): Promise<void> {
    for (const [member, open] of this.streams) {
      const missed = await repo.eventsSince(this.ctx.db, {
        userId: member.userId,
        topics: [...member.topics],
        after: open.last,
        limit: REPLAY_MAX,
      });
      if (this.streams.has(member)) for (const e of missed) open.write(e);
    }
  }

  /** POST /events/ticket: a single-use ticket for `GET /events?ticket=`, valid one minute. */
  async createTicket(actor: Actor): Promise<{ ticket: string; expires: string }> {
    const ticket = crypto.randomBytes(24).toString('base64url');
    const expires = new Date(this.ctx.clock.now().getTime() + EVENTS.ticketSeconds * 1000);
    await repo.insertTicket(this.ctx.db, {
      ticketHash: hashTicket(ticket),
      userId: actor.userId,
      sessionId: actor.sessionId,
      expiresAt: expires,
    });
    return { ticket, expires: expires.toISOString() };
  }

  /** The ticket's user, once; 401 for an unknown, used or expired ticket. */
  async redeemTicket(ticket: string): Promise<{ userId: number; sessionId: number }> {
    const row = await repo.takeTicket(this.ctx.db, hashTicket(ticket), this.ctx.clock.now());
    if (!row) throw new AppError(401, 'BAD_TICKET', 'This event ticket is invalid or has expired.');
    return row;
  }

  /** Old events go after a week; a resume from before then gets `reset`. */
  async prune(): Promise<number> {
    const before = new Date(this.ctx.clock.now().getTime() - KEEP_DAYS * 86_400_000);
    return repo.pruneEvents(this.ctx.db, before);
  }

  async close(): Promise<void> {
    clearInterval(this.watchTimer);
    for (const t of this.throttles.values()) if (t.timer) clearTimeout(t.timer);
    this.throttles.clear();
    await this.bus.close();
  }
}

/** Event batches already announced inside their transaction. */
const announced = new WeakSet<BusEvent[]>();

function hashTicket(ticket: string): string {
  return crypto.createHash('sha256').update(ticket).digest('hex');
}
