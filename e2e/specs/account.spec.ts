/**
 * Accounts, onboarding and settings (issue 5): the settings home by role, every settings
 * form's happy path and main error, the member handle step and the creator enrollment.
 */
import { ACCOUNT_MSG, ACCOUNT_SUCCESS } from '@bountyhunt/shared/account';
import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, api, login, registerCreator, registerMember, uniqueEmail } from '../support/api';
import {
  creatorWithHandle,
  gradientPng,
  mediaAvailable,
  memberWithHandle,
} from '../support/account';
import { useBrowser } from '../support/browser';
import { uniqueHandle } from '../support/session';

const b = useBrowser('account');
const withMedia = it.skipIf(!(await mediaAvailable()));
const withPrivateMedia = it.skipIf(!(await mediaAvailable('identity')));

async function open(path: string, token: string): Promise<Page> {
  const page = await b.page({ token });
  await page.goto(b.url(path));
  return page;
}

async function submit(page: Page, name: string | RegExp) {
  await page.getByRole('button', { name }).click();
}

async function expectError(page: Page, message: string) {
  const alert = page.getByTestId('form-error');
  await alert.waitFor();
  expect(await alert.textContent()).toBe(message);
}

/** Success without a next route: the snackbar and back to /account. */
async function expectSaved(page: Page, message: string) {
  await page.waitForURL((u) => u.pathname === '/account');
  const snack = page.getByTestId('snackbar');
  await snack.waitFor();
  expect(await snack.textContent()).toContain(message);
}

async function me(token: string) {
  return (
    await api<{ user: Record<string, unknown>; hunter: Record<string, unknown> | null }>(
      'GET',
      '/user',
      undefined,
      token,
    )
  ).data;
}

describe('/account settings home', () => {
  it('creator: My Account, Public Profile, Tax Information, Banking Information, with Required', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account', c.token);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    for (const title of [
      'My Account',
      'Public Profile',
      'Tax Information',
      'Banking Information',
      'Account Actions',
    ])
      await page.getByRole('heading', { name: title }).waitFor();
    expect(await page.getByTestId('row-email').textContent()).toContain(c.email);
    expect(await page.getByTestId('row-handle').textContent()).toContain(`@${c.handle}`);
    for (const row of [
      'row-stagename',
      'row-bio',
      'row-picture',
      'row-name',
      'row-address',
      'row-ssn',
      'row-bank',
    ])
      expect(await page.getByTestId(row).textContent(), row).toContain('Required');
    expect(await page.getByTestId('row-silver').count()).toBe(0);
    await b.axe(page);
    await b.shot(page, 'settings-creator-empty');
  });

  it('creator with everything filled: masked SSN and account, no Required left', async () => {
    const c = await creatorWithHandle();
    await api('PUT', '/hunter/stagename', { stagename: 'Night Owl' }, c.token);
    await api('PUT', '/hunter/bio', { bio: 'Hunting bounties after dark.' }, c.token);
    await api('PUT', '/user/name', { firstName: 'Ada', lastName: 'Hunter' }, c.token);
    await api(
      'PUT',
      '/user/address',
      { street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      c.token,
    );
    await api('PUT', '/user/ssn/123456789', undefined, c.token);
    await api(
      'PUT',
      '/user/bank',
      { name: 'First Bank', routingNumber: '011000015', accountNumber: '000123454321' },
      c.token,
    );
    const page = await open('/account', c.token);
    await page.getByTestId('row-ssn').waitFor();
    expect(await page.getByTestId('row-ssn').textContent()).toContain('xxx-xx-6789');
    expect(await page.getByTestId('row-bank').textContent()).toContain('Ending in 4321');
    expect(await page.getByTestId('row-name').textContent()).toContain('Ada Hunter');
    expect(await page.getByTestId('row-address').textContent()).toContain(
      '1 Main St, Springfield, IL 62701',
    );
    expect(await page.getByTestId('row-stagename').textContent()).toContain('Night Owl');
    const html = await page.content();
    expect(html).not.toContain('123456789');
    expect(html).not.toContain('000123454321');
    await b.shot(page, 'settings-creator-filled');
  });

  it('member: Handle, Silver and Credit Card (Setup); Logout goes to /', async () => {
    const m = await registerMember();
    const page = await open('/account', m.token);
    await page.getByTestId('row-silver').waitFor();
    expect(await page.getByTestId('row-handle').textContent()).toContain('Required');
    expect(await page.getByTestId('row-silver').textContent()).toContain('0');
    expect(await page.getByTestId('row-card').textContent()).toContain('Setup');
    expect(await page.getByRole('heading', { name: 'Tax Information' }).count()).toBe(0);
    await b.axe(page);
    await b.shot(page, 'settings-member');
    await page.getByRole('button', { name: 'Logout' }).click();
    // Logout goes to /, whose guard sends a signed-out visitor on to /join.
    await page.waitForURL((u) => u.pathname === '/' || u.pathname === '/join');
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeNull();
    expect((await api('GET', '/user', undefined, m.token)).status).toBe(401);
  });

  it('a member cannot open the creator-only forms (guard → /join)', async () => {
    const m = await registerMember();
    const page = await open('/account/ssn', m.token);
    await page.waitForURL((u) => u.pathname === '/join');
  });
});

