/**
 * SPEC.md §4 Session. Unresolved at load; a stored token (local storage `ss`) fetches the
 * current user, and any answer but 200 logs out. Everything the browser knows about the
 * signed-in user comes from here: `const { user, hunter, status } = useSession()`.
 */
import type { CurrentUser, User } from '@bountyhunt/shared/users';
import type { Hunter } from '@bountyhunt/shared/profiles';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { apiRequest, getToken, onSessionRevoked, setToken, type ApiResult } from './api-client';

export type SessionStatus = 'unresolved' | 'signed-in' | 'signed-out';

export interface Session {
  status: SessionStatus;
  /**
   * The server ended this signed-in session (a 401 with its token: expired, signed out
   * elsewhere, suspended). Guards then send the visitor to /login rather than /join.
   */
  ended?: boolean;
  user: User | null;
  hunter: Hunter | null;
  /** Stores the token, loads the user; resolves with the GET /user result (200 = signed in). */
  login: (token: string) => Promise<ApiResult<CurrentUser>>;
  /** Deletes the server session when there is a token, then forgets it locally. */
  logout: () => Promise<void>;
  /** Reloads the current user (after a vote, a membership change, ...). */
  refresh: () => Promise<ApiResult<CurrentUser>>;
  /** Replaces the user and/or hunter with what an API call just returned. */
  update: (next: { user?: User; hunter?: Hunter | null }) => void;
}

const SessionContext = createContext<Session | null>(null);

interface State {
  status: SessionStatus;
  ended?: boolean;
  user: User | null;
  hunter: Hunter | null;
}

const SIGNED_OUT: State = { status: 'signed-out', user: null, hunter: null };

export function fetchCurrentUser(): Promise<ApiResult<CurrentUser>> {
  return apiRequest<CurrentUser>('GET', '/user');
}

let prefetched: Promise<ApiResult<CurrentUser>> | null = null;

/**
 * Starts loading the stored token's user before the app first renders (main.tsx); the
 * SessionProvider's first load takes this answer instead of asking again.
 */
export function prefetchCurrentUser(): void {
  if (getToken()) prefetched = fetchCurrentUser();
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>(() =>
    getToken() ? { status: 'unresolved', user: null, hunter: null } : SIGNED_OUT,
  );
  // Each load gets a number so a slow answer never overwrites a newer one.
  const generation = useRef(0);

  const apply = useCallback((mine: number, res: ApiResult<CurrentUser>) => {
    if (mine !== generation.current) return;
    if (res.status === 200 && res.data?.user) {
      setState({ status: 'signed-in', user: res.data.user, hunter: res.data.hunter ?? null });
    } else {
      setToken(null);
      setState(SIGNED_OUT);
    }
  }, []);

  const load = useCallback(async (): Promise<ApiResult<CurrentUser>> => {
    const mine = ++generation.current;
    const res = await fetchCurrentUser();
    apply(mine, res);
    return res;
  }, [apply]);

  useEffect(() => {
    const early = prefetched;
    prefetched = null;
    if (!getToken()) return;
    const mine = ++generation.current;
    // The first load renders the signed-in app as a transition (in slices, see main.tsx).
    void (early ?? fetchCurrentUser()).then((res) => startTransition(() => apply(mine, res)));
  }, [apply]);

  // A 401 to a call made with the token of a signed-in session: the server ended it. (While
  // unresolved, the first GET /user's answer decides, as SPEC.md §4 says.)
  const signedIn = useRef(false);
  // A layout effect: set in the same commit that shows the signed-in app, so a 401 answered
  // right after it (before passive effects ran) still ends the session.
  useLayoutEffect(() => {
    signedIn.current = state.status === 'signed-in';
  }, [state.status]);
  useEffect(
    () =>
      onSessionRevoked(() => {
        if (!signedIn.current) return;
        signedIn.current = false;
        generation.current++;
        setToken(null);
        setState({ ...SIGNED_OUT, ended: true });
        queryClient.clear();
      }),
    [queryClient],
  );

  const login = useCallback(
    (token: string) => {
      setToken(token);
      return load();
    },
    [load],
  );

  const logout = useCallback(async () => {
    const token = getToken();
    generation.current++;
    if (token) await apiRequest('DELETE', `/auth/${encodeURIComponent(token)}`);
    setToken(null);
    setState(SIGNED_OUT);
    queryClient.clear();
  }, [queryClient]);

  const refresh = useCallback(async () => {
    if (!getToken()) {
      setState(SIGNED_OUT);
      return { status: 401, data: null as unknown as CurrentUser, message: '' };
    }
    return load();
  }, [load]);

  const update = useCallback((next: { user?: User; hunter?: Hunter | null }) => {
    setState((s) =>
      s.status !== 'signed-in'
        ? s
        : {
            ...s,
            user: next.user ?? s.user,
            hunter: next.hunter !== undefined ? next.hunter : s.hunter,
          },
    );
  }, []);

  const value = useMemo<Session>(
    () => ({ ...state, login, logout, refresh, update }),
    [state, login, logout, refresh, update],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside <SessionProvider>');
  return ctx;
}
