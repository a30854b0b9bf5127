/**
 * Creators get paid (issue 18) in the browser: a hunter with cleared earnings sees them on
 * /account/earnings; the admin previews and runs a payout, downloads the NACHA file (94-character
 * records that add up), marks the payout returned and pays it again; the admin makes the year's
 * Forms 1099-NEC and the hunter downloads Copy B as a PDF.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { enrolledAdmin } from '../support/admin';
import { api, registerCreator, setHandle } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase, sql } from '../support/db';

const b = useBrowser('payouts');
const db = it.skipIf(!hasDatabase());

const CENTS = 250_000; // $2,500.00: above the 1099-NEC threshold of this year

/**
 * A hunter whose earnings have cleared: a balanced ledger transaction (revenue paid to the
 * hunter's available balance, as a released prize would be) and its earnings row, 8 days old.
 */
async function clearedEarnings(userId: number, cents: number): Promise<void> {
  const micros = cents * 10_000;
  await sql(
    `with txn as (
       insert into ledger_transactions (kind, ref_type, created_at) values ('prize', 'e2e', now()) returning id
     ), lines as (
       select * from (values ('hunter_available', $1::int4, -$2::int8), ('platform_revenue', 0, $2::int8)) v(code, user_id, amount)
     ), acc as (
       insert into ledger_accounts (code, user_id, balance) select code, user_id, amount from lines
       on conflict (code, user_id) do update set balance = ledger_accounts.balance + excluded.balance
       returning id, code, user_id
     ), entries as (
       insert into ledger_entries (txn_id, account_id, amount)
       select txn.id, acc.id, lines.amount from txn, acc join lines using (code, user_id)
     )
     insert into hunter_earnings (user_id, source, micros, earned_at, released_at)
     values ($1, 'prize', $2, now() - interval '8 days', now() - interval '1 day')`,
    [userId, micros],
  );
}

async function payableHunter() {
  const h = await registerCreator();
  const handle = `pay${Date.now().toString(36)}`;
  expect(await setHandle(h.token, handle)).toBe(200);
  const put = async (path: string, body?: object) =>
    expect((await api('PUT', path, body, h.token)).status, path).toBe(200);
  await put('/user/name', { firstName: 'Paige', lastName: 'Turner' });
  await put('/user/address', { street: '9 Elm St', city: 'Austin', state: 'TX', zip: '73301' });
  await put('/user/ssn/123454321');
  await put('/user/bank', {
    name: 'Lone Star Bank',
    accountType: 'savings',
    routingNumber: '021000021',
    accountNumber: '55501234',
  });
  await sql(`update users set identity_status = 'approved' where id = $1`, [h.userId]);
  return { ...h, handle };
}

async function download(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return fs.readFileSync((await file.path())!);
}