describe('handle', () => {
  it('strips what is not a letter or digit as typed, at most 15, then saves with the SPEC.md snackbar', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/handle', c.token);
    const input = page.getByTestId('handle-input');
    await input.fill('');
    await input.pressSequentially('My Handle!_#2');
    expect(await input.inputValue()).toBe('MyHandle2');
    await input.fill('');
    await input.pressSequentially('abcdefghijklmnopqrst');
    expect(await input.inputValue()).toBe('abcdefghijklmno');
    const handle = uniqueHandle('New');
    await input.fill(handle);
    await b.axe(page);
    await b.shot(page, 'handle');
    await submit(page, 'Save Handle');
    await expectSaved(page, ACCOUNT_MSG.handleSuccess);
    expect(await page.getByTestId('row-handle').textContent()).toContain(`@${handle}`);
  });

  it('taken: the 409 message, cleared by typing', async () => {
    const other = await creatorWithHandle();
    const c = await creatorWithHandle();
    const page = await open('/account/handle', c.token);
    const input = page.getByTestId('handle-input');
    await input.fill(other.handle.toUpperCase());
    await submit(page, 'Save Handle');
    await expectError(page, ACCOUNT_MSG.handleTaken);
    await b.shot(page, 'handle-taken');
    await input.press('x');
    await page.getByTestId('form-error').waitFor({ state: 'detached' });
    await input.fill('');
    await submit(page, 'Save Handle');
    await expectError(page, ACCOUNT_MSG.handleRequired);
  });
});

describe('email and password', () => {
  it('email: invalid, taken, then changed', async () => {
    const taken = await registerMember();
    const m = await registerMember();
    const page = await open('/account/email', m.token);
    const input = page.getByTestId('email-input');
    await input.fill('not-an-email');
    await submit(page, 'Update Email');
    await expectError(page, AUTH_MSG.emailInvalidLong);
    await input.fill(taken.email);
    await submit(page, 'Update Email');
    await expectError(page, ACCOUNT_MSG.emailChangeTaken);
    await b.shot(page, 'email-taken');
    const next = uniqueEmail('changed');
    await input.fill(next);
    await submit(page, 'Update Email');
    await expectSaved(page, ACCOUNT_SUCCESS.email);
    expect(await page.getByTestId('row-email').textContent()).toContain(next);
    expect(await login(next)).toBeTruthy();
  });

  it('password: wrong current password, weak new one, then changed', async () => {
    const m = await registerMember();
    const page = await open('/account/password', m.token);
    await page.getByTestId('old-password').fill('Wrong!pass9');
    await page.getByTestId('new-password').fill('Fresh!pass42');
    await submit(page, 'Update Password');
    await expectError(page, ACCOUNT_MSG.passwordWrong);
    await b.axe(page);
    await b.shot(page, 'password-wrong');
    await page.getByTestId('old-password').fill(PASSWORD);
    await page.getByTestId('new-password').fill('weak');
    await submit(page, 'Update Password');
    await expectError(page, AUTH_MSG.passwordCriteria);
    await page.getByTestId('new-password').fill('Fresh!pass42');
    await submit(page, 'Update Password');
    await expectSaved(page, ACCOUNT_SUCCESS.password);
    expect(await login(m.email, 'Fresh!pass42')).toBeTruthy();
  });
});

