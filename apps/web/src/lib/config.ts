/** Where the API and media live (CONTRACT.md "Running it"). */
declare global {
  interface Window {
    __BH_CONFIG__?: { apiUrl?: string; mediaUrl?: string };
  }
}

function runtime() {
  return typeof window !== 'undefined' ? (window.__BH_CONFIG__ ?? {}) : {};
}

/** API_URL when set (injected at serve time, or VITE_API_URL at build time), else {protocol}//{hostname}:5052. */
export function apiBaseUrl(): string {
  const fromRuntime = runtime().apiUrl ?? (import.meta.env.VITE_API_URL as string | undefined);
  if (fromRuntime) return fromRuntime.replace(/\/$/, '');
  return `${window.location.protocol}//${window.location.hostname}:5052`;
}

/** MEDIA_URL when set, else the API address + /media/. Always ends with a slash. */
export function mediaBaseUrl(): string {
  const fromRuntime = runtime().mediaUrl ?? (import.meta.env.VITE_MEDIA_URL as string | undefined);
  const base = fromRuntime ?? `${apiBaseUrl()}/media/`;
  return base.endsWith('/') ? base : `${base}/`;
}
