/**
 * The console's users (issue 17 part 4) in the browser: an admin finds a member, grants them
 * silver (the member sees it in their history) and suspends them; the member's open session
 * is sent to sign-in, where signing in answers with the suspension message; unsuspending lets
 * them in again.
 */
import { describe, expect, it } from 'vitest';
import { enrolledAdmin } from '../support/admin';
import { api, PASSWORD, registerMember, setHandle } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase, setActive, setSilver } from '../support/db';

const b = useBrowser('admin-users');
const db = it.skipIf(!hasDatabase());

describe('console users', () => {
  db('search, grant silver, suspend: the open session goes to sign-in, which says so', async () => {
    const m = await registerMember();
    const handle = `sus${Date.now().toString(36)}`;
    expect(await setHandle(m.token, handle)).toBe(200);
    await setActive(m.userId, 30);
    await setSilver(m.userId, 5);
    const admin = await enrolledAdmin();

    // The member is using the site.
    const member = await b.page({ token: m.token });
    await member.goto(b.url('/account/tokens'));
    await expect.poll(() => member.getByTestId('silver-balance').textContent()).toBe('5');

    // The admin finds them by the start of their handle.
    const page = await b.page({ token: admin.token });
    await page.goto(b.url('/admin/users'));
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    const users = page.getByRole('table', { name: 'Users' });
    await users.getByText(admin.email).waitFor();
    await page.getByLabel('Search users').fill(handle.slice(0, -1).toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=/);
    await expect.poll(() => users.locator('tbody tr').count()).toBe(1);
    await users.getByText(m.email).waitFor();
    await b.shot(page, 'users', { desktopOnly: true });
    await b.axe(page);

    await users.getByRole('link', { name: m.email }).click();
    await page.waitForURL(`**/admin/users/${m.userId}`);
    await page.getByRole('heading', { name: m.email }).waitFor();
    await expect.poll(() => page.getByTestId('user-silver').textContent()).toBe('5');
    await page.getByRole('table', { name: 'Sessions' }).waitFor();

    // Grant silver: the form checks the amount first.
    const grant = page.getByRole('form', { name: 'Grant silver' });
    await grant.getByLabel('Amount').fill('0');
    await grant.getByLabel('Reason').fill('Welcome gift');
    await grant.getByRole('button', { name: 'Grant silver' }).click();
    await grant.getByText('Grant at least 1 silver.').waitFor();
    await grant.getByLabel('Amount').fill('25');
    await grant.getByRole('button', { name: 'Grant silver' }).click();
    await page.getByText('25 silver granted.').waitFor();
    await expect.poll(() => page.getByTestId('user-silver').textContent()).toBe('30');
    await page
      .getByRole('table', { name: 'Silver history' })
      .getByText('Granted by BountyHunt')
      .waitFor();
    await b.shot(page, 'user', { desktopOnly: true });
    await b.axe(page);

    // The member sees the grant in their history.
    await member.reload();
    await expect.poll(() => member.getByTestId('silver-balance').textContent()).toBe('30');
    const entry = member.getByTestId('silver-entry').first();
    expect(await entry.textContent()).toContain('Granted by BountyHunt');
    expect(await entry.textContent()).toContain('+25');
    await member.goto(b.url('/account'));
    await member.getByTestId('row-silver').waitFor();

    // Suspend, with a confirmation and a reason.
    await page.getByRole('button', { name: 'Suspend', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Suspend ${m.email}?` });
    await dialog.getByRole('button', { name: 'Suspend account' }).click();
    await dialog.getByText('Please give a reason.').waitFor();
    await dialog.getByLabel('Reason (kept in the audit log)').fill('Spam claims');
    await b.shot(page, 'suspend-dialog', { desktopOnly: true });
    await dialog.getByRole('button', { name: 'Suspend account' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/Suspended since/).waitFor();
    await page.getByRole('button', { name: 'Unsuspend' }).waitFor();
    await page.getByText('No open sessions.').waitFor();
    await b.shot(page, 'user-suspended', { desktopOnly: true });
    await b.axe(page);

    // The member's next step asks the API: their session is gone, so sign-in, which refuses them.
    await member.getByTestId('row-silver').click();
    await member.waitForURL('**/login');
    await member.getByTestId('session-ended').waitFor();
    await member.getByLabel('Email').fill(m.email);
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Sign In' }).click();
    await member.getByText('Your account is suspended. Contact support.').waitFor();
    await b.shot(member, 'suspended-sign-in');
    await b.axe(member);

    // The audit log has both actions, with the reasons.
    await page.getByRole('link', { name: 'Audit log for this user' }).click();
    await page.waitForURL(/targetId=/);
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.getByText('user.suspend').waitFor();
    await log.getByText('user.grant_silver').waitFor();
    await log.getByText(/Spam claims/).waitFor();

    // Unsuspend: the member signs in again.
    await page.goto(b.url(`/admin/users/${m.userId}`));
    await page.getByRole('button', { name: 'Unsuspend' }).click();
    await page
      .getByRole('dialog', { name: 'Lift the suspension?' })
      .getByRole('button', { name: 'Unsuspend' })
      .click();
    await page.getByRole('button', { name: 'Suspend', exact: true }).waitFor();
    await member.getByRole('button', { name: 'Sign In' }).click();
    await member.waitForURL(b.url('/'));
  });

  db(
    'refund a membership payment: the silver is taken back and the payment shows refunded',
    async () => {
      const m = await registerMember();
      expect((await api('PUT', '/user/membership/0', undefined, m.token)).status).toBe(200);
      const started = await api<{ silver: number }>(
        'POST',
        '/user/membership',
        {
          number: '4242 4242 4242 4242',
          cvv: '123',
          month: '12',
          year: '30',
          name: 'Ada',
          zip: '10001',
        },
        m.token,
      );
      expect(started.status).toBe(200);
      const admin = await enrolledAdmin();
      const page = await b.page({ token: admin.token });
      await page.goto(b.url(`/admin/users/${m.userId}`));
      const payments = page.getByRole('table', { name: 'Payments' });
      await payments.getByText('$6.99').waitFor();
      await payments.getByRole('button', { name: 'Refund' }).click();
      const dialog = page.getByRole('dialog', { name: 'Refund $6.99?' });
      await dialog.getByRole('button', { name: 'Refund payment' }).click();
      await dialog.getByText('Please give a reason.').waitFor();
      await dialog.getByLabel('Reason (kept in the audit log)').fill('Charged by mistake');
      await b.axe(page);
      await dialog.getByRole('button', { name: 'Refund payment' }).click();
      await page.getByText(/Refunded \$6\.99: 50 silver taken back/).waitFor();
      await payments.getByText('Refunded').waitFor();
      await expect.poll(() => page.getByTestId('user-silver').textContent()).toBe('0');
      expect(await payments.getByRole('button', { name: 'Refund' }).count()).toBe(0);
      await b.shot(page, 'user-refunded', { desktopOnly: true });
    },
  );
});
