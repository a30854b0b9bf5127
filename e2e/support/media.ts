/** Media files for browser tests, from the one test media module (no binary fixtures in the repo). */
import fs from 'node:fs';
import { makeVideo, photo, tmpFile } from '../../apps/api/test/media-fixtures';

/** A 1600×1200 JPEG photo-like picture. */
export async function jpegFile(): Promise<string> {
  const file = tmpFile('photo.jpg');
  fs.writeFileSync(file, await photo(1600, 1200, 'jpeg'));
  return file;
}

/** A 3-second 640×360 H.264 MP4 with sound (the preview must come out muted). */
export function mp4File(): string {
  const file = tmpFile('clip.mp4');
  makeVideo(file, { seconds: 3, size: '640x360' });
  return file;
}
