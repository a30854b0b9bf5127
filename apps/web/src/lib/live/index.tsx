/**
 * The live connection's light part, in the first-load bundle: which bounties the pages watch
 * (`useLiveWatch`), and `<LiveBridge />`, which loads the connection module (./connection.ts)
 * only after the app has rendered and a signed-in user or a watched bounty needs it, then keeps
 * its target (token, watched bounties) current.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { getToken } from '../api-client';
import { useSession } from '../session';
import type { LiveEvent } from '@bountyhunt/shared/live';
import { onLiveEvent, subscribeWatched, watchBounty, watchedSnapshot } from './bus';
import type { LiveConnection, LiveTarget } from './connection';

/** The first connection waits this long after the app renders: the first screen comes first. */
const START_DELAY_MS = 1500;

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

function useWatched(): number[] {
  const value = useSyncExternalStore(subscribeWatched, watchedSnapshot, () => '');
  return value ? value.split(',').map(Number) : [];
}

export function LiveBridge() {
  const client = useQueryClient();
  const { status, user } = useSession();
  const watch = useWatched();
  const connection = useRef<LiveConnection | null>(null);
  const [ready, setReady] = useState(false);
  const me = user?.userId ?? null;
  const token = status === 'signed-in' ? getToken() : null;
  const wanted = status !== 'unresolved' && (!!token || watch.length > 0);

  // Load the connection module once it is first wanted, after the first screen.
  useEffect(() => {
    if (!wanted || connection.current || ready) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void import('./connection').then((m) => {
        if (cancelled) return;
        connection.current = new m.LiveConnection(client);
        setReady(true);
      });
    }, START_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [wanted, ready, client]);

  const watchKey = watch.join(',');
  useEffect(() => {
    if (!ready || !connection.current) return;
    const target: LiveTarget | null = wanted
      ? { token, me, watch: watchKey ? watchKey.split(',').map(Number) : [] }
      : null;
    connection.current.update(target);
  }, [ready, wanted, token, me, watchKey]);

  useEffect(() => () => connection.current?.close(), []);
  return null;
}
