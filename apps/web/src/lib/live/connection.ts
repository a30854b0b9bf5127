/**
 * The one live connection of a tab: `GET /events` read with fetch() (so the token goes in the
 * Authorization header, which EventSource cannot send), parsed as Server-Sent Events,
 * reconnected with backoff and `Last-Event-ID`, and restarted when the token or the watched
 * bounties change. Loaded lazily by ./index.tsx once the app has rendered.
 */
import type { LiveEvent } from '@bountyhunt/shared/live';
import type { QueryClient } from '@tanstack/react-query';
import { apiBaseUrl } from '../config';
import { applyLiveEvent } from './apply-event';
import { LIVE } from './constants';
import { emitLiveEvent } from './bus';
import { createSseParser } from './sse';

export interface LiveTarget {
  token: string | null;
  /** Bounty ids whose tallies and new claims to receive (at most LIVE.maxWatch). */
  watch: number[];
  /** The signed-in user's id, or null. */
  me: number | null;
}

/** Reconnection delays: the stream's `retry:`, doubled per failure up to this, with jitter. */
const MAX_BACKOFF_MS = 30_000;
/** No bytes (not even a heartbeat) for this long: the connection is dead, open a new one. */
const SILENCE_MS = LIVE.heartbeatMs * 2 + 5000;

const LIVE_TYPES = new Set(['message', 'read', 'notification', 'tally', 'claim', 'reset']);

export function parseLiveEvent(data: string): LiveEvent | null {
  try {
    const value = JSON.parse(data) as { type?: unknown };
    return value && typeof value === 'object' && LIVE_TYPES.has(String(value.type))
      ? (value as LiveEvent)
      : null;
  } catch {
    return null;
  }
}

/** `<html data-live="open">` while a stream is open (browser tests wait for it). */
function markOpen(open: boolean) {
  if (typeof document === 'undefined') return;
  if (open) document.documentElement.dataset.live = 'open';
  else delete document.documentElement.dataset.live;
}

export function eventsUrl(base: string, watch: number[]): string {
  const ids = [...new Set(watch)].sort((a, b) => a - b).slice(0, LIVE.maxWatch);
  return `${base}/events${ids.length ? `?watch=${ids.join(',')}` : ''}`;
}

export function backoffMs(failures: number, retryMs: number, random = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

export class LiveConnection {
  private target: LiveTarget | null = null;
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private silence: ReturnType<typeof setTimeout> | null = null;
  private lastId = '';
  private retryMs: number = LIVE.retryMs;
  private failures = 0;
  /** Bumped on every (re)start: a stale loop stops when it sees a newer generation. */
  private generation = 0;

  constructor(
    private readonly client: QueryClient,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  /** Connects for this target (or stays connected when nothing changed); null disconnects. */
  update(target: LiveTarget | null): void {
    const prev = this.target;
    const same =
      prev &&
      target &&
      prev.token === target.token &&
      prev.me === target.me &&
      eventsUrl('', prev.watch) === eventsUrl('', target.watch);
    if (same) return;
    // Another user's stream starts afresh; a new watch list resumes where this one stopped.
    if (!target || !prev || prev.token !== target.token) this.lastId = '';
    this.target = target;
    this.stop();
    if (target && (target.token || target.watch.length)) {
      this.failures = 0;
      void this.run(++this.generation);
    }
  }

  close(): void {
    this.target = null;
    this.stop();
  }

  private stop() {
    markOpen(false);
    this.generation++;
    this.abort?.abort();
    this.abort = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.silence) clearTimeout(this.silence);
    this.timer = null;
    this.silence = null;
  }

  private armSilence(controller: AbortController) {
    if (this.silence) clearTimeout(this.silence);
    this.silence = setTimeout(() => controller.abort(), SILENCE_MS);
  }

  private async run(generation: number): Promise<void> {
    const target = this.target;
    if (!target || generation !== this.generation) return;
    const controller = new AbortController();
    this.abort = controller;
    let gotEvent = false;
    let fatal = false;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (target.token) headers.authorization = `Bearer ${target.token}`;
      if (this.lastId) headers['last-event-id'] = this.lastId;
      const res = await this.fetchImpl(eventsUrl(apiBaseUrl(), target.watch), {
        headers,
        signal: controller.signal,
        cache: 'no-store',
      });
      // 401: the session ended (the session provider signs out and a new target follows).
      if (res.status === 401 || res.status === 403) fatal = true;
      if (!res.ok || !res.body) throw new Error(`GET /events answered ${res.status}`);
      const parser = createSseParser(
        {
          onActivity: () => this.armSilence(controller),
          onRetry: (ms) => {
            this.retryMs = Math.max(500, ms);
          },
          onEvent: (e) => {
            this.lastId = e.id;
            const event = parseLiveEvent(e.data);
            if (!event || generation !== this.generation) return;
            gotEvent = true;
            applyLiveEvent(this.client, event, target.me);
            emitLiveEvent(event);
          },
        },
        this.lastId,
      );
      this.armSilence(controller);
      // Open: a previous failure streak is over.
      this.failures = 0;
      markOpen(true);
      // A fresh stream (no id to resume from) replays nothing: counts may have moved between
      // the page's first requests and now.
      if (!this.lastId) applyLiveEvent(this.client, { type: 'reset' }, target.me, 'counts');
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || generation !== this.generation) break;
        parser.push(value);
      }
    } catch {
      // Network failure, abort (restart, silence) or a refusal: reconnect below unless stopped.
    }
    if (generation !== this.generation) return;
    markOpen(false);
    if (this.silence) clearTimeout(this.silence);
    if (fatal) return;
    this.failures = gotEvent ? 1 : this.failures + 1;
    this.timer = setTimeout(
      () => void this.run(generation),
      backoffMs(this.failures, this.retryMs),
    );
  }
}
