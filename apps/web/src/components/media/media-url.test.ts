import { afterEach, describe, expect, it } from 'vitest';
import { mediaUrl } from './media-url';

afterEach(() => {
  delete window.__BH_CONFIG__;
});

describe('media URLs (CONTRACT.md "Media")', () => {
  it('defaults to the API address + /media/', () => {
    window.__BH_CONFIG__ = { apiUrl: 'http://api.test:5052' };
    expect(mediaUrl('i-abc-10x10', 'thumb')).toBe('http://api.test:5052/media/i-abc-10x10-t.webp');
    expect(mediaUrl('i-abc-10x10', 'full')).toBe('http://api.test:5052/media/i-abc-10x10-f.webp');
  });

  it('uses MEDIA_URL when configured, with or without a trailing slash', () => {
    window.__BH_CONFIG__ = { apiUrl: 'http://api.test', mediaUrl: 'https://cdn.test/m' };
    expect(mediaUrl('v-x', 'preview')).toBe('https://cdn.test/m/v-x-p.mp4');
  });

  it('keys are encoded, never able to leave the media base', () => {
    window.__BH_CONFIG__ = { mediaUrl: 'https://cdn.test/' };
    expect(mediaUrl('../../x', 'thumb')).toBe('https://cdn.test/..%2F..%2Fx-t.webp');
  });
});
