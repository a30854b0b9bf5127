/**
 * Early calls: the first page's API requests leave while the app's script is still downloading.
 *
 * index.html carries a small inline script (src/early/early-main.ts, built and inlined by
 * vite.config.ts) that, for a signed-in visitor, matches the address against the features'
 * `early.ts` tables and starts the page's first GETs and searches at once. When the app has
 * loaded and asks for the same request (same method, address, body and token), `fetchApi`
 * hands it that response instead of asking again. Each early response is used at most once
 * and only within EARLY_MAX_AGE_MS; anything else goes to the network as usual.
 *
 * This module is part of both scripts, so it imports nothing of React or the app.
 */

export interface ApiCall {
  method: 'GET' | 'POST';
  /** Path on the API, e.g. `/claim/12`. */
  path: string;
  /** JSON body (POST). */
  body?: unknown;
}

export interface EarlyCall extends ApiCall {
  /** Calls that need this one's JSON answer (a 200), started as soon as it arrives. */
  then?: (answer: unknown) => EarlyCall[];
  /** Images the page will show from this answer (a 200), started as soon as it arrives. */
  images?: (answer: unknown) => { src: string; priority?: 'high' | 'low' | 'auto' }[];
}

export interface EarlyRoute {
  /** The route's path as the router knows it, e.g. `/claim/:id`. */
  path: string;
  /**
   * The route's page module under src/, as its routes.tsx imports it: the build tells the
   * script which files that chunk needs (PAGE_CHUNKS), and they are preloaded at once.
   */
  page: string;
  calls: (params: Record<string, string>, search: URLSearchParams) => EarlyCall[];
}

interface EarlyEntry {
  key: string;
  token: string;
  at: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __BH_EARLY__?: EarlyEntry[];
  }
}

/** An early response older than this is not used (the app asks again). */
export const EARLY_MAX_AGE_MS = 10_000;

export function requestKey(method: string, url: string, body?: string): string {
  return `${method.toUpperCase()} ${url}\n${body ?? ''}`;
}

/** The fetch arguments of a call, exactly as the app's fetchers send it. */
export function callRequest(
  call: ApiCall,
  base: string,
  token: string,
): { url: string; init: RequestInit & { method: string; headers: Record<string, string> } } {
  const headers: Record<string, string> = {};
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  headers.authorization = `Bearer ${token}`;
  return {
    url: `${base}${call.path}`,
    init: {
      method: call.method,
      headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    },
  };
}

/** `/claim/:id` against `/claim/12` → `{ id: '12' }`; null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = pathname.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    let g: string;
    try {
      g = decodeURIComponent(got[i]!);
    } catch {
      return null;
    }
    if (w.startsWith(':')) params[w.slice(1)] = g;
    else if (w !== g) return null;
  }
  return params;
}

/** The first route of `routes` that matches `pathname`, with its calls (null when none does). */
export function earlyRouteFor(
  routes: EarlyRoute[],
  pathname: string,
  search: URLSearchParams,
): { route: EarlyRoute; calls: EarlyCall[] } | null {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, calls: route.calls(params, search) };
  }
  return null;
}

/** Page module (under src/) → the built files its chunk loads, from the web build. */
export type PageChunks = Record<string, string[]>;

/** `<link rel=modulepreload>` (scripts) or `<link rel=preload as=style>` for each file. */
export function preloadFiles(files: string[], doc: Document = document): void {
  for (const href of files) {
    const link = doc.createElement('link');
    // Both with crossorigin, as the app's chunk loader then asks for them (its stylesheet links
    // too): a preload in another credentials mode is not reused, and the file comes twice.
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
    }
    link.crossOrigin = '';
    link.href = href;
    doc.head.appendChild(link);
  }
}

/** Starts `calls` (and their follow-ups) and leaves their responses for `fetchApi`. */
export function startEarly(
  calls: EarlyCall[],
  base: string,
  token: string,
  preload: (src: string, priority?: 'high' | 'low' | 'auto') => void,
  win: Window = window,
): void {
  const list = (win.__BH_EARLY__ ??= []);
  for (const call of calls) {
    const { url, init } = callRequest(call, base, token);
    const response = fetch(url, init);
    list.push({
      key: requestKey(init.method, url, init.body as string | undefined),
      token,
      at: performance.now(),
      response,
    });
    if (!call.then && !call.images) continue;
    response
      .then((res) => (res.status === 200 ? res.clone().json() : undefined))
      .then((answer: unknown) => {
        if (answer === undefined) return;
        for (const img of call.images?.(answer) ?? []) preload(img.src, img.priority);
        if (call.then) startEarly(call.then(answer), base, token, preload, win);
      })
      .catch(() => undefined);
  }
}

/**
 * The early response for this request, if the inline script started it for this token less
 * than EARLY_MAX_AGE_MS ago; it is handed out once.
 */
export function takeEarly(
  method: string,
  url: string,
  body: string | undefined,
  token: string | null,
  win: Window = window,
): Promise<Response> | null {
  const list = win.__BH_EARLY__;
  if (!list?.length) return null;
  // Early responses the app never asked for (say the guard sent the visitor elsewhere) go.
  const now = performance.now();
  for (let i = list.length - 1; i >= 0; i--)
    if (now - list[i]!.at > EARLY_MAX_AGE_MS) list.splice(i, 1);
  if (!token) return null;
  const key = requestKey(method, url, body);
  const i = list.findIndex((e) => e.key === key);
  if (i < 0) return null;
  const [entry] = list.splice(i, 1);
  if (!entry || entry.token !== token) return null;
  return entry.response;
}
