import { afterEach, describe, expect, it } from 'vitest';
import { BLANK_IMAGE, feedMedia, mediaUrl } from './media-url';

afterEach(() => {
  delete window.__BH_CONFIG__;
});

describe('media URLs (CONTRACT.md "Media", SPEC.md §2 "Feed rendering")', () => {
  it('defaults to the API address + /media/', () => {
    window.__BH_CONFIG__ = { apiUrl: 'http://api.test:5052' };
    expect(mediaUrl('i-abc-10x10', 'thumb')).toBe('http://api.test:5052/media/i-abc-10x10-t.webp');
    expect(mediaUrl('i-abc-10x10', 'full')).toBe('http://api.test:5052/media/i-abc-10x10-f.webp');
  });

  it('uses MEDIA_URL when configured, with or without a trailing slash', () => {
    window.__BH_CONFIG__ = { apiUrl: 'http://api.test', mediaUrl: 'https://cdn.test/m' };
    expect(mediaUrl('v-x', 'preview')).toBe('https://cdn.test/m/v-x-p.mp4');
  });

  it('i- keys are images (thumbnail); every other key is an mp4 preview with a poster', () => {
    window.__BH_CONFIG__ = { mediaUrl: 'https://cdn.test/' };
    expect(feedMedia('i-k-1x1')).toEqual({ kind: 'image', src: 'https://cdn.test/i-k-1x1-t.webp' });
    expect(feedMedia('v-k')).toEqual({
      kind: 'video',
      src: 'https://cdn.test/v-k-p.mp4',
      poster: 'https://cdn.test/v-k-t.webp',
    });
    // Legacy keys without a prefix are videos too.
    expect(feedMedia('abc123.mp4').kind).toBe('video');
  });

  it('keys are encoded, never able to leave the media base', () => {
    window.__BH_CONFIG__ = { mediaUrl: 'https://cdn.test/' };
    expect(mediaUrl('../../x', 'thumb')).toBe('https://cdn.test/..%2F..%2Fx-t.webp');
    expect(BLANK_IMAGE.startsWith('data:image/gif;base64,')).toBe(true);
  });
});
