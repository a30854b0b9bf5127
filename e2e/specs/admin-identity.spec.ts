/**
 * The identity review in the browser (issue 17 part 3): a hunter's submission waits in the
 * console's queue; the admin opens it, sees the ID photo and the selfie through signed links,
 * rejects it with a listed reason and a note; the hunter reads the reason on /account/identity
 * and submits again; the admin approves; the hunter sees the identity verified.
 */
import { IDENTITY_REASON_LABEL } from '@bountyhunt/shared/identity';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { creatorWithHandle, gradientPng, mediaAvailable, uploadPng } from '../support/account';
import { enrolledAdmin } from '../support/admin';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';

const b = useBrowser('admin-identity');
const ready = it.skipIf(!hasDatabase() || !(await mediaAvailable('identity')));

const NOTE = 'The name on the ID is hidden by glare.';

async function me(token: string) {
  return (
    await api<{ user: { identityStatus: string; identityReason: string | null } }>(
      'GET',
      '/user',
      undefined,
      token,
    )
  ).data.user;
}

/** Both images of the review are loaded (decoded, not broken). */
async function imagesLoaded(page: Page) {
  for (const alt of ['ID photo (front)', 'Selfie with ID']) {
    const img = page.getByAltText(alt);
    await img.waitFor();
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }
}

async function openFromQueue(page: Page, email: string) {
  await page.goto(b.url('/admin/identities'));
  const queue = page.getByRole('table', { name: 'Identity review queue' });
  await queue.getByText(email).waitFor();
  await queue.getByRole('row').filter({ hasText: email }).click();
  await page.waitForURL(/\/admin\/identities\/\d+$/);
  await page.getByRole('heading', { name: /Identity submission #\d+/ }).waitFor();
}

describe('identity review', () => {
  ready('reject with a reason, the hunter resubmits, approve', async () => {
    const c = await creatorWithHandle();
    const front = await uploadPng(c.token, 'identity');
    const selfie = await uploadPng(c.token, 'identity');
    const put = await api(
      'PUT',
      '/user/identity',
      { idFront: front.key, idSelfie: selfie.key },
      c.token,
    );
    expect(put.status).toBe(204);
    const admin = await enrolledAdmin();

    // The queue, then the review with both images.
    const page = await b.page({ token: admin.token });
    await page.goto(b.url('/admin/identities'));
    await page.getByRole('heading', { name: 'Identity review' }).waitFor();
    await page.getByRole('table', { name: 'Identity review queue' }).getByText(c.email).waitFor();
    await b.shot(page, 'queue', { desktopOnly: true });
    await b.axe(page);
    await openFromQueue(page, c.email);
    await imagesLoaded(page);
    // The signed links name neither private key.
    const srcs = await page
      .locator('img')
      .evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src));
    for (const src of srcs) {
      expect(src).not.toContain(front.key!);
      expect(src).not.toContain(selfie.key!);
    }
    await b.shot(page, 'review', { desktopOnly: true });
    await b.axe(page);

    // Reject: "other" needs a note; a listed reason and a note.
    await page.getByLabel('Reason').click();
    await page.getByRole('option', { name: IDENTITY_REASON_LABEL.blurry }).click();
    await page.getByLabel(/Note to the user/).fill(NOTE);
    await b.shot(page, 'reject-filled', { desktopOnly: true });
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/identities');
    await page.getByText('Submission rejected. The user has been notified.').waitFor();
    await expect
      .poll(async () =>
        page.getByRole('table', { name: 'Identity review queue' }).getByText(c.email).count(),
      )
      .toBe(0);
    expect(await me(c.token)).toEqual(
      expect.objectContaining({
        identityStatus: 'rejected',
        identityReason: `${IDENTITY_REASON_LABEL.blurry} ${NOTE}`,
      }),
    );

    // The hunter reads the reason and submits again.
    const hunter = await b.page({ token: c.token });
    await hunter.goto(b.url('/account/identity'));
    await hunter.getByTestId('identity-reason').waitFor();
    expect(await hunter.getByTestId('identity-reason').textContent()).toBe(
      `Reason: ${IDENTITY_REASON_LABEL.blurry} ${NOTE}`,
    );
    await b.shot(hunter, 'account-rejected');
    await b.axe(hunter);
    await hunter
      .getByTestId('id-front-file')
      .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: gradientPng(300) });
    await hunter
      .getByTestId('id-selfie-file')
      .setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: gradientPng(320) });
    await hunter.getByTestId('id-front-file-preview').waitFor();
    await hunter.getByTestId('id-selfie-file-preview').waitFor();
    await hunter.waitForFunction(() => !document.querySelector('[role=progressbar]'));
    await hunter.getByTestId('age-confirm').check();
    await hunter.getByRole('button', { name: 'Submit for Review' }).click();
    await expect.poll(async () => (await me(c.token)).identityStatus).toBe('pending');
    expect((await me(c.token)).identityReason).toBeNull();

    // The admin approves the new submission.
    await openFromQueue(page, c.email);
    await imagesLoaded(page);
    await page.getByText('18 or older').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/identities');
    await page.getByText('Identity approved. The user has been notified.').waitFor();
    expect(await me(c.token)).toEqual(
      expect.objectContaining({ identityStatus: 'approved', identityReason: null }),
    );

    const after = await b.page({ token: c.token });
    await after.goto(b.url('/account/identity'));
    await after.getByTestId('identity-result').getByText('Your identity is verified.').waitFor();
    expect(await after.getByRole('button', { name: 'Submit for Review' }).count()).toBe(0);
    await b.shot(after, 'account-approved');
    await b.axe(after);

    // The decisions are in the audit log.
    await page.goto(b.url('/admin/audit?action=identity.reject'));
    await page
      .getByRole('table', { name: 'Audit log' })
      .getByText('identity.reject')
      .first()
      .waitFor();
  });
});
