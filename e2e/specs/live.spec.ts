/**
 * Live features (issue 19) in two browsers at once: direct messages with the unread badge,
 * replies and "Seen" arriving without reload; vote tallies moving on an open bounty page; the
 * bell counting a new claim's notification; the notification settings; the two-screen phone
 * layout of /message.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { expectNoSideScroll, PHONE, useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import { gradientPng, mediaAvailable, upload } from '../support/profiles';
import { activeMember, creator } from '../support/session';

const b = useBrowser('live');
const db = it.skipIf(!hasDatabase());
const media = await mediaAvailable();
const withMedia = it.skipIf(!hasDatabase() || !media);

async function ok<T>(p: Promise<{ status: number; data: T }>, what: string): Promise<T> {
  const res = await p;
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}`);
  return res.data;
}

/** The tab's live stream is open (lib/live/connection.ts marks `<html data-live="open">`). */
async function liveOpen(page: Page) {
  await page.locator('html[data-live="open"]').waitFor({ state: 'attached', timeout: 15_000 });
}

/** The badge's number, '' when there is none. */
async function badge(page: Page, testId: 'messages-badge' | 'notification-badge') {
  const el = page.getByTestId(testId).locator('.MuiBadge-badge');
  return (await el.count()) ? ((await el.textContent()) ?? '') : '';
}

async function postBounty(token: string, title: string) {
  return ok(
    api<{ bountyId: number }>('POST', '/bounty', { title, seconds: 86_400 }, token),
    'POST /bounty',
  );
}

async function postClaim(token: string, bountyId: number, name: string) {
  const key = await upload(token, gradientPng(name, 600, 600));
  return ok(
    api<{ claimId: number }>(
      'POST',
      '/claim',
      { bountyId, roundId: 1, media: key, multiple: true },
      token,
    ),
    'POST /claim',
  );
}

