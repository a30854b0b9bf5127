/**
 * The streams open on this instance, by user and by watched topic. The bus hands every event
 * here; the hub passes it to the streams it concerns. No I/O: a stream's `send` writes.
 */
import type { BusEvent } from './live.bus';

export interface LiveStream {
  readonly userId: number | null;
  readonly topics: ReadonlySet<string>;
  send(event: BusEvent): void;
}

export class LiveHub {
  private readonly byUser = new Map<number, Set<LiveStream>>();
  private readonly byTopic = new Map<string, Set<LiveStream>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(stream: LiveStream): void {
    this.count += 1;
    if (stream.userId !== null) addTo(this.byUser, stream.userId, stream);
    for (const t of stream.topics) addTo(this.byTopic, t, stream);
  }

  remove(stream: LiveStream): void {
    this.count -= 1;
    if (stream.userId !== null) removeFrom(this.byUser, stream.userId, stream);
    for (const t of stream.topics) removeFrom(this.byTopic, t, stream);
  }

  deliver(events: BusEvent[]): void {
    for (const e of events) {
      const to =
        e.userId !== null
          ? this.byUser.get(e.userId)
          : e.topic
            ? this.byTopic.get(e.topic)
            : undefined;
      if (!to) continue;
      for (const s of to) s.send(e);
    }
  }

  /** Whether a stream here watches this topic. */
  watches(topic: string): boolean {
    return this.byTopic.has(topic);
  }

  /** The topics streams here watch. */
  topics(): string[] {
    return [...this.byTopic.keys()];
  }

  all(): LiveStream[] {
    const out = new Set<LiveStream>();
    for (const set of this.byUser.values()) for (const s of set) out.add(s);
    for (const set of this.byTopic.values()) for (const s of set) out.add(s);
    return [...out];
  }
}

function addTo<K>(map: Map<K, Set<LiveStream>>, key: K, s: LiveStream): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(s);
}

function removeFrom<K>(map: Map<K, Set<LiveStream>>, key: K, s: LiveStream): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(s);
  if (set.size === 0) map.delete(key);
}
