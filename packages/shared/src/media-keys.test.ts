import { describe, expect, it } from 'vitest';
import { imageKeySize, isImageKey } from './media-keys';

describe('media keys', () => {
  it('tells images from videos', () => {
    expect(isImageKey('i-abc-10x20')).toBe(true);
    expect(isImageKey('v-abc')).toBe(false);
  });

  it('reads the pixel size an image key carries', () => {
    expect(imageKeySize('i-0f3a9c-1200x900')).toEqual({ width: 1200, height: 900 });
    expect(imageKeySize('i-0f3a9c')).toBeNull();
    expect(imageKeySize('v-0f3a9c-640x360')).toBeNull();
    expect(imageKeySize('i-0f3a9c-0x900')).toBeNull();
  });
});
