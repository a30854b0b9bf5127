/** Hunter profiles and posts (issue 8): profile page, create post, edit profile, directory. */
import { ACCOUNT_MSG } from '@bountyhunt/shared/account';
import { PROFILE_MSG } from '@bountyhunt/shared/profiles';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import {
  gradientPng,
  hasFfmpeg,
  mediaAvailable,
  setPublicProfile,
  testVideo,
  upload,
  waitForMedia,
} from '../support/profiles';
import { activeMember, creator, mockApi, uniqueHandle } from '../support/session';

const b = useBrowser('profiles');
// Members with an active membership and handles are set up with SQL (support/db.ts).
const db = it.skipIf(!hasDatabase());
// Uploads go through the media pipeline (issue 4); its tests wait for POST /media/* to exist.
const media = await mediaAvailable();
const withMedia = it.skipIf(!hasDatabase() || !media);

async function ok<T>(p: Promise<{ status: number; data: T }>, what: string): Promise<T> {
  const res = await p;
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}`);
  return res.data;
}

/** A hunter with a picture, a banner, a stage name, a bio, one post and one voted claim. */
async function richHunter() {
  const h = await creator();
  await setPublicProfile(h.token, 'Nova Starling', 'Chasing light across rooftops.');
  const picture = await upload(
    h.token,
    gradientPng('picture', 400, 400, [8, 188, 227], [216, 62, 134]),
  );
  await ok(api('PUT', '/hunter/picture', { picture }, h.token), 'PUT /hunter/picture');
  const banner = await upload(
    h.token,
    gradientPng('banner', 1500, 500, [255, 201, 71], [8, 188, 227]),
  );
  await ok(api('PUT', '/hunter/banner', { banner }, h.token), 'PUT /hunter/banner');

  const m = await activeMember({ silver: 50 });
  const bounty = await ok(
    api<{ bountyId: number }>(
      'POST',
      '/bounty',
      { title: 'Sunset over the bay', seconds: 86_400 },
      m.token,
    ),
    'POST /bounty',
  );
  const media = await upload(
    h.token,
    gradientPng('claim', 800, 800, [227, 237, 68], [216, 62, 134]),
  );
  const claim = await ok(
    api<{ claimId: number }>(
      'POST',
      '/claim',
      { bountyId: bounty.bountyId, roundId: 1, media, multiple: true },
      h.token,
    ),
    'POST /claim',
  );
  await ok(api('POST', '/vote', { claimId: claim.claimId, votes: 3 }, m.token), 'POST /vote');
  const file = await upload(h.token, gradientPng('post', 900, 600));
  await ok(
    api('POST', '/post', { text: 'Hello from the roof', fileName: file }, h.token),
    'POST /post',
  );
  return { ...h, handle: h.handle!, claimId: claim.claimId, bountyId: bounty.bountyId };
}

describe('profile page', () => {
  withMedia(
    'shows banner, picture, names, bio, real stats and the merged feed with claim bars',
    async () => {
      const h = await richHunter();
      const viewer = await creator();
      const page = await b.page({ token: viewer.token });
      await page.goto(b.url(`/profile/${h.handle}`));
      await page.getByRole('heading', { name: h.handle, level: 1 }).waitFor();
      await page.getByText('Nova Starling').waitFor();
      await page.getByText('Chasing light across rooftops.').waitFor();
      const stats = page.getByTestId('profile-stats');
      expect((await stats.innerText()).replace(/\s+/g, ' ')).toBe('1 Post 1 Claim 3 Votes');
      await page.getByRole('img', { name: `Banner of ${h.handle}` }).waitFor();
      await page.getByRole('img', { name: `Picture of ${h.handle}` }).waitFor();
      // The viewer is not this hunter: no Edit or Post.
      expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);

      // Newest first: the post was made after the claim.
      const cards = page.locator('[data-testid="feed-post"], [data-testid="feed-claim"]');
      await cards.nth(1).waitFor();
      expect(await cards.nth(0).getAttribute('data-testid')).toBe('feed-post');
      await page.getByText('Hello from the roof').waitFor();
      const bar = page.getByTestId('claim-bar');
      expect((await bar.innerText()).replace(/\s+/g, ' ')).toMatch(/^1st 3 \d+m$/);
      // The progressive viewer ends on the full image for the banner.
      await page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="profile-banner"] img')
            ?.getAttribute('data-stage') === 'full',
      );
      await b.axe(page);
      await b.shot(page, 'profile');

      await page.getByRole('link', { name: /Claim on Sunset over the bay/ }).click();
      await page.waitForURL(`**/claim/${h.claimId}`);
    },
  );

  db('shows Edit and Post on the own profile at /profile, and blank defaults', async () => {
    const h = await creator();
    const page = await b.page({ token: h.token });
    await page.goto(b.url('/profile'));
    await page.getByRole('heading', { name: h.handle!, level: 1 }).waitFor();
    expect((await page.getByTestId('profile-stats').innerText()).replace(/\s+/g, ' ')).toBe(
      '0 Posts 0 Claims 0 Votes',
    );
    // No banner or picture yet: blank images, no broken <img>.
    expect(await page.getByTestId('profile-banner').locator('img').count()).toBe(0);
    expect(await page.getByTestId('profile-picture').locator('img').count()).toBe(0);
    await page.getByText('Nothing here yet. Share your first post.').waitFor();
    await b.axe(page);
    await b.shot(page, 'own-profile-empty');
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL('**/profile/edit');
    await page.goto(b.url('/profile'));
    await page.getByRole('main').getByRole('link', { name: 'Post', exact: true }).first().click();
    await page.waitForURL('**/profile/post');
  });

  db('answers an unknown handle with a clear not-found page', async () => {
    const viewer = await creator();
    const page = await b.page({ token: viewer.token });
    await page.goto(b.url('/profile/nosuchhunter99'));
    await page.getByRole('heading', { name: 'Hunter not found' }).waitFor();
    await page
      .getByText('No hunter goes by the handle “nosuchhunter99”.', { exact: false })
      .waitFor();
    await b.axe(page);
    await b.shot(page, 'profile-not-found');
    await page.getByRole('link', { name: 'Browse hunters' }).click();
    await page.waitForURL('**/hunters');
  });
});

describe('create post', () => {
  withMedia(
    'posts an image: preview, Upload Media, Body of 200 at most, Post → /profile',
    async () => {
      const h = await creator();
      const page = await b.page({ token: h.token });
      await page.goto(b.url('/profile/post'));
      await page.getByRole('heading', { name: 'Create Post' }).waitFor();
      const post = page.getByRole('button', { name: 'Post', exact: true });
      expect(await post.isDisabled()).toBe(true);
      await page.getByTestId('media-input').setInputFiles(gradientPng('image-post', 1024, 768));
      await page.getByRole('img', { name: 'Media preview' }).waitFor();
      await page.waitForFunction(
        () =>
          !(document.querySelector('button[type="submit"]') as HTMLButtonElement | null)?.disabled,
      );
      const body = page.getByLabel('Body');
      expect(await body.getAttribute('rows')).toBe('4');
      await body.fill('x'.repeat(250));
      expect((await body.inputValue()).length).toBe(200);
      await page.getByText('200/200').waitFor();
      await body.fill('Golden hour on the roof');
      await b.axe(page);
      await b.shot(page, 'create-post-image');
      await post.click();
      await page.waitForURL((u) => u.pathname === '/profile');
      await page.getByText('Golden hour on the roof').waitFor();
      expect((await page.getByTestId('profile-stats').innerText()).replace(/\s+/g, ' ')).toMatch(
        /^1 Post /,
      );
      await b.shot(page, 'profile-after-image-post');
    },
  );

  it.skipIf(!hasDatabase() || !hasFfmpeg() || !media)(
    'posts a video: inline preview, then the muted looping preview on the profile',
    async () => {
      const h = await creator();
      const page = await b.page({ token: h.token });
      await page.goto(b.url('/profile/post'));
      await page.getByTestId('media-input').setInputFiles(testVideo('video-post'));
      await page.getByLabel('Media preview').waitFor();
      expect(await page.locator('[data-testid="media-preview"] video').count()).toBe(1);
      await page.waitForFunction(
        () =>
          !(document.querySelector('button[type="submit"]') as HTMLButtonElement | null)?.disabled,
      );
      await page.getByLabel('Body').fill('Test pattern in motion');
      await b.shot(page, 'create-post-video');
      await page.getByRole('button', { name: 'Post', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/profile');
      await page.getByText('Test pattern in motion').waitFor();

      const posts = await api<{ file: string }[]>('GET', `/posts/${(await me(h.token)).hunterId}`);
      const key = posts.data[0]!.file;
      expect(key.startsWith('i-')).toBe(false);
      await waitForMedia(key);
      await page.reload();
      const video = page.locator('[data-testid="feed-post"] video');
      await video.waitFor();
      expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.loop, v.autoplay])).toEqual([
        true,
        true,
        true,
      ]);
      expect(await video.getAttribute('src')).toMatch(/-p\.mp4$/);
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid="feed-post"] video') as HTMLVideoElement)
            ?.readyState >= 2,
      );
      await b.shot(page, 'profile-after-video-post');
    },
  );

  withMedia('shows the SPEC.md message when posting fails, and Cancel goes back', async () => {
    const h = await creator();
    const page = await b.page({ token: h.token });
    await mockApi(page, 'POST', '/post', 500);
    await page.goto(b.url('/profile/post'));
    await page.getByTestId('media-input').setInputFiles(gradientPng('failing-post'));
    await page.waitForFunction(
      () =>
        !(document.querySelector('button[type="submit"]') as HTMLButtonElement | null)?.disabled,
    );
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText(PROFILE_MSG.postError(500)).waitFor();
    expect(PROFILE_MSG.postError(500)).toBe('Error updating profile code 500');
    await b.shot(page, 'create-post-error');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');

    // From a bounty, Cancel returns to that bounty.
    await page.goto(b.url('/bounty/post/42'));
    await page.getByRole('heading', { name: 'Create Post' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === '/bounty/42');
  });
});

async function me(token: string) {
  return (
    await ok(api<{ hunter: { hunterId: number } }>('GET', '/user', undefined, token), 'GET /user')
  ).hunter;
}

describe('edit profile', () => {
  withMedia('saves stage name, biography and banner through the account endpoints', async () => {
    const h = await creator();
    const page = await b.page({ token: h.token });
    await page.goto(b.url('/profile/edit'));
    await page.getByRole('heading', { name: 'Edit Profile' }).waitFor();
    expect(await page.getByLabel('Handle').inputValue()).toBe(h.handle);
    await page.getByLabel('Stage Name').fill('Rooftop Rex');
    await page.getByLabel('Biography').fill('I climb things for the view.');
    await page
      .locator('input[type=file]')
      .nth(1)
      .setInputFiles(gradientPng('edit-banner', 1500, 500));
    await page.getByRole('img', { name: 'Banner preview' }).waitFor();
    await page.waitForFunction(
      () =>
        !(document.querySelector('button[type="submit"]') as HTMLButtonElement | null)?.disabled,
    );
    await b.axe(page);
    await b.shot(page, 'edit-profile');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
    await page.getByText('Rooftop Rex').waitFor();
    await page.getByText('I climb things for the view.').waitFor();
    await page.getByRole('img', { name: `Banner of ${h.handle}` }).waitFor();
  });
  db('keeps the form with the SPEC.md message when the handle is taken', async () => {
    const taken = await creator();
    const h = await creator();
    const page = await b.page({ token: h.token });
    await page.goto(b.url('/profile/edit'));
    const handle = page.getByLabel('Handle');
    await handle.fill(`${taken.handle}!?`);
    // Letters and digits only, stripped as typed.
    expect(await handle.inputValue()).toBe(taken.handle);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(ACCOUNT_MSG.handleTaken).waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/edit');
    await page.getByLabel('Biography').fill('Only the bio this time.');
    await handle.fill(h.handle!);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
    await page.getByText(ACCOUNT_MSG.bioSuccess).waitFor();
  });
});

describe('hunters directory', () => {
  withMedia(
    'searches by handle or stage name, shows picture and stats, opens the profile',
    async () => {
      const tag = uniqueHandle('dir').slice(0, 9);
      const first = await creator({ handle: `${tag}amy` });
      await setPublicProfile(first.token, 'Moonlight Amy', 'Night shots only.');
      const picture = await upload(first.token, gradientPng('dir-picture', 300, 300));
      await ok(api('PUT', '/hunter/picture', { picture }, first.token), 'PUT /hunter/picture');
      const file = await upload(first.token, gradientPng('dir-post'));
      await ok(api('POST', '/post', { text: 'one', fileName: file }, first.token), 'POST /post');
      await creator({ handle: `${tag}bob` });

      const page = await b.page({ token: first.token });
      await page.goto(b.url('/creators'));
      await page.getByRole('heading', { name: 'Hunters', level: 1 }).waitFor();
      await page.getByLabel('Search hunters').fill(tag);
      const cards = page.getByTestId('hunter-card');
      await page.waitForFunction(
        (t) =>
          [...document.querySelectorAll('[data-testid="hunter-card"]')].every((c) =>
            c.textContent?.includes(t),
          ) && document.querySelectorAll('[data-testid="hunter-card"]').length === 2,
        tag,
      );
      expect(await cards.nth(0).innerText()).toContain(`${tag}amy`);
      expect(await cards.nth(0).getByTestId('hunter-stats').innerText()).toBe(
        '1 post · 0 claims · 0 votes',
      );
      expect(await cards.nth(0).locator('img').count()).toBe(1);
      await b.axe(page);
      await b.shot(page, 'hunters');

      await page.getByLabel('Search hunters').fill('moonlight');
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="hunter-card"]').length === 1,
      );
      expect(page.url()).toContain('q=moonlight');
      await cards.first().click();
      await page.waitForURL(`**/profile/${tag}amy`);
      await page.getByText('Moonlight Amy').waitFor();

      await page.goto(b.url('/hunters?q=zzznohunter'));
      await page.getByText('No hunter matches “zzznohunter”.').waitFor();
    },
  );
});
