/**
 * The live connection's light part, in the first-load bundle: which bounties the pages watch
 * (`useLiveWatch`), the events features handle (`useLiveEvent`), and `<LiveBridge />`, which
 * loads the connection (./bridge.tsx, ./connection.ts) only when a signed-in user or a watched
 * bounty needs it: a visitor's pages (/login) never load it.
 */
import type { LiveEvent } from '@bountyhunt/shared/live';
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { useSession } from '../session';
import { onLiveEvent, subscribeWatched, watchBounty, watchedSnapshot } from './bus';

const Bridge = lazy(() => import('./bridge'));

/** Receive this bounty's tallies and new claims while the calling component is mounted. */
export function useLiveWatch(bountyId: number | null | undefined): void {
  useEffect(() => (bountyId ? watchBounty(bountyId) : undefined), [bountyId]);
}

/** Calls `listener` with every live event while mounted (the latest listener is used). */
export function useLiveEvent(listener: (event: LiveEvent) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onLiveEvent((e) => latest.current(e)), []);
}

export function LiveBridge() {
  const { status } = useSession();
  const watching = useSyncExternalStore(
    subscribeWatched,
    () => watchedSnapshot() !== '',
    () => false,
  );
  if (status !== 'signed-in' && !watching) return null;
  return (
    <Suspense fallback={null}>
      <Bridge />
    </Suspense>
  );
}
