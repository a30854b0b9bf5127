/** Bounties, rounds, claims and votes (issue 7): post, claim, vote, find by search. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase, sql } from '../support/db';
import { API_URL } from '../support/env';
import { activeMember, creator, mockApi } from '../support/session';

const b = useBrowser('bounties');
const db = it.skipIf(!hasDatabase());
// Claims need the media feature's uploads (POST /media/image answers 401, not 404, when present).
const mediaReady =
  (await fetch(`${API_URL}/media/image`, { method: 'POST' }).catch(() => null))?.status !== 404;
const withMedia = it.skipIf(!hasDatabase() || !mediaReady);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-e2e-bounties-'));
const IMAGE = path.join(tmp, 'sunset.png');
const VIDEO = path.join(tmp, 'clip.mp4');
/** A word no other spec uses, so search finds exactly this run's bounties. */
const WORD = `zq${Date.now().toString(36)}`;

beforeAll(async () => {
  // A 640×400 gradient, so the screenshots show a real picture.
  const w = 640;
  const h = 400;
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      px[i] = 216 - Math.round((y / h) * 120);
      px[i + 1] = 62 + Math.round((x / w) * 140);
      px[i + 2] = 134 + Math.round((y / h) * 100);
    }
  await sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toFile(IMAGE);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=15',
    '-pix_fmt',
    'yuv420p',
    '-y',
    VIDEO,
  ]);
});

async function postBountyApi(token: string, title: string, amount = 0): Promise<number> {
  const res = await api<{ bountyId: number }>(
    'POST',
    '/bounty',
    { title, seconds: 24 * 3600, amount },
    token,
  );
  if (res.status !== 200) throw new Error(`POST /bounty answered ${res.status}`);
  return res.data.bountyId;
}

/** Shared across the tests of the main flow (they run in order). */
const flow: {
  poster?: Awaited<ReturnType<typeof activeMember>>;
  hunter?: Awaited<ReturnType<typeof creator>>;
  bountyId?: number;
  imageClaim?: number;
  videoClaim?: number;
  title?: string;
} = {};

