/**
 * Live events to whoever listens: features handle the events about their own caches (say the
 * bounties feature's tallies) with `useLiveEvent`, while the watched bounties are gathered for
 * the connection. Small and without dependencies: it is in the first-load bundle.
 */
import type { LiveEvent } from '@bountyhunt/shared/live';

type Listener = (event: LiveEvent) => void;
const eventListeners = new Set<Listener>();

export function onLiveEvent(listener: Listener): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

export function emitLiveEvent(event: LiveEvent): void {
  for (const l of [...eventListeners]) {
    try {
      l(event);
    } catch (err) {
      console.error('live event handler failed', err);
    }
  }
}

const watched = new Map<number, number>();
const watchListeners = new Set<() => void>();
let snapshot = '';

function changed() {
  snapshot = [...watched.keys()].sort((a, b) => a - b).join(',');
  for (const l of [...watchListeners]) l();
}

/** Starts watching a bounty; returns the stop function (watches are counted). */
export function watchBounty(bountyId: number): () => void {
  watched.set(bountyId, (watched.get(bountyId) ?? 0) + 1);
  changed();
  return () => {
    const n = (watched.get(bountyId) ?? 1) - 1;
    if (n > 0) watched.set(bountyId, n);
    else watched.delete(bountyId);
    changed();
  };
}

export function subscribeWatched(listener: () => void): () => void {
  watchListeners.add(listener);
  return () => watchListeners.delete(listener);
}

/** The watched bounty ids, sorted, comma-separated ('' when none). */
export const watchedSnapshot = (): string => snapshot;