describe('public profile', () => {
  it('bio: counter, saved with the SPEC.md snackbar; emptied shows Required again', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/bio', c.token);
    await page.getByRole('heading', { name: 'Create Your Biography' }).waitFor();
    const input = page.getByTestId('bio-input');
    await input.fill('x'.repeat(205));
    expect((await input.inputValue()).length).toBe(200);
    await input.fill('I photograph sunrises from rooftops.');
    await b.axe(page);
    await b.shot(page, 'bio');
    await submit(page, 'Update Biography');
    await expectSaved(page, ACCOUNT_MSG.bioSuccess);
    expect(await page.getByTestId('row-bio').textContent()).toContain('I photograph sunrises');
    await page.getByTestId('row-bio').click();
    await page.getByTestId('bio-input').fill('');
    await submit(page, 'Update Biography');
    await expectSaved(page, ACCOUNT_MSG.bioSuccess);
    expect(await page.getByTestId('row-bio').textContent()).toContain('Required');
    expect((await me(c.token)).hunter?.bio).toBeNull();
  });

  it('bio with a next route: Skip for Now goes there, saving goes there', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/bio?next=/account/stagename', c.token);
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await page.waitForURL((u) => u.pathname === '/account/stagename');
    await page.goto(b.url('/account/bio?next=/account/stagename'));
    await page.getByTestId('bio-input').fill('Next please');
    await submit(page, 'Update Biography');
    await page.waitForURL((u) => u.pathname === '/account/stagename');
    expect((await me(c.token)).hunter?.bio).toBe('Next please');
  });

  it('stage name: saved and cleared', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/stagename', c.token);
    await page.getByTestId('stagename-input').fill('Captain Lens');
    await b.shot(page, 'stagename');
    await submit(page, 'Save Stage Name');
    await expectSaved(page, ACCOUNT_SUCCESS.stagename);
    expect(await page.getByTestId('row-stagename').textContent()).toContain('Captain Lens');
  });

  it('picture: nothing uploaded shows the SPEC.md message', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/picture', c.token);
    await page.getByRole('heading', { name: 'Set Your Profile Picture' }).waitFor();
    await page.getByText('Upload Photo').waitFor();
    await submit(page, 'Submit Profile Picture');
    await expectError(page, ACCOUNT_MSG.pictureRequired);
    await b.axe(page);
    await b.shot(page, 'picture-required');
  });

  withMedia('picture: upload, preview, submit with the SPEC.md snackbar', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/picture', c.token);
    await page
      .getByTestId('picture-file')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: gradientPng(400) });
    await page.getByTestId('picture-file-preview').waitFor();
    await page
      .getByRole('button', { name: 'Upload Photo' })
      .and(page.locator(':not([aria-disabled=true])'))
      .waitFor();
    await b.shot(page, 'picture-uploaded');
    await submit(page, 'Submit Profile Picture');
    await expectSaved(page, ACCOUNT_MSG.pictureSuccess);
    const picture = (await me(c.token)).hunter?.picture as string;
    expect(picture).toMatch(/^i-/);
    await page.getByTestId('row-picture').getByRole('img').waitFor();
    await b.shot(page, 'settings-with-picture');
  });
});

describe('tax information and banking', () => {
  it('legal name: blank first name, then saved', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/name', c.token);
    await page.getByTestId('last-name').fill('Lovelace');
    await submit(page, 'Save Legal Name');
    await expectError(page, ACCOUNT_MSG.firstNameRequired);
    await page.getByTestId('first-name').fill('Ada');
    await page.getByTestId('form-error').waitFor({ state: 'detached' });
    await b.axe(page);
    await b.shot(page, 'name');
    await submit(page, 'Save Legal Name');
    await expectSaved(page, ACCOUNT_SUCCESS.name);
    expect(await page.getByTestId('row-name').textContent()).toContain('Ada Lovelace');
  });

  it('address: missing street, then saved', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/address', c.token);
    await page.getByTestId('address-city').fill('Springfield');
    await page.getByTestId('address-state').fill('IL');
    await page.getByTestId('address-zip').fill('62701');
    await submit(page, 'Save Address');
    await expectError(page, ACCOUNT_MSG.streetRequired);
    await page.getByTestId('address-street').fill('742 Evergreen Terrace');
    await b.axe(page);
    await b.shot(page, 'address');
    await submit(page, 'Save Address');
    await expectSaved(page, ACCOUNT_SUCCESS.address);
    expect(await page.getByTestId('row-address').textContent()).toContain(
      '742 Evergreen Terrace, Springfield, IL 62701',
    );
  });

  it('SSN: digits only, incomplete number refused, then shown as xxx-xx- and the last four', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/ssn', c.token);
    const input = page.getByTestId('ssn-input');
    await input.pressSequentially('12-34a5678');
    expect(await input.inputValue()).toBe('12345678');
    await submit(page, 'Save SSN');
    await expectError(page, ACCOUNT_MSG.ssnIncomplete);
    await b.axe(page);
    await b.shot(page, 'ssn-incomplete');
    await input.fill('123456789');
    await submit(page, 'Save SSN');
    await expectSaved(page, ACCOUNT_SUCCESS.ssn);
    expect(await page.getByTestId('row-ssn').textContent()).toContain('xxx-xx-6789');
  });

  it('bank: bad routing number, short account number, then Ending in the last four', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/bank', c.token);
    await page.getByTestId('bank-name').fill('First Bank');
    await page.getByLabel('Savings').check();
    await page.getByTestId('routing-number').fill('011000016');
    await page.getByTestId('account-number').fill('000123454321');
    await submit(page, 'Save Bank Account');
    await expectError(page, ACCOUNT_MSG.routingInvalid);
    await b.shot(page, 'bank-routing');
    await page.getByTestId('routing-number').fill('011000015');
    await page.getByTestId('account-number').fill('1234');
    await submit(page, 'Save Bank Account');
    await expectError(page, ACCOUNT_MSG.accountInvalid);
    await page.getByTestId('account-number').fill('000123454321');
    await b.axe(page);
    await submit(page, 'Save Bank Account');
    await expectSaved(page, ACCOUNT_SUCCESS.bank);
    expect(await page.getByTestId('row-bank').textContent()).toContain('Ending in 4321');
    const { user } = await me(c.token);
    expect(user.bankInfo).toEqual({
      name: 'First Bank',
      accountType: 'savings',
      routingNumber: '011000015',
    });
  });

  it('identity: the ID photo is required first', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/identity', c.token);
    await page.getByRole('heading', { name: 'Identity Verification' }).waitFor();
    await submit(page, 'Submit for Review');
    await expectError(page, ACCOUNT_MSG.idFrontRequired);
    await b.axe(page);
    await b.shot(page, 'identity-required');
  });

  withPrivateMedia('identity: two private uploads and the age confirmation → pending', async () => {
    const c = await creatorWithHandle();
    const page = await open('/account/identity', c.token);
    await page
      .getByTestId('id-front-file')
      .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: gradientPng(300) });
    await page
      .getByTestId('id-selfie-file')
      .setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: gradientPng(320) });
    await page.getByTestId('id-front-file-preview').waitFor();
    await page.getByTestId('id-selfie-file-preview').waitFor();
    await page.waitForFunction(() => !document.querySelector('[role=progressbar]'));
    await submit(page, 'Submit for Review');
    await expectError(page, ACCOUNT_MSG.ageRequired);
    await page.getByTestId('age-confirm').check();
    await b.shot(page, 'identity-filled');
    await submit(page, 'Submit for Review');
    await expectSaved(page, ACCOUNT_SUCCESS.identity);
    expect((await me(c.token)).user.identityStatus).toBe('pending');
    expect(await page.getByTestId('row-identity').textContent()).toContain('Pending review');
  });
});