describe('the bounty loop', () => {
  db('a member posts a bounty with the form (§8 messages, silver held)', async () => {
    flow.poster = await activeMember({ silver: 50 });
    const page = await b.page({ token: flow.poster.token });
    await page.goto(b.url('/bounty/create'));
    await page.getByRole('heading', { name: 'Create a Bounty' }).waitFor();
    // 24 hrs is the default duration, Pictures the default media type.
    expect(await page.getByRole('button', { name: '24 hrs' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await page.getByRole('button', { name: 'Pictures' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    for (const label of ['8 hrs', '7 days', '30 days', 'Shorts', 'Videos'])
      await page.getByRole('button', { name: label }).waitFor();

    await page.getByRole('button', { name: 'Post Bounty' }).click();
    expect(await page.getByTestId('bounty-error').textContent()).toBe('Title cannot be blank');
    await b.axe(page);
    await b.shot(page, 'create');

    flow.title = `Neon skyline ${WORD}`;
    await page.getByLabel('Title').fill(flow.title);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.getByLabel('Silver prize (optional)').fill('10');
    let sent: unknown;
    page.on('request', (req) => {
      if (req.url().endsWith('/bounty') && req.method() === 'POST') sent = req.postDataJSON();
    });
    await page.getByRole('button', { name: 'Post Bounty' }).click();
    await page.waitForURL(/\/bounty\/\d+$/);
    expect(sent).toEqual({ title: flow.title, seconds: 7 * 24 * 3600, mediaType: 1, amount: 10 });
    flow.bountyId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: flow.title }).waitFor();
    await page.getByText('Prize: 10 silver').waitFor();
    expect(await page.getByTestId('round-status').textContent()).toMatch(/^Active · ends /);
    // The held amount left the poster's balance.
    await page.waitForFunction(
      () => document.querySelector('[data-testid=status-silver]')?.textContent === '40 silver',
    );
  });

  db('a failed post shows Error posting bounty ({status})', async () => {
    const page = await b.page({ token: flow.poster!.token });
    await mockApi(page, 'POST', '/bounty', 500);
    await page.goto(b.url('/bounty/create'));
    await page.getByLabel('Title').fill('Will fail');
    await page.getByRole('button', { name: 'Post Bounty' }).click();
    expect(await page.getByTestId('bounty-error').textContent()).toBe('Error posting bounty (500)');
  });

  withMedia('a hunter claims it with an image and with a video', async () => {
    flow.hunter = await creator();
    const page = await b.page({ token: flow.hunter.token });
    await page.goto(b.url(`/bounty/${flow.bountyId}`));
    await page.getByRole('button', { name: 'Add Claim' }).waitFor();
    await page.getByTestId('claim-file').setInputFiles(IMAGE);
    const dialog = page.getByRole('dialog', { name: 'Post Claim' });
    await dialog.waitFor();
    await dialog.getByRole('img', { name: 'Your claim' }).waitFor();
    const post = dialog.getByRole('button', { name: 'Post' });
    await page.waitForFunction(
      () =>
        !(
          [...document.querySelectorAll('[role=dialog] button')].find(
            (el) => el.textContent === 'Post',
          ) as HTMLButtonElement | undefined
        )?.disabled,
    );
    // Let the dialog's fade-in finish: axe blends half-transparent colours mid-transition.
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('.MuiDialog-container')!).opacity === '1',
    );
    await page.mouse.move(0, 0);
    await b.axe(page);
    await b.shot(page, 'post-claim-dialog');
    // Full screen at 375px (once the media query has answered and the dialog re-rendered).
    await page.setViewportSize({ width: 375, height: 740 });
    await expect
      .poll(async () => (await page.locator('.MuiDialog-paper').boundingBox())?.width)
      .toBe(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await post.click();
    await page.waitForURL(/\/claim\/\d+$/);
    flow.imageClaim = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('claim-media').waitFor();
    expect(await page.getByTestId('claim-bounty').textContent()).toBe(flow.title);
    expect(await page.getByTestId('claim-date').textContent()).toBe('0m');
    expect(await page.getByTestId('claim-rank').textContent()).toBe('1st');
    // The image's full-size WebP loads.
    await page.waitForFunction(() => {
      const img = document.querySelector('img[data-testid=claim-media]') as HTMLImageElement;
      return img?.complete && img.naturalWidth > 0;
    });

    await page.goto(b.url(`/bounty/${flow.bountyId}`));
    await page.getByTestId('claim-file').setInputFiles(VIDEO);
    await dialog.waitFor();
    await page.waitForFunction(
      () =>
        !(
          [...document.querySelectorAll('[role=dialog] button')].find(
            (el) => el.textContent === 'Post',
          ) as HTMLButtonElement | undefined
        )?.disabled,
    );
    await post.click();
    await page.waitForURL(/\/claim\/\d+$/);
    flow.videoClaim = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await page.getByTestId('claim-rank').textContent()).toBe('2nd');

    await page.goto(b.url(`/bounty/${flow.bountyId}`));
    await page.getByText('2 claims').waitFor();
    expect(await page.getByTestId('claim-tile').count()).toBe(2);
    await b.shot(page, 'bounty');
  });

  withMedia('a failed claim post shows Error posting claim: {status} in the dialog', async () => {
    const page = await b.page({ token: flow.hunter!.token });
    await mockApi(page, 'POST', '/claim', 409);
    await page.goto(b.url(`/bounty/${flow.bountyId}`));
    await page.getByTestId('claim-file').setInputFiles(IMAGE);
    const dialog = page.getByRole('dialog', { name: 'Post Claim' });
    await page.waitForFunction(
      () =>
        !(
          [...document.querySelectorAll('[role=dialog] button')].find(
            (el) => el.textContent === 'Post',
          ) as HTMLButtonElement | undefined
        )?.disabled,
    );
    await dialog.getByRole('button', { name: 'Post' }).click();
    expect(await dialog.getByTestId('claim-error').textContent()).toBe('Error posting claim: 409');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Members have no Add Claim button.
    const member = await b.page({ token: flow.poster!.token });
    await member.goto(b.url(`/bounty/${flow.bountyId}`));
    await member.getByRole('heading', { name: flow.title }).waitFor();
    expect(await member.getByRole('button', { name: 'Add Claim' }).count()).toBe(0);
  });

  withMedia('members vote: the bar locks, votes, rank and the status bar update', async () => {
    const voter = await activeMember({ silver: 10 });
    const page = await b.page({ token: voter.token });
    await page.goto(b.url(`/claim/${flow.videoClaim}`));
    const bar = page.getByTestId('vote-bar');
    await bar.waitFor();
    expect(await page.getByTestId('claim-rank').textContent()).toBe('2nd');
    await b.axe(page, { exclude: ['video'] });
    await b.shot(page, 'claim-before-vote');
    await bar.locator('label', { hasText: '4 stars' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=vote-bar]')?.getAttribute('data-voted') === '4',
    );
    // Reloaded claim and user: 4 votes, rank 1st, 6 silver and 4 votes in the status bar.
    await page.waitForFunction(
      () => document.querySelector('[data-testid=claim-rank]')?.textContent === '1st',
    );
    expect(await page.getByTestId('claim-votes').textContent()).toBe('4');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=status-silver]')?.textContent === '6 silver',
    );
    expect(await page.getByTestId('status-votes').first().textContent()).toBe('4 votes');
    await bar.getByText('Your vote').waitFor();
    await b.shot(page, 'claim-voted');

    // Locked after a reload too: the earlier vote comes from GET /vote/{id}.
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=vote-bar]')?.getAttribute('data-voted') === '4',
    );
    expect(await page.locator('[data-testid=vote-bar] input[type=radio]').count()).toBe(0);

    // A second member votes on the image: 2 votes, still 2nd.
    const other = await activeMember({ silver: 10 });
    const page2 = await b.page({ token: other.token });
    await page2.goto(b.url(`/claim/${flow.imageClaim}`));
    await page2.getByTestId('vote-bar').locator('label', { hasText: '2 stars' }).click();
    await page2.waitForFunction(
      () => document.querySelector('[data-testid=claim-votes]')?.textContent === '2',
    );
    expect(await page2.getByTestId('claim-rank').textContent()).toBe('2nd');

    // The hunter may not vote: the bar says why, and its stars are one image labelled "No vote".
    const hunter = await b.page({ token: flow.hunter!.token });
    await hunter.goto(b.url(`/claim/${flow.imageClaim}`));
    const locked = hunter.getByTestId('vote-bar');
    await locked.getByText('Only members vote on claims.').waitFor();
    expect(await locked.getByRole('img').getAttribute('aria-label')).toBe('No vote');
    expect(await locked.locator('input[type=radio]').count()).toBe(0);
  });

  withMedia('the feed and search find it, with the claims grid and vote counts', async () => {
    const page = await b.page({ token: flow.poster!.token });
    const assets: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/assets/')) assets.push(r.url());
    });
    await page.goto(b.url(`/?q=${encodeURIComponent(WORD.slice(0, -2))}`));
    const card = page.getByTestId('bounty-card').filter({ hasText: flow.title! });
    await card.waitFor();
    // Each file comes once: the chunk loader reuses what the page preloaded early (a preload in
    // another credentials mode is not reused, and the feed's stylesheet came twice).
    expect(assets.filter((u, i) => assets.indexOf(u) !== i)).toEqual([]);
    expect(assets.some((u) => u.endsWith('.css'))).toBe(true);
    expect(await card.getByTestId('claim-tile').count()).toBe(2);
    const tiles = card.getByTestId('claim-tile');
    // Ranked: the video (4 votes) first, then the image (2 votes).
    expect(await tiles.nth(0).textContent()).toBe('4');
    expect(await tiles.nth(0).locator('video').getAttribute('src')).toMatch(/-p\.mp4$/);
    // Tiles below the first card load when scrolled near, once the first screen has settled.
    await expect.poll(() => tiles.nth(1).locator('img').getAttribute('src')).toMatch(/-t\.webp$/);
    await b.axe(page, { exclude: ['video'] });
    await b.shot(page, 'feed-search');
    await card.getByTestId('bounty-title-bar').click();
    await page.waitForURL(`**/bounty/${flow.bountyId}`);

    // The search dialog gets there too.
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('Search bounties').fill(`neon ${WORD}`);
    await page.getByLabel('Search bounties').press('Enter');
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('q') === `neon ${WORD}`);
    await page.getByTestId('bounty-card').filter({ hasText: flow.title! }).waitFor();
  });

  withMedia('an inactive round shows no vote bar', async () => {
    await sql(`UPDATE rounds SET end_date = now() - interval '1 minute' WHERE bounty_id = $1`, [
      flow.bountyId,
    ]);
    const voter = await activeMember({ silver: 10 });
    const page = await b.page({ token: voter.token });
    // The end date was moved behind the product's back (rounds never change their end), so the
    // claim page the API keeps (PAGE_CACHE_MS, 10 s; decision 0021) may show it only then, or
    // one read later (a page past its time is answered while it is rebuilt).
    await expect
      .poll(
        async () => {
          await page.goto(b.url(`/claim/${flow.imageClaim}`));
          await page.getByTestId('claim-media').waitFor();
          return page.getByTestId('round-status').textContent();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toMatch(/^Inactive · ended /);
    expect(await page.getByTestId('vote-bar').count()).toBe(0);
  });
});

