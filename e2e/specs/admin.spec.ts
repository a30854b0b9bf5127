/**
 * The operations console in the browser (issue 17): an admin's first sign-in sets up the
 * authenticator (QR code, recovery codes, first code), the dashboard, the audit log with the
 * sign-in; a later session asks for a code, or takes a recovery code once. Members never get in.
 */
import { describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import { freshCode, newAdmin } from '../support/admin';
import { PASSWORD, registerMember } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';

const b = useBrowser('admin');
const db = it.skipIf(!hasDatabase());

describe('operations console', () => {
  db('first sign-in: set up the authenticator, then the dashboard and the audit log', async () => {
    const a = await newAdmin();
    const page = await b.page();
    await page.goto(b.url('/login'));
    await page.getByLabel('Email').fill(a.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Admins land in the console, which asks for the second factor first.
    await page.waitForURL('**/admin/sign-in');
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByAltText('QR code for your authenticator app').waitFor();
    const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(codes).toHaveLength(10);
    const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    await b.shot(page, 'enrol', { desktopOnly: true });
    await b.axe(page);
    const totp = URI.parse(
      `otpauth://totp/BountyHunt:${encodeURIComponent(a.email)}?secret=${secret}&issuer=BountyHunt`,
    ) as TOTP;
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('That code is not valid. Please try again.').waitFor();
    await page.getByLabel('Code from the app').fill(freshCode(totp));
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL((u) => u.pathname === '/admin');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('stat-users').waitFor();
    expect(
      Number((await page.getByTestId('stat-users').textContent())!.replace(/\D/g, '')),
    ).toBeGreaterThan(0);
    await page.getByTestId('admin-email').getByText(a.email).waitFor();
    await b.shot(page, 'dashboard', { desktopOnly: true });
    await b.axe(page);

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL('**/admin/audit');
    const log = page.getByRole('table', { name: 'Audit log' });
    // Other specs' admins share the log: this admin's rows.
    const mine = log.getByRole('row').filter({ hasText: a.email });
    await mine.filter({ hasText: 'admin.totp_enrolled' }).waitFor();
    await mine.filter({ hasText: 'admin.sign_in' }).first().waitFor();
    await b.shot(page, 'audit', { desktopOnly: true });
    await b.axe(page);
    // Filtered by action.
    await page.getByLabel('Action').click();
    await page.getByRole('option', { name: 'admin.totp_enrolled' }).click();
    await page.waitForURL(/action=admin\.totp_enrolled/);
    await expect.poll(() => log.getByText('admin.sign_in').count()).toBe(0);
    await mine.filter({ hasText: 'admin.totp_enrolled' }).waitFor();

    // A later session: a code from the app, or a recovery code (once).
    const again = await b.page();
    await again.goto(b.url('/login'));
    await again.getByLabel('Email').fill(a.email);
    await again.getByLabel('Password').fill(PASSWORD);
    await again.getByRole('button', { name: 'Sign In' }).click();
    await again.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await b.shot(again, 'verify', { desktopOnly: true });
    await again.getByRole('button', { name: 'Use a recovery code' }).click();
    await again.getByLabel('Recovery code').fill(codes[0]!);
    await again.getByRole('button', { name: 'Continue' }).click();
    await again.getByRole('heading', { name: 'Dashboard' }).waitFor();

    const third = await b.page();
    await third.goto(b.url('/login'));
    await third.getByLabel('Email').fill(a.email);
    await third.getByLabel('Password').fill(PASSWORD);
    await third.getByRole('button', { name: 'Sign In' }).click();
    await third.getByRole('button', { name: 'Use a recovery code' }).click();
    await third.getByLabel('Recovery code').fill(codes[0]!);
    await third.getByRole('button', { name: 'Continue' }).click();
    await third.getByText('That code is not valid. Please try again.').waitFor();
    await third.getByRole('button', { name: 'Use a code from the app' }).click();
    await third.getByLabel('Code from your authenticator app').fill(freshCode(totp));
    await third.getByRole('button', { name: 'Continue' }).click();
    await third.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('sends a member away from /admin', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/admin'));
    await page.waitForURL('**/join');
  });
});
