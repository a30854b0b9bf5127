/**
 * Media in the browser: the upload component (preview, progress, errors) and the display
 * components (SPEC.md §2 "Feed rendering" and the progressive image viewer), on /upload.
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_MSG } from '@bountyhunt/shared/media';
import { registerMember } from '../support/api';
import { useBrowser } from '../support/browser';
import { jpegFile, mp4File } from '../support/media';

const b = useBrowser('media');

describe('media upload and display', () => {
  it('uploads an image: thumbnail in the feed tile, then the full image in the viewer', async () => {
    const u = await registerMember();
    const page = await b.page({ token: u.token });
    await page.goto(b.url('/upload'));
    await page.getByRole('heading', { name: 'Upload Media' }).waitFor();
    await page.getByTestId('media-file-input').setInputFiles(await jpegFile());
    // The chosen file is previewed before the server answers.
    await expect.poll(() => page.getByAltText('Selected image preview').count()).toBe(1);

    const key = (await page.getByTestId('uploaded-key').textContent({ timeout: 30_000 }))!;
    expect(key).toMatch(/^i-[a-z0-9]{20}-1600x1200$/);
    const tile = page.getByAltText('Uploaded media in the feed');
    expect(await tile.getAttribute('src')).toMatch(new RegExp(`/media/${key}-t\\.webp$`));
    await expect.poll(() => tile.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(500);

    const viewer = page.getByAltText('Uploaded image, full size');
    await expect.poll(() => viewer.getAttribute('data-stage'), { timeout: 15_000 }).toBe('full');
    expect(await viewer.getAttribute('src')).toMatch(new RegExp(`/media/${key}-f\\.webp$`));
    await expect
      .poll(() => viewer.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(1600);

    await b.shot(page, 'image-uploaded');
    await b.axe(page);
  }, 60_000);

  it('uploads a video: processing, then a muted, looping, autoplaying inline preview', async () => {
    const u = await registerMember();
    const page = await b.page({ token: u.token });
    await page.goto(b.url('/upload'));
    await page.getByTestId('media-file-input').setInputFiles(mp4File());
    const key = (await page.getByTestId('uploaded-key').textContent({ timeout: 30_000 }))!;
    expect(key).toMatch(/^v-[a-z0-9]{20}$/);

    const tile = page.locator(`[data-testid=uploaded] [data-media-kind=video]`);
    await expect
      .poll(() => tile.getAttribute('data-media-status'), { timeout: 60_000 })
      .toBe('ready');
    const video = tile.locator('video');
    expect(await video.getAttribute('src')).toMatch(new RegExp(`/media/${key}-p\\.mp4$`));
    expect(await video.getAttribute('poster')).toMatch(new RegExp(`/media/${key}-t\\.webp$`));
    const props = await video.evaluate((v: HTMLVideoElement) => ({
      muted: v.muted,
      loop: v.loop,
      autoplay: v.autoplay,
      playsInline: v.playsInline,
    }));
    expect(props).toEqual({ muted: true, loop: true, autoplay: true, playsInline: true });
    // It really plays (Chromium decodes the H.264 preview).
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth), {
        timeout: 20_000,
      })
      .toBe(640);

    await b.shot(page, 'video-ready');
    await b.axe(page);
  }, 120_000);

  it('says clearly why a file is refused, in the browser and by the server', async () => {
    const u = await registerMember();
    const page = await b.page({ token: u.token });
    await page.goto(b.url('/upload'));
    const input = page.getByTestId('media-file-input');

    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(MEDIA_MSG.imageType);

    // Claims to be a PNG; the server reads the bytes and refuses it (415).
    await input.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not really a png'),
    });
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain(MEDIA_MSG.imageType);
    expect(await page.getByTestId('uploaded').count()).toBe(0);
    // The refused file is not left on screen as if it would be posted.
    expect(await page.getByTestId('media-preview').count()).toBe(0);
    await b.shot(page, 'refused');
  }, 60_000);
});
