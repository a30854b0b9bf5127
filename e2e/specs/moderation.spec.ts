/**
 * Reports and moderation in the browser (issue 17 part 5): a member reports a claim from the
 * claim page; an admin hides it from the console's report queue; another member no longer
 * finds it, while its hunter sees it marked hidden.
 */
import { describe, expect, it } from 'vitest';
import { enrolledAdmin } from '../support/admin';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import { gradientPng, mediaAvailable, upload } from '../support/profiles';
import { activeMember, creator } from '../support/session';

const b = useBrowser('moderation');
const withAll = it.skipIf(!hasDatabase() || !(await mediaAvailable()));

describe('reports and moderation', () => {
  withAll('a member reports a claim, an admin hides it, it is gone for others', async () => {
    const poster = await activeMember();
    const hunter = await creator();
    const title = `Moderated sunset ${Date.now().toString(36)}`;
    const bounty = await api<{ bountyId: number }>(
      'POST',
      '/bounty',
      { title, seconds: 24 * 3600 },
      poster.token,
    );
    expect(bounty.status).toBe(200);
    const key = await upload(hunter.token, gradientPng('moderation-claim', 800, 600));
    const claim = await api<{ claimId: number }>(
      'POST',
      '/claim',
      { bountyId: bounty.data.bountyId, roundId: 1, media: key, multiple: true },
      hunter.token,
    );
    expect(claim.status).toBe(200);
    const claimId = claim.data.claimId;

    // A member reports the claim from its page.
    const reporter = await activeMember();
    const page = await b.page({ token: reporter.token });
    await page.goto(b.url(`/claim/${claimId}`));
    await page.getByTestId('claim-media').waitFor();
    await page.getByTestId('report-claim').click();
    const dialog = page.getByTestId('report-dialog');
    await dialog.getByRole('heading', { name: 'Report this claim' }).waitFor();
    // The reason is required.
    await dialog.getByTestId('report-submit').click();
    await dialog.getByText('Please choose a reason.').waitFor();
    await dialog.getByTestId('report-reason').click();
    await page.getByTestId('report-reason-copyright').click();
    await dialog.getByTestId('report-text').fill('This is my photo, posted without my permission.');
    await b.shot(page, 'report-dialog', { desktopOnly: true });
    await b.axe(page);
    await dialog.getByTestId('report-submit').click();
    await page.getByText('Thanks, your report was sent to our moderators.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await b.shot(page, 'report-sent', { desktopOnly: true });

    // The admin sees it in the queue and hides it.
    const admin = await enrolledAdmin();
    const console_ = await b.page({ token: admin.token });
    await console_.goto(b.url('/admin/reports?sort=most&targetType=claim'));
    await console_.getByRole('heading', { name: 'Reports' }).waitFor();
    const queue = console_.getByRole('table', { name: 'Reported items' });
    await queue.getByText(`Claim #${claimId}`).waitFor();
    await queue.getByText(`Claim #${claimId}`).click();
    const reports = console_.getByTestId('item-reports');
    await reports.getByText('This is my photo, posted without my permission.').waitFor();
    await reports.getByText(reporter.email).waitFor();
    await b.shot(console_, 'queue', { desktopOnly: true });
    await b.axe(console_);
    await reports.getByTestId(`hide-claim-${claimId}`).click();
    await console_.getByText('Claim hidden; 1 report(s) closed.').waitFor();
    await expect.poll(() => queue.getByText(`Claim #${claimId}`).count()).toBe(0);
    await b.shot(console_, 'queue-after-hide', { desktopOnly: true });

    // Gone for another member: the claim page, the bounty page and the feed.
    const other = await activeMember();
    const otherPage = await b.page({ token: other.token });
    await otherPage.goto(b.url(`/claim/${claimId}`));
    await otherPage.getByText('This claim could not be shown.').waitFor();
    await otherPage.goto(b.url(`/bounty/${bounty.data.bountyId}`));
    await otherPage.getByRole('heading', { name: title }).waitFor();
    await otherPage.getByText('No claims in this round yet.').waitFor();
    expect(await otherPage.getByTestId('claim-tile').count()).toBe(0);
    await b.shot(otherPage, 'bounty-without-claim', { desktopOnly: true });

    // Its hunter still sees it, marked hidden.
    const own = await b.page({ token: hunter.token });
    await own.goto(b.url(`/claim/${claimId}`));
    await own.getByTestId('hidden-marker').waitFor();
    expect(await own.getByTestId('report-claim').count()).toBe(0);
    // A short viewport's worth of page: the marker under the title, clear of the bottom nav.
    await own.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await b.shot(own, 'owner-sees-hidden', { desktopOnly: true });
  });
});
