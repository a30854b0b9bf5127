/**
 * SPEC.md §7 call rules: every call yields {status, data, message}. On an HTTP failure the
 * status comes from the response and the message is its body's message; any other failure
 * (network, abort, timeout) is status 500, message UNKNOWN_ERROR and empty data.
 */
import { API_MSG, NEXT_CURSOR_HEADER, UI } from '@bountyhunt/shared/api';
import { apiBaseUrl } from './config';
import { takeEarly } from './early';

export interface ApiResult<T> {
  status: number;
  data: T;
  message: string;
}

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(UI.tokenStorageKey);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(UI.tokenStorageKey, token);
    else window.localStorage.removeItem(UI.tokenStorageKey);
  } catch {
    // Storage may be unavailable (private mode); the session then lasts for the page.
  }
}

type Listener = () => void;
const revokedListeners = new Set<Listener>();

/**
 * Called when a request that carried the stored token is answered 401: the server ended the
 * session (it expired, was signed out elsewhere, or the account was suspended). The session
 * provider listens. Returns the unsubscribe function.
 */
export function onSessionRevoked(listener: Listener): () => void {
  revokedListeners.add(listener);
  return () => revokedListeners.delete(listener);
}

/**
 * fetch() for API calls: the response index.html's early script already asked for, when it
 * did (lib/early.ts), else a new request. A failed early request is asked again.
 */
export function fetchApi(url: string, init: RequestInit = {}): Promise<Response> {
  const body = typeof init.body === 'string' ? init.body : undefined;
  const early =
    init.body === undefined || body !== undefined
      ? takeEarly(init.method ?? 'GET', url, body, getToken())
      : null;
  return early ? early.catch(() => fetch(url, init)) : fetch(url, init);
}

export interface RequestOptions {
  /** Raw body (a File or Blob for uploads); sent with its own content type. */
  raw?: Blob;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Upload progress, 0..1 (uses XMLHttpRequest). */
  onProgress?: (fraction: number) => void;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = getToken();
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

async function parseBody(text: string): Promise<unknown> {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function failureMessage(body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body)
    return String((body as { message: unknown }).message);
  return typeof body === 'string' ? body : '';
}

function xhrRequest<T>(
  method: string,
  url: string,
  body: Blob,
  opts: RequestOptions,
): Promise<ApiResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(
      headers({ 'content-type': body.type || 'application/octet-stream' }),
    ))
      xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = async () => {
      const parsed = await parseBody(xhr.responseText);
      const ok = xhr.status >= 200 && xhr.status < 300;
      resolve({
        status: xhr.status,
        data: (ok ? parsed : null) as T,
        message: ok ? '' : failureMessage(parsed),
      });
    };
    const fail = () => resolve({ status: 500, data: null as T, message: API_MSG.unknownError });
    xhr.onerror = fail;
    xhr.onabort = fail;
    xhr.ontimeout = fail;
    if (opts.timeoutMs) xhr.timeout = opts.timeoutMs;
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(body);
  });
}

/** An answer and its response headers (null when no response arrived). */
interface Sent<T> {
  result: ApiResult<T>;
  headers: Headers | null;
}

async function send<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  opts: RequestOptions,
): Promise<Sent<T>> {
  const url = `${apiBaseUrl()}${path.startsWith('/') ? path : `/${path}`}`;
  if (opts.raw && opts.onProgress)
    return { result: await xhrRequest<T>(method, url, opts.raw, opts), headers: null };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 30_000);
  const token = getToken();
  opts.signal?.addEventListener('abort', () => controller.abort());
  try {
    const res = await fetchApi(url, {
      method,
      headers: headers(
        opts.raw
          ? { 'content-type': opts.raw.type || 'application/octet-stream' }
          : body !== undefined
            ? { 'content-type': 'application/json' }
            : {},
      ),
      body: opts.raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
      signal: controller.signal,
    });
    const parsed = await parseBody(await res.text());
    // Only while that token is still the stored one: a late answer never ends a newer session.
    if (res.status === 401 && token && token === getToken())
      for (const listener of [...revokedListeners]) listener();
    if (!res.ok)
      return {
        result: { status: res.status || 500, data: null as T, message: failureMessage(parsed) },
        headers: res.headers,
      };
    return { result: { status: res.status, data: parsed as T, message: '' }, headers: res.headers };
  } catch {
    return {
      result: { status: 500, data: null as T, message: API_MSG.unknownError },
      headers: null,
    };
  } finally {
    clearTimeout(timer);
  }
}

export async function apiRequest<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<ApiResult<T>> {
  return (await send<T>(method, path, body, opts)).result;
}

/**
 * One page of a paged list (the bounty search, the profiles' feeds and directory): the array
 * answer, and the next page's cursor from the `x-next-cursor` header (null on the last page).
 * A failed page has empty data and no cursor.
 */
export interface ApiPage<T> extends ApiResult<T[]> {
  nextCursor: string | null;
}

export async function apiPage<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<ApiPage<T>> {
  const { result, headers } = await send<unknown>(method, path, body, opts);
  const ok = result.status >= 200 && result.status < 300;
  return {
    status: result.status,
    data: ok && Array.isArray(result.data) ? (result.data as T[]) : [],
    message: result.message,
    nextCursor: (ok && headers?.get(NEXT_CURSOR_HEADER)) || null,
  };
}
