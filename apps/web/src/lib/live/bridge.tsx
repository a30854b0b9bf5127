/**
 * The live connection's React side, loaded (./index.tsx) once a signed-in user or a watched
 * bounty needs it: makes the connection after the first screen and keeps its target (token,
 * user, watched bounties) current.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { getToken } from '../api-client';
import { useSession } from '../session';
import { subscribeWatched, watchedSnapshot } from './bus';
import { LiveConnection, type LiveTarget } from './connection';

/** The first connection waits this long after the app renders: the first screen comes first. */
const START_DELAY_MS = 3000;

function useWatched(): number[] {
  const value = useSyncExternalStore(subscribeWatched, watchedSnapshot, () => '');
  return value ? value.split(',').map(Number) : [];
}

function LiveBridge() {
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
      if (cancelled) return;
      connection.current = new LiveConnection(client);
      setReady(true);
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

export default LiveBridge;
