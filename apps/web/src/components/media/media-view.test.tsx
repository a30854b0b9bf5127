import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MediaView, type MediaViewProps } from './media-view';

const IMAGE = 'i-aaaaaaaaaaaaaaaaaaaa-1600x1200';
const VIDEO = 'v-bbbbbbbbbbbbbbbbbbbb';
const M = 'https://cdn.test/';

function show(props: MediaViewProps) {
  return render(
    <MemoryRouter>
      <MediaView {...props} />
    </MemoryRouter>,
  ).container;
}

beforeEach(() => {
  window.__BH_CONFIG__ = { mediaUrl: M };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.__BH_CONFIG__;
});

describe('MediaView (SPEC.md §2 "Feed rendering", "Profile page")', () => {
  it('tile: an i- key is its thumbnail; any other key a muted looping autoplaying preview', () => {
    const image = show({ variant: 'tile', mediaKey: IMAGE, alt: 'A claim', eager: true });
    expect(image.querySelector('img')?.getAttribute('src')).toBe(`${M}${IMAGE}-t.webp`);
    expect(image.querySelector('img')?.getAttribute('alt')).toBe('A claim');
    cleanup();

    const video = show({ variant: 'tile', mediaKey: VIDEO, alt: 'A claim', eager: true });
    const v = video.querySelector('video')!;
    expect(v.getAttribute('src')).toBe(`${M}${VIDEO}-p.mp4`);
    expect(v.getAttribute('poster')).toBe(`${M}${VIDEO}-t.webp`);
    expect([v.muted, v.loop, v.autoplay, v.hasAttribute('playsinline')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('tile: a link with the votes on top; off the first screen, media waits in data-src', () => {
    // With IntersectionObserver (a browser), lazy media keeps its address in data-src.
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        unobserve() {}
      },
    );
    const el = show({
      variant: 'tile',
      mediaKey: VIDEO,
      alt: 'Claim on Sunsets, 1234 votes',
      to: '/claim/7',
      votes: 1234,
      testId: 'claim-tile',
    });
    const link = el.querySelector('a[data-testid=claim-tile]')!;
    expect(link.getAttribute('href')).toBe('/claim/7');
    expect(link.getAttribute('aria-label')).toBe('Claim on Sunsets, 1234 votes');
    expect(link.textContent).toBe('1,234');
    const v = link.querySelector('video')!;
    expect(v.hasAttribute('src')).toBe(false);
    expect(v.dataset.src).toBe(`${M}${VIDEO}-p.mp4`);
    expect(v.dataset.poster).toBe(`${M}${VIDEO}-t.webp`);
    expect(v.getAttribute('aria-label')).toBe('');
  });

  it('tile: a video shows its processing state until it is ready', () => {
    const el = show({
      variant: 'tile',
      mediaKey: VIDEO,
      alt: 'Uploaded',
      eager: true,
      processing: { status: 'processing', message: 'Processing…' },
    });
    expect(screen.getByRole('status').textContent).toBe('Processing…');
    expect(el.querySelector('video')).toBeNull();
    expect(el.firstElementChild?.getAttribute('data-media-status')).toBe('processing');
    cleanup();

    show({
      variant: 'tile',
      mediaKey: VIDEO,
      alt: 'Uploaded',
      processing: { status: 'failed', message: 'Could not be processed.' },
    });
    expect(screen.getByRole('status').textContent).toBe('Could not be processed.');
  });

  it('full: the full image in a box reserved by the key’s size', () => {
    const el = show({ variant: 'full', mediaKey: IMAGE, alt: 'Claim', testId: 'claim-media' });
    const img = el.querySelector('img[data-testid=claim-media]')!;
    expect(img.getAttribute('src')).toBe(`${M}${IMAGE}-f.webp`);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1600', '1200']);
    cleanup();
    const video = show({ variant: 'full', mediaKey: VIDEO, alt: 'Claim' }).querySelector('video')!;
    expect(video.controls).toBe(true);
  });

  it('fill: blank without a key; blank, then the thumbnail, then the full image', () => {
    expect(
      show({ variant: 'fill', mediaKey: null, alt: 'Banner' }).querySelector('img'),
    ).toBeNull();
    cleanup();

    const preloads: HTMLImageElement[] = [];
    vi.stubGlobal(
      'Image',
      class extends window.Image {
        constructor() {
          super();
          preloads.push(this);
        }
      },
    );
    const el = show({ variant: 'fill', mediaKey: IMAGE, alt: 'Banner', eager: true });
    const img = el.querySelector('img')!;
    expect(img.dataset.stage).toBe('blank');
    expect(img.getAttribute('src')).toBe(`${M}${IMAGE}-t.webp`);
    fireEvent.load(img);
    expect(img.dataset.stage).toBe('thumb');
    expect(preloads.map((p) => p.src)).toEqual([`${M}${IMAGE}-f.webp`]);
    act(() => preloads[0]!.onload?.(new Event('load')));
    expect(img.dataset.stage).toBe('full');
    expect(img.getAttribute('src')).toBe(`${M}${IMAGE}-f.webp`);
  });

  it('fill without full stops at the thumbnail; card shows a video as its preview', () => {
    const preloads: unknown[] = [];
    vi.stubGlobal(
      'Image',
      class extends window.Image {
        constructor() {
          super();
          preloads.push(this);
        }
      },
    );
    const el = show({ variant: 'fill', mediaKey: IMAGE, alt: 'Picture', full: false });
    fireEvent.load(el.querySelector('img')!);
    expect(el.querySelector('img')!.dataset.stage).toBe('thumb');
    expect(preloads).toEqual([]);
    cleanup();

    const card = show({ variant: 'card', mediaKey: VIDEO, alt: 'Post' });
    expect(card.querySelector('video')?.getAttribute('aria-label')).toBe('Post');
  });
});
