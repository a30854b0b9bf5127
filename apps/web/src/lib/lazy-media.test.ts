import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

function lazyImage(src: string): HTMLImageElement {
  const img = document.createElement('img');
  img.dataset.src = src;
  document.body.appendChild(img);
  return img;
}

describe('lazyMediaRef', () => {
  it('without IntersectionObserver, loads at once', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { lazyMediaRef } = await import('./lazy-media');
    const img = lazyImage('http://media.test/a-t.webp');
    lazyMediaRef(img);
    expect(img.getAttribute('src')).toBe('http://media.test/a-t.webp');
  });

  it('after the first screen settles, loads what comes within the margin, once', async () => {
    let callback: IntersectionObserverCallback = () => undefined;
    const observed = new Set<Element>();
    let options: IntersectionObserverInit | undefined;
    class FakeObserver {
      constructor(cb: IntersectionObserverCallback, opts?: IntersectionObserverInit) {
        callback = cb;
        options = opts;
      }
      observe(el: Element) {
        observed.add(el);
      }
      unobserve(el: Element) {
        observed.delete(el);
      }
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => (idle = fn));
    // jsdom's document has loaded: the module waits only for an idle moment.
    const { lazyMediaRef, LAZY_MARGIN } = await import('./lazy-media');
    const near = lazyImage('http://media.test/near-t.webp');
    const far = lazyImage('http://media.test/far-t.webp');
    const gone = lazyImage('http://media.test/gone-t.webp');
    lazyMediaRef(near);
    lazyMediaRef(far);
    const cleanup = lazyMediaRef(gone);
    cleanup?.();
    expect(observed.size).toBe(0);
    expect(idle).not.toBeNull();
    idle!();
    expect([...observed]).toEqual([near, far]);
    expect(options?.rootMargin).toBe(LAZY_MARGIN);

    const entry = (target: Element, isIntersecting: boolean) =>
      ({ target, isIntersecting }) as IntersectionObserverEntry;
    callback([entry(near, true), entry(far, false)], new FakeObserver(() => undefined) as never);
    expect(near.getAttribute('src')).toBe('http://media.test/near-t.webp');
    expect(far.getAttribute('src')).toBeNull();
    expect(gone.getAttribute('src')).toBeNull();

    // Mounted after the first screen settled: observed at once.
    const later = lazyImage('http://media.test/later-t.webp');
    lazyMediaRef(later);
    expect(observed.has(later)).toBe(true);
  });
});