describe('onboarding', () => {
  it('member: /signup/handle/user is Step 3 of 4; Skip for Now → /signup/payment', async () => {
    const m = await registerMember();
    const page = await open('/signup/handle/user', m.token);
    await page.getByText('Step 3 of 4').waitFor();
    await page.getByRole('heading', { name: 'Create Public User Handle' }).waitFor();
    await b.axe(page);
    await b.shot(page, 'signup-handle');
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await page.waitForURL((u) => u.pathname === '/signup/payment');
  });

  it('member: a handle saved on the step goes on to /signup/payment', async () => {
    const m = await registerMember();
    const page = await open('/signup/handle/user', m.token);
    const handle = uniqueHandle('Fan');
    await page.getByTestId('handle-input').fill(handle);
    await submit(page, 'Next');
    await page.waitForURL((u) => u.pathname === '/signup/payment');
    expect((await me(m.token)).user.handle).toBe(handle);
  });

  it('the member step sends creators to /join', async () => {
    const c = await registerCreator();
    const page = await open('/signup/handle/user', c.token);
    await page.waitForURL((u) => u.pathname === '/join');
  });

  it('creator: handle (Step 2 of 3) → stage name (Step 3 of 3, Confirm Stage Name) → home', async () => {
    const c = await registerCreator();
    const page = await open('/enrollment/handle', c.token);
    await page.getByText('Step 2 of 3').waitFor();
    await b.shot(page, 'enrollment-handle');
    const taken = await memberWithHandle();
    await page.getByTestId('handle-input').fill(taken.handle);
    await submit(page, 'Next');
    await expectError(page, ACCOUNT_MSG.handleTaken);
    const handle = uniqueHandle('Star');
    await page.getByTestId('handle-input').fill(handle);
    await submit(page, 'Next');
    await page.waitForURL((u) => u.pathname === '/enrollment/stagename');
    await page.getByText('Step 3 of 3').waitFor();
    await page.getByRole('heading', { name: 'Confirm Stage Name' }).waitFor();
    // The pointer still rests where Next was: a hovered button is darker than the resting one.
    await page.mouse.move(0, 0);
    await b.axe(page);
    await b.shot(page, 'enrollment-stagename');
    await page.getByTestId('stagename-input').fill('Star Hunter');
    await submit(page, 'Confirm Stage Name');
    await page.waitForURL((u) => u.pathname === '/');
    const after = await me(c.token);
    expect(after.hunter).toMatchObject({ handle, stagename: 'Star Hunter' });
  });

  it('creator: Skip for Now on the stage name goes home; without a handle the step sends to /join', async () => {
    const c = await creatorWithHandle();
    const page = await open('/enrollment/stagename', c.token);
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    const fresh = await registerCreator();
    const p2 = await open('/enrollment/stagename', fresh.token);
    await p2.waitForURL((u) => u.pathname === '/join');
  });
});
