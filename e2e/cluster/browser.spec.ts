/**
 * A visitor through nginx, in Chromium: signs in, sees the feed, opens a bounty, opens a claim
 * and votes; the page's API calls go to /api on the same origin, spread over both instances.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { gradientPng, upload } from '../support/profiles';
import { activeMember, creator } from '../support/session';
import { clusterFile, FRONT, INSTANCES } from './support';

const b = useBrowser('cluster');

describe('the web app through nginx', () => {
  it('sign in, the feed, a bounty, a claim, a vote', async () => {
    const poster = await activeMember();
    const hunter = await creator();
    const voter = await activeMember({ silver: 50 });
    const title = `Cluster lighthouse ${Date.now().toString(36)}`;
    const posted = await api<{ bountyId: number }>(
      'POST',
      '/bounty',
      { title, seconds: 86_400 },
      poster.token,
    );
    expect(posted.status).toBe(200);
    const key = await upload(hunter.token, gradientPng('cluster-lighthouse', 600, 600));
    const claim = await api<{ claimId: number }>(
      'POST',
      '/claim',
      { bountyId: posted.data.bountyId, roundId: 1, media: key, multiple: true },
      hunter.token,
    );
    expect(claim.status).toBe(200);

    const page = await b.page();
    const apiCalls: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/')) apiCalls.push(req.url());
    });
    await page.goto(b.url('/login'));
    await page.getByLabel('Email').fill(voter.email);
    await page.getByLabel('Password').fill(voter.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    // The feed lists the bounty; its claim's thumbnail comes from /media/ (the bucket).
    const card = page.getByTestId('bounty-card').filter({ hasText: title });
    await card.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => card.getByTestId('claim-tile').locator('img').first().getAttribute('src'))
      .toBe(`/media/${key}-t.webp`);
    await card.getByTestId('bounty-title-bar').click();
    await page.waitForURL(`**/bounty/${posted.data.bountyId}`);
    await page.getByTestId('claim-tile').first().click();
    await page.waitForURL(`**/claim/${claim.data.claimId}`);
    const bar = page.getByTestId('vote-bar');
    await bar.waitFor();
    await bar.locator('label', { hasText: '4 stars' }).click();
    await expect.poll(() => bar.getAttribute('data-voted')).toBe('4');
    await b.shot(page, 'claim-voted');

    // The vote is stored (read through nginx, whichever instance answers).
    await expect
      .poll(
        async () =>
          (await api<{ votes: number }>('GET', `/claim/${claim.data.claimId}`)).data.votes,
      )
      .toBe(4);

    // Every API call of the page went to this origin's /api, and nginx used both instances.
    expect(apiCalls.length).toBeGreaterThan(3);
    expect(apiCalls.every((u) => u.startsWith(`${FRONT}/api/`))).toBe(true);
    const upstreams = new Set(
      [
        ...clusterFile('nginx/logs/bountyhunt.access.log').matchAll(/upstream=(127\.0\.0\.1:\d+)/g),
      ].map((m) => m[1]),
    );
    for (const instance of INSTANCES) expect(upstreams).toContain(new URL(instance).host);
  });
});