describe('live', () => {
  db(
    'a member and a hunter message each other live: badge, reply, Seen',
    async () => {
      const hunter = await creator();
      const member = await activeMember();

      const h = await b.page({ token: hunter.token });
      await h.goto(b.url('/'));
      await h.getByRole('navigation', { name: 'Main' }).waitFor();
      await liveOpen(h);
      await expect.poll(() => badge(h, 'messages-badge')).toBe('');

      // The member starts from the hunter's profile.
      const m = await b.page({ token: member.token });
      await m.goto(b.url(`/profile/${hunter.handle}`));
      await m.getByTestId('message-hunter').click();
      await m.waitForURL(/\/message\/\d+$/);
      await m.getByTestId('thread').waitFor();
      await b.axe(m);
      await m.getByTestId('message-text').fill('Hello hunter, love your work!');
      await expect.poll(() => m.getByTestId('message-counter').textContent()).toBe('29/1000');
      await m.getByTestId('message-text').press('Enter');
      await m.getByTestId('message').filter({ hasText: 'Hello hunter' }).waitFor();
      await expect.poll(() => m.getByTestId('message-text').inputValue()).toBe('');
      await expect
        .poll(() => m.getByTestId('message').first().getAttribute('data-mine'))
        .toBe('true');

      // The hunter's badge counts it without a reload.
      await expect.poll(() => badge(h, 'messages-badge'), { timeout: 10_000 }).toBe('1');

      // The member leaves for the home page; the hunter opens the conversation and replies.
      await m.goto(b.url('/'));
      await m.getByRole('navigation', { name: 'Main' }).waitFor();
      await liveOpen(m);
      await h.getByRole('link', { name: /Messages/ }).click();
      const item = h.getByTestId('conversation').first();
      await expect.poll(() => item.getAttribute('data-unread')).toBe('1');
      await item.click();
      await h.getByTestId('message').filter({ hasText: 'Hello hunter' }).waitFor();
      await expect.poll(() => badge(h, 'messages-badge')).toBe('');
      await h.getByTestId('message-text').fill('Thanks!\nWhat would you like to see?');
      await h.getByTestId('message-send').click();
      await h.getByTestId('message').filter({ hasText: 'What would you like' }).waitFor();

      // The member's badge, then the reply in the thread, and the hunter's "Seen".
      await expect.poll(() => badge(m, 'messages-badge'), { timeout: 10_000 }).toBe('1');
      await m.getByRole('link', { name: /Messages/ }).click();
      await m.getByTestId('conversation').first().click();
      await m.getByTestId('message').filter({ hasText: 'What would you like' }).waitFor();
      // "Seen" under the member's message: the hunter read it.
      await m.getByTestId('seen').waitFor();
      // And under the hunter's reply once the member has it open.
      await h.getByTestId('seen').waitFor({ timeout: 10_000 });

      // A further message arrives in the open thread without reload.
      await liveOpen(m);
      await h.getByTestId('message-text').fill('Sunsets, maybe?');
      await h.getByTestId('message-text').press('Enter');
      await m.getByTestId('message').filter({ hasText: 'Sunsets, maybe?' }).waitFor();
      await m.screenshot({ path: '/tmp/live-messages-desktop.png' });
      await b.shot(m, 'messages');
      await b.axe(h);

      // The member reports one of the hunter's messages.
      await m.getByTestId('report-message').first().click();
      const dialog = m.getByTestId('report-dialog');
      await dialog.getByTestId('report-reason').click();
      await m.getByTestId('report-reason-harassment').click();
      await dialog.getByTestId('report-submit').click();
      await m.getByText('Thanks, your report was sent to our moderators.').waitFor();
      await dialog.waitFor({ state: 'detached' });

      // Block from the menu: the form is disabled; unblocking brings it back.
      await m.getByTestId('thread-menu').click();
      await m.getByTestId('block-toggle').click();
      await m.getByTestId('blocked-note').waitFor();
      expect(await m.getByTestId('message-send').isDisabled()).toBe(true);
      await m.getByTestId('thread-menu').click();
      await m.getByTestId('block-toggle').click();
      await m.getByTestId('blocked-note').waitFor({ state: 'detached' });
    },
    120_000,
  );

  withMedia('a vote in one browser moves the tally on the bounty page in another', async () => {
    const poster = await activeMember();
    const first = await creator();
    const second = await creator();
    const voter = await activeMember({ silver: 50 });
    const bounty = await postBounty(poster.token, 'Best rooftop view');
    const a = await postClaim(first.token, bounty.bountyId, 'roof-a');
    const c = await postClaim(second.token, bounty.bountyId, 'roof-b');

    const watcher = await b.page({ token: poster.token });
    await watcher.goto(b.url(`/bounty/${bounty.bountyId}`));
    await watcher.getByTestId('claim-tile').first().waitFor();
    await liveOpen(watcher);
    const order = () =>
      watcher
        .getByTestId('claim-tile')
        .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    const firstOrder = await order();
    expect(firstOrder).toHaveLength(2);
    // The later claim (ranked second) gets the votes: it moves up.
    const later = firstOrder[1] === `/claim/${c.claimId}` ? c : a;
    const tile = watcher.locator(`[data-testid="claim-tile"][href="/claim/${later.claimId}"]`);

    const v = await b.page({ token: voter.token });
    await v.goto(b.url(`/claim/${later.claimId}`));
    await v.getByTestId('vote-bar').waitFor();
    await v.getByTestId('vote-bar').locator('label', { hasText: '4 stars' }).click();
    await expect.poll(() => v.getByTestId('vote-bar').getAttribute('data-voted')).toBe('4');

    await expect
      .poll(() => tile.locator('.bh-media-votes').textContent(), { timeout: 10_000 })
      .toBe('4');
    await expect.poll(order).toEqual([`/claim/${later.claimId}`, firstOrder[0]]);
  });

  withMedia('the bell counts a new claim on the member’s bounty', async () => {
    const member = await activeMember();
    const hunter = await creator();
    const bounty = await postBounty(member.token, 'Neon signs at night');

    const m = await b.page({ token: member.token });
    await m.goto(b.url('/'));
    await m.getByRole('navigation', { name: 'Main' }).waitFor();
    await liveOpen(m);
    await expect.poll(() => badge(m, 'notification-badge')).toBe('');

    await postClaim(hunter.token, bounty.bountyId, 'neon');
    await expect.poll(() => badge(m, 'notification-badge'), { timeout: 10_000 }).toBe('1');

    await m.getByTestId('notification-bell').click();
    await m.waitForURL('**/notifications');
    const row = m.getByTestId('notification').first();
    await row.waitFor();
    expect(await row.getAttribute('data-read')).toBe('false');
    await m.screenshot({ path: '/tmp/live-notifications.png' });
    await b.shot(m, 'notifications');
    await b.axe(m);
    await m.getByTestId('mark-all-read').click();
    await expect.poll(() => row.getAttribute('data-read')).toBe('true');
    await expect.poll(() => badge(m, 'notification-badge')).toBe('');
    // A click follows the link (the bounty).
    await row.click();
    await m.waitForURL(/\/(bounty|claim)\/\d+$/);
  });

  db('the notification settings save a switch', async () => {
    const member = await activeMember();
    const m = await b.page({ token: member.token });
    await m.goto(b.url('/account'));
    await m.getByTestId('row-notifications').click();
    await m.waitForURL('**/account/notifications');
    const sw = m.getByTestId('switch-claim_new-email');
    await sw.waitFor();
    // Before the snackbar: axe reads its fade-in as low contrast.
    await b.axe(m);
    const before = await sw.isChecked();
    await sw.click();
    await m.getByTestId('notification-settings-save').click();
    await m.getByText('Your notification settings were saved.').waitFor();
    await m.screenshot({ path: '/tmp/live-settings.png', fullPage: true });
    await b.shot(m, 'settings');
    await m.reload();
    await m.getByTestId('switch-claim_new-email').waitFor();
    expect(await m.getByTestId('switch-claim_new-email').isChecked()).toBe(!before);
  });

  db('on a phone, the list and the thread are two screens', async () => {
    const hunter = await creator();
    const member = await activeMember();
    const conv = await ok(
      api<{ conversationId: number }>(
        'POST',
        '/conversations',
        { handle: hunter.handle },
        member.token,
      ),
      'POST /conversations',
    );
    await ok(
      api(
        'POST',
        `/conversations/${conv.conversationId}/messages`,
        { text: 'Hi from a phone' },
        member.token,
      ),
      'POST message',
    );

    const h = await b.page({ token: hunter.token, viewport: PHONE });
    await h.goto(b.url('/message'));
    const item = h.getByTestId('conversation').first();
    await item.waitFor();
    await h.screenshot({ path: '/tmp/live-messages-mobile-list.png' });
    // The unread count's hidden words once stretched each row past the screen.
    await expectNoSideScroll(h, 'the conversation list with an unread conversation');
    await b.axe(h);
    expect(await h.getByTestId('thread').count()).toBe(0);
    await item.click();
    await h.getByTestId('thread').waitFor();
    expect(await h.getByTestId('conversation-list').count()).toBe(0);
    await h.getByTestId('message').filter({ hasText: 'Hi from a phone' }).waitFor();
    await h.screenshot({ path: '/tmp/live-messages-mobile-thread.png' });
    await b.axe(h);
    await h.getByTestId('thread-back').click();
    await h.waitForURL(/\/message$/);
    await h.getByTestId('conversation-list').waitFor();
  });

  withMedia('a thread pages back through history and sends an image', async () => {
    const hunter = await creator();
    const member = await activeMember();
    const conv = await ok(
      api<{ conversationId: number }>(
        'POST',
        '/conversations',
        { handle: hunter.handle },
        member.token,
      ),
      'POST /conversations',
    );
    // 36 messages (more than a page of 30), both sides taking turns (20 a minute each at most).
    for (let i = 1; i <= 36; i++)
      await ok(
        api(
          'POST',
          `/conversations/${conv.conversationId}/messages`,
          { text: `Message number ${i}` },
          i % 2 ? member.token : hunter.token,
        ),
        `POST message ${i}`,
      );

    const m = await b.page({ token: member.token });
    await m.goto(b.url(`/message/${conv.conversationId}`));
    await m.getByTestId('message').filter({ hasText: 'Message number 36' }).waitFor();
    expect(await m.getByTestId('message').count()).toBe(30);
    await m.getByTestId('load-earlier').click();
    await m
      .getByTestId('message-text-view')
      .filter({ hasText: /^Message number 1$/ })
      .waitFor();
    expect(await m.getByTestId('message').count()).toBe(36);
    expect(await m.getByTestId('load-earlier').count()).toBe(0);

    await m.getByTestId('message-image').setInputFiles(gradientPng('dm', 500, 400));
    await m.getByRole('button', { name: 'Remove image' }).waitFor();
    await m.getByTestId('message-text').fill('A picture for you');
    await m.getByTestId('message-send').click();
    const sent = m.getByTestId('message').filter({ hasText: 'A picture for you' });
    await sent.getByTestId('message-image-view').waitFor();
    await m.screenshot({ path: '/tmp/live-messages-image.png' });
    await b.axe(m);
  });

  db('an empty inbox says how to start', async () => {
    const member = await activeMember();
    const m = await b.page({ token: member.token });
    await m.goto(b.url('/message'));
    await m.getByTestId('conversations-empty').waitFor();
    await m.screenshot({ path: '/tmp/live-messages-empty.png' });
    await b.axe(m);
  });
});