describe('feed', () => {
  db('loads more bounties as the user scrolls', async () => {
    const m = await activeMember({ silver: 0 });
    const word = `${WORD}more`;
    for (let i = 0; i < 11; i++) await postBountyApi(m.token, `Scroll ${word} number ${i}`);
    const page = await b.page({ token: m.token, viewport: { width: 375, height: 740 } });
    const bodies: { cursor?: string; limit?: number }[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/bounty/search') && req.method() === 'POST')
        bodies.push(req.postDataJSON());
    });
    await page.goto(b.url(`/?q=${word}`));
    await page.getByTestId('bounty-card').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=bounty-card]').length === 11,
    );
    // Two pages: 8, then the rest from the x-next-cursor of the first.
    expect(bodies.map((x) => [x.limit, typeof x.cursor])).toEqual([
      [8, 'undefined'],
      [8, 'string'],
    ]);
    expect(await page.getByText('Load more').count()).toBe(0);
    // Newest first among equally relevant titles.
    expect(await page.getByTestId('bounty-card').first().textContent()).toContain('number 10');
  });

  db('shows Error loading bounties: {status} when the search fails', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    await mockApi(page, 'POST', '/bounty/search', 503);
    await page.goto(b.url('/'));
    expect(await page.getByTestId('feed-error').textContent()).toBe('Error loading bounties: 503');
    await b.shot(page, 'feed-error');
  });

  withMedia('claim pages cache their bounty search in session storage (e-{claimId})', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    let searches = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/bounty/search')) searches++;
    });
    await page.goto(b.url(`/claim/${flow.imageClaim}`));
    await page.getByText('More bounties').waitFor();
    await page.getByTestId('bounty-feed').waitFor();
    expect(searches).toBe(1);
    const cached = await page.evaluate((id) => sessionStorage.getItem(`e-${id}`), flow.imageClaim);
    expect(JSON.parse(cached!)).toHaveProperty('at');
    await page.reload();
    await page.getByTestId('bounty-feed').waitFor();
    expect(searches).toBe(1);
  });

  db('an unknown bounty or claim shows the §8 load messages', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/bounty/999999'));
    expect(await page.getByTestId('bounty-load-error').textContent()).toBe(
      'Error loading bounty: 404',
    );
    await page.goto(b.url('/claim/999999'));
    expect(await page.getByTestId('snackbar').textContent()).toBe('Error loading claim: 404');
  });
});
