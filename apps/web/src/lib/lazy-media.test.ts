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

  it('loads what is on screen at once, what is near only after the first screen settles', async () => {
    const made: FakeObserver[] = [];
    class FakeObserver {
      readonly observed = new Set<Element>();
      constructor(
        readonly callback: IntersectionObserverCallback,
        readonly options: IntersectionObserverInit = {},
      ) {
        made.push(this);
      }
      observe(el: Element) {
        this.observed.add(el);
      }
      unobserve(el: Element) {
        this.observed.delete(el);
      }
      /** The browser reporting which of the watched elements intersect. */
      report(hits: Element[]) {
        const entries = [...this.observed].map(
          (target) =>
            ({ target, isIntersecting: hits.includes(target) }) as IntersectionObserverEntry,
        );
        this.callback(entries, this as never);
      }
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => (idle = fn));
    // jsdom's document has loaded: the module waits only for an idle moment.
    const { lazyMediaRef, LAZY_MARGIN } = await import('./lazy-media');
    const visible = lazyImage('http://media.test/visible-t.webp');
    const near = lazyImage('http://media.test/near-t.webp');
    const far = lazyImage('http://media.test/far-t.webp');
    const gone = lazyImage('http://media.test/gone-t.webp');
    for (const el of [visible, near, far]) lazyMediaRef(el);
    const cleanup = lazyMediaRef(gone);
    cleanup?.();

    // Before the first screen settles: only the viewport itself is watched.
    const [onScreen] = made;
    expect(made).toHaveLength(1);
    expect(onScreen!.options.rootMargin).toBe('0px');
    expect([...onScreen!.observed]).toEqual([visible, near, far]);
    onScreen!.report([visible]);
    expect(visible.getAttribute('src')).toBe('http://media.test/visible-t.webp');
    expect(near.getAttribute('src')).toBeNull();

    // Once settled, the rest are watched with the margin.
    expect(idle).not.toBeNull();
    idle!();
    const near300 = made[1]!;
    expect(near300.options.rootMargin).toBe(LAZY_MARGIN);
    expect([...near300.observed]).toEqual([near, far]);
    near300.report([near]);
    expect(near.getAttribute('src')).toBe('http://media.test/near-t.webp');
    expect(far.getAttribute('src')).toBeNull();
    expect(gone.getAttribute('src')).toBeNull();
    // Loaded elements are watched no more, by either observer.
    expect([...onScreen!.observed]).toEqual([far]);
    expect([...near300.observed]).toEqual([far]);

    // Mounted after the first screen settled: watched with the margin at once.
    const later = lazyImage('http://media.test/later-t.webp');
    lazyMediaRef(later);
    expect(near300.observed.has(later)).toBe(true);
  });
});
