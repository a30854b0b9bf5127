/**
 * Memberships in the browser: plan → handle → payment → home with silver, the payment
 * error of SPEC.md §8, the account card page and the silver page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, registerMember } from '../support/api';
import { DECLINED_CARD, TEST_CARD, choosePlan, startMembership } from '../support/billing';
import { useBrowser } from '../support/browser';

const b = useBrowser('billing');

async function fillCard(page: Page, card: { number: string; expiry: string; cvv: string }) {
  await page.getByTestId('card-number').fill('');
  await page.getByTestId('card-number').pressSequentially(card.number);
  await page.getByTestId('card-expiry').fill('');
  await page.getByTestId('card-expiry').pressSequentially(card.expiry);
  await page.getByTestId('card-cvv').fill(card.cvv);
  await page.getByTestId('card-name').fill('Ada Lovelace');
  await page.getByTestId('card-zip').fill('10001');
}

async function currentUser(token: string) {
  return (
    await api<{
      user: { silver: number; active: string | null; membership: number; handle: string | null };
    }>('GET', '/user', undefined, token)
  ).data.user;
}

describe('signup plan and payment', () => {
  it('register → plan (Deluxe preselected) → handle → payment → home with silver in the status bar', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/signup/plan'));
    await expect.poll(() => page.getByTestId('step').textContent()).toBe('Step 2 of 4');
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    for (const text of [
      '$6.99',
      '$15.49',
      '$22.99',
      '720p (HD)',
      '1080p (Full HD)',
      '4K (Ultra HD) + HDR',
    ])
      await page.getByText(text, { exact: false }).first().waitFor();
    expect(await page.getByTestId('plan-2').getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('plan-0').getAttribute('aria-checked')).toBe('false');
    await b.shot(page, 'plan');
    await b.axe(page);

    // Keyboard: arrows move the choice inside the radio group.
    await page.getByTestId('plan-2').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('plan-1').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('plan-2').click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/signup/handle/user');
    expect((await currentUser(m.token)).membership).toBe(2);

    // Step 3 of 4 (the accounts feature's page): a public handle, then on to payment.
    const handle = `m${Date.now().toString(36).slice(-8)}`;
    await page.getByLabel('Handle').fill(handle);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/signup/payment');
    await expect.poll(() => page.getByTestId('step').textContent()).toBe('Step 4 of 4');
    await page.getByTestId('fee-text').waitFor();
    expect(await page.getByTestId('fee-text').textContent()).toContain('$4.99');
    expect(await page.getByTestId('plan-summary').textContent()).toContain('$22.99/month');

    // Number grouped with spaces; expiry gets '/' and a leading 0.
    await page.getByTestId('card-number').pressSequentially('4242424242424242');
    expect(await page.getByTestId('card-number').inputValue()).toBe('4242 4242 4242 4242');
    await page.getByTestId('card-expiry').pressSequentially('9');
    expect(await page.getByTestId('card-expiry').inputValue()).toBe('09/');
    await page.getByTestId('card-expiry').pressSequentially('30');
    expect(await page.getByTestId('card-expiry').inputValue()).toBe('09/30');
    await page.getByTestId('card-cvv').pressSequentially('12a34');
    expect(await page.getByTestId('card-cvv').inputValue()).toBe('1234');

    // Client-side check first: nothing is sent for a bad number.
    await page.getByTestId('card-name').fill('Ada Lovelace');
    await page.getByTestId('card-zip').fill('10001');
    await page.getByTestId('card-number').fill('4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Start Membership' }).click();
    await page.getByText('Please enter a valid card number.').waitFor();
    await b.shot(page, 'payment-invalid');

    // A declined card: the §8 payment message with the status, and the processor's reason.
    await fillCard(page, { number: DECLINED_CARD, expiry: '1230', cvv: '123' });
    await page.getByRole('button', { name: 'Start Membership' }).click();
    const alert = page.getByTestId('payment-error');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'We encountered an issue while updating your credit card information. Error: 402',
    );
    expect(await alert.textContent()).toContain('Your card was declined.');
    await b.shot(page, 'payment-declined');
    await b.axe(page);

    await fillCard(page, { number: TEST_CARD.number, expiry: '1230', cvv: '123' });
    await page.getByRole('button', { name: 'Start Membership' }).click();
    await page.waitForURL(b.url('/'));
    await expect
      .poll(() => page.getByTestId('status-silver').first().textContent())
      .toContain('200');
    // Confetti is a canvas laid over the page for five seconds.
    await expect.poll(() => page.locator('canvas').count()).toBeGreaterThan(0);
    // The screenshots come after it (its canvas is removed when it ends): twice in CI, resizing
    // the window while it ran left the page styled for the old width (header and bottom nav
    // laid out as on a desktop in a 375px window, 501px wide), which no phone user meets.
    await expect.poll(() => page.locator('canvas').count(), { timeout: 15_000 }).toBe(0);
    await b.shot(page, 'home-after-payment');

    const user = await currentUser(m.token);
    expect(user.silver).toBe(200);
    expect(user.handle).toBe(handle);
    expect(new Date(user.active!).getTime()).toBeGreaterThan(Date.now() + 27 * 86400_000);
  });

  it('sends a member whose membership is running from the signup steps to /join', async () => {
    const m = await registerMember();
    await startMembership(m.token);
    const page = await b.page({ token: m.token });
    for (const path of ['/signup/plan', '/signup/payment']) {
      await page.goto(b.url(path));
      await page.waitForURL('**/join');
    }
  });

  it('sends a creator to /join', async () => {
    const { registerCreator } = await import('../support/api');
    const c = await registerCreator();
    const page = await b.page({ token: c.token });
    await page.goto(b.url('/signup/plan'));
    await page.waitForURL('**/join');
  });
});

