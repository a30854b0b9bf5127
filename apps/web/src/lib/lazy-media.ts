/**
 * Media below the first screen load when scrolled near (within LAZY_MARGIN of the viewport),
 * and not before the page has loaded and the browser is idle: the first screen's images have
 * the connection to themselves. The browser's own `loading="lazy"` starts images up to ~1250–2500 px away, so
 * on a phone the feed's second and third cards took the connection from the first screen's.
 *
 * The element carries its address in `data-src` (and a video its poster in `data-poster`);
 * `lazyMediaRef` is its ref. Without IntersectionObserver (old browsers, jsdom) it loads at once.
 */
export const LAZY_MARGIN = '300px 0px';

let observer: IntersectionObserver | null = null;

function load(el: HTMLImageElement | HTMLVideoElement): void {
  const { src, poster } = el.dataset;
  if (poster && el instanceof HTMLVideoElement && el.poster !== poster) el.poster = poster;
  if (src && el.getAttribute('src') !== src) el.src = src;
}

function shared(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries, obs) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        obs.unobserve(e.target);
        load(e.target as HTMLImageElement | HTMLVideoElement);
      }
    },
    { rootMargin: LAZY_MARGIN },
  );
  return observer;
}

/** Elements waiting for the first screen to settle; null once it has. */
let waiting: Set<Element> | null = new Set();

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
    for (const e of queue ?? []) shared().observe(e);
  });
}

if (typeof window !== 'undefined') {
  if (document.readyState === 'complete') settled();
  else window.addEventListener('load', settled, { once: true });
}

function observeWhenSettled(el: Element): void {
  if (waiting) waiting.add(el);
  else shared().observe(el);
}

/** Ref callback (React 19: the returned function runs on unmount). */
export function lazyMediaRef(el: HTMLImageElement | HTMLVideoElement | null): (() => void) | void {
  if (!el) return;
  if (typeof IntersectionObserver === 'undefined') {
    load(el);
    return;
  }
  observeWhenSettled(el);
  return () => {
    waiting?.delete(el);
    observer?.unobserve(el);
  };
}
