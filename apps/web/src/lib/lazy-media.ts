/**
 * Media outside the first card: loaded at once when on screen, and otherwise when scrolled
 * near (within LAZY_MARGIN of the viewport) but only once the page has loaded and the browser
 * is idle, so the first screen's images have the connection to themselves. The browser's own
 * `loading="lazy"` starts images up to ~1250–2500 px away: on a phone the feed's second and
 * third cards took the connection from the first screen's.
 *
 * The element carries its address in `data-src` (and a video its poster in `data-poster`);
 * `lazyMediaRef` is its ref. Without IntersectionObserver (old browsers, jsdom) it loads at once.
 */
export const LAZY_MARGIN = '300px 0px';

type Media = HTMLImageElement | HTMLVideoElement;

function load(el: Media): void {
  const { src, poster } = el.dataset;
  if (poster && el instanceof HTMLVideoElement && el.poster !== poster) el.poster = poster;
  if (src && el.getAttribute('src') !== src) el.src = src;
}

/** `onScreen` watches the viewport itself; `near` adds the margin (after the first screen). */
const observers: { onScreen?: IntersectionObserver; near?: IntersectionObserver } = {};

function observer(kind: 'onScreen' | 'near'): IntersectionObserver {
  observers[kind] ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        forget(e.target);
        load(e.target as Media);
      }
    },
    { rootMargin: kind === 'near' ? LAZY_MARGIN : '0px' },
  );
  return observers[kind];
}

/** Elements waiting for the first screen to settle; null once it has. */
let waiting: Set<Element> | null = new Set();

function forget(el: Element): void {
  waiting?.delete(el);
  observers.onScreen?.unobserve(el);
  observers.near?.unobserve(el);
}

function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 1500 });
  else setTimeout(fn, 200);
}

/**
 * The first screen has settled once the page has loaded and the main thread is idle: the
 * first render, its eager images and their paint are done by then.
 */
function settled(): void {
  whenIdle(() => {
    const queue = waiting;
    waiting = null;
    for (const e of queue ?? []) observer('near').observe(e);
  });
}

if (typeof window !== 'undefined') {
  if (document.readyState === 'complete') settled();
  else window.addEventListener('load', settled, { once: true });
}

/** Ref callback (React 19: the returned function runs on unmount). */
export function lazyMediaRef(el: Media | null): (() => void) | void {
  if (!el) return;
  if (typeof IntersectionObserver === 'undefined') {
    load(el);
    return;
  }
  if (waiting) {
    waiting.add(el);
    observer('onScreen').observe(el);
  } else {
    observer('near').observe(el);
  }
  return () => forget(el);
}