describe('account payment and silver', () => {
  it('replaces the card of an active member', async () => {
    const m = await registerMember();
    await choosePlan(m.token, 1);
    await startMembership(m.token);
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/account/payment'));
    await page.getByRole('heading', { name: 'Credit Card' }).waitFor();
    await expect
      .poll(() => page.getByTestId('card-on-file').textContent())
      .toContain('Visa Ending in 4242');
    await b.shot(page, 'account-payment');
    await b.axe(page);

    await fillCard(page, { number: DECLINED_CARD, expiry: '1230', cvv: '123' });
    await page.getByRole('button', { name: 'Update Card' }).click();
    await page.getByTestId('payment-error').waitFor();
    expect(await page.getByTestId('payment-error').textContent()).toContain('Error: 402');

    await fillCard(page, { number: '5555555555554444', expiry: '0731', cvv: '321' });
    await page.getByRole('button', { name: 'Update Card' }).click();
    await page.waitForURL('**/account');
    await page.getByText('Success! Your credit card has been updated.').waitFor();
    const summary = await api<{ card: { lastFour: string; brand: string } }>(
      'GET',
      '/user/membership',
      undefined,
      m.token,
    );
    expect(summary.data.card).toMatchObject({ lastFour: '4444', brand: 'Mastercard' });
  });

  it('starts a membership from the account page for a member without one', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/account/payment'));
    await page.getByText('Enter a card to start your membership.').waitFor();
    await fillCard(page, { number: TEST_CARD.number, expiry: '1230', cvv: '123' });
    await page.getByRole('button', { name: 'Start Membership' }).click();
    await page.waitForURL(b.url('/'));
    expect((await currentUser(m.token)).silver).toBe(200);
  });

  it('shows the silver balance and its history', async () => {
    const m = await registerMember();
    await choosePlan(m.token, 0);
    await startMembership(m.token);
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/account/tokens'));
    await page.getByRole('heading', { name: 'Silver', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('silver-balance').textContent()).toBe('50');
    await page.getByTestId('silver-entry').first().waitFor();
    expect(await page.getByTestId('silver-entry').first().textContent()).toContain(
      'Membership started',
    );
    expect(await page.getByTestId('silver-entry').first().textContent()).toContain('+50');
    expect(await page.getByTestId('silver-plan').textContent()).toContain(
      'Standard plan adds 50 silver',
    );
    await b.shot(page, 'tokens');
    await b.axe(page);
  });
});