describe('payouts', () => {
  db(
    'a hunter is paid: earnings, a payout run with its NACHA file, a return, a 1099-NEC',
    async () => {
      const h = await payableHunter();
      await clearedEarnings(h.userId, CENTS);
      const year = new Date().getUTCFullYear();

      // The hunter sees the cleared balance and that nothing is missing.
      const hunter = await b.page({ token: h.token });
      await hunter.goto(b.url('/account'));
      await hunter.getByTestId('row-earnings').click();
      await hunter.waitForURL('**/account/earnings');
      await expect.poll(() => hunter.getByTestId('available').textContent()).toBe('$2,500.00');
      await hunter.getByTestId('payout-ready').waitFor();
      await hunter.getByTestId('no-payouts').waitFor();
      await b.axe(hunter);

      // The admin previews the run and pays now.
      const admin = await enrolledAdmin();
      const page = await b.page({ token: admin.token });
      await page.goto(b.url('/admin/payouts'));
      await page.getByRole('heading', { name: 'Payouts', exact: true }).waitFor();
      const payees = page.getByRole('table', { name: 'Payees' });
      await payees.getByText(`@${h.handle}`).waitFor();
      await b.axe(page);
      await b.shot(page, 'admin-preview', { desktopOnly: true });
      await page.getByRole('button', { name: 'Run payouts now' }).click();
      const dialog = page.getByRole('dialog', { name: 'Run payouts now?' });
      await dialog.getByRole('button', { name: /^Pay \$/ }).click();
      await page.waitForURL(/\/admin\/payouts\/\d+$/);
      const batchId = Number(page.url().split('/').pop());
      const row = page.getByTestId('batch-payout').filter({ hasText: `@${h.handle}` });
      await row.getByText('$2,500.00').waitFor();
      await b.axe(page);
      await b.shot(page, 'admin-batch', { desktopOnly: true });

      // The NACHA file: 94-character records, blocked by 10, the file control's credit total
      // equals the run's payouts, and our hunter's savings credit (32) is in it.
      const nacha = (
        await download(page, () =>
          page.getByRole('button', { name: 'Download NACHA file' }).click(),
        )
      ).toString('ascii');
      const lines = nacha.trimEnd().split('\n');
      expect(lines.length % 10).toBe(0);
      expect(lines.every((l) => l.length === 94)).toBe(true);
      const entries = lines.filter((l) => l.startsWith('6'));
      const mine = entries.find((l) => l.slice(12, 29).trim() === '55501234');
      expect(mine?.slice(1, 3)).toBe('32');
      expect(Number(mine?.slice(29, 39))).toBe(CENTS);
      const control = lines.find((l) => l.startsWith('9'))!;
      const total = entries.reduce((a, l) => a + Number(l.slice(29, 39)), 0);
      expect(Number(control.slice(43, 55))).toBe(total);
      const [batch] = await sql<{ total_cents: string }>(
        'select total_cents from payout_batches where id = $1',
        [batchId],
      );
      expect(Number(batch!.total_cents)).toBe(total);

      // The bank sent it back: mark returned; the hunter sees it and the money is available again.
      await row.getByRole('button', { name: 'Mark returned' }).click();
      const ret = page.getByRole('dialog', { name: 'Mark $2,500.00 returned?' });
      await ret.getByLabel('Return reason').click();
      await page.getByRole('option', { name: 'R02: Account closed' }).click();
      await ret.getByRole('button', { name: 'Mark returned' }).click();
      await row.getByText('Returned (R02: Account closed)').waitFor();
      await hunter.reload();
      await expect.poll(() => hunter.getByTestId('available').textContent()).toBe('$2,500.00');
      await hunter.getByTestId('payout-row').getByText('R02: Account closed').waitFor();

      // Paid again by the next run.
      await page.goto(b.url('/admin/payouts'));
      await page.getByRole('table', { name: 'Payees' }).getByText(`@${h.handle}`).waitFor();
      await page.getByRole('button', { name: 'Run payouts now' }).click();
      await page
        .getByRole('dialog', { name: 'Run payouts now?' })
        .getByRole('button', { name: /^Pay \$/ })
        .click();
      await page.waitForURL(
        (u) => /\/admin\/payouts\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${batchId}`),
      );
      await hunter.reload();
      await expect.poll(() => hunter.getByTestId('paid').textContent()).toBe('$2,500.00');
      await expect.poll(() => hunter.getByTestId('available').textContent()).toBe('$0.00');
      await b.shot(hunter, 'earnings');

      // This year's 1099-NEC: the admin makes it and downloads the CSV; the hunter the PDF.
      await page.goto(b.url('/admin/tax-forms'));
      await page.getByLabel('Tax year').click();
      await page.getByRole('option', { name: String(year), exact: true }).click();
      await page.getByTestId('tax-summary').waitFor();
      // The year menu fades out after the choice: axe reads half-transparent options as low
      // contrast, so it runs once the menu is gone.
      await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
      await b.axe(page);
      await page.getByRole('button', { name: 'Generate 1099-NEC forms' }).click();
      const forms = page.getByRole('table', { name: 'Forms 1099-NEC' });
      await forms.getByText(`@${h.handle}`).waitFor();
      await b.shot(page, 'admin-tax-forms', { desktopOnly: true });
      const csv = (
        await download(page, () => page.getByRole('button', { name: 'Download CSV' }).click())
      ).toString('utf8');
      expect(csv).toContain('Paige Turner,***-**-4321');
      expect(csv).not.toContain('123454321');

      await hunter.goto(b.url('/account/tax-forms'));
      await hunter.getByText(`Form 1099-NEC ${year}`).waitFor();
      await b.axe(hunter);
      await b.shot(hunter, 'tax-forms');
      const pdf = await download(hunter, () =>
        hunter.getByRole('button', { name: `Download PDF of Form 1099-NEC ${year}` }).click(),
      );
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    },
  );

  db('a hunter without payout details sees what is missing, with links to the forms', async () => {
    const h = await registerCreator();
    const page = await b.page({ token: h.token });
    await page.goto(b.url('/account/earnings'));
    const missing = page.getByTestId('payout-missing');
    await missing.getByText('Before we can pay you').waitFor();
    for (const label of [
      'Identity verified',
      'Legal name',
      'Tax address',
      'Social Security number',
      'Bank account for direct deposit',
    ])
      await missing.getByRole('link', { name: label }).waitFor();
    await b.axe(page);
    await missing.getByRole('link', { name: 'Bank account for direct deposit' }).click();
    await page.waitForURL('**/account/bank');
    await page.goto(b.url('/account/tax-forms'));
    await page.getByTestId('no-tax-forms').waitFor();
  });
});
