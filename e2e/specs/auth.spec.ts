/** Sign-in pages (issue 3): /login, /forgot, /reset/{id}, /register/{role}, /join, /message, /hunters, 404. */
import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { ACCOUNT_MSG } from '@bountyhunt/shared/account';
import { describe, expect, it } from 'vitest';
import { PASSWORD, registerCreator, registerMember, uniqueEmail } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import { activeMember, creator, mockApi } from '../support/session';

const b = useBrowser('auth');
const db = it.skipIf(!hasDatabase());

describe('/login', () => {
  it('has the fields, the links and no accessibility problems', async () => {
    const page = await b.page();
    await page.goto(b.url('/login'));
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await page.getByLabel('Email').waitFor();
    await page.getByLabel('Password').waitFor();
    await b.axe(page);
    await b.shot(page, 'login');
    await page.getByRole('link', { name: 'Become a creator' }).click();
    await page.waitForURL('**/register/creator');
    await page.goBack();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL('**/register/member');
    await page.goBack();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot');
  });

  it('wrong credentials: the 400 message, cleared by editing either field', async () => {
    const m = await registerMember();
    const page = await b.page();
    await page.goto(b.url('/login'));
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password').fill('Wrong!pass1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const alert = page.getByTestId('form-error');
    expect(await alert.textContent()).toBe(AUTH_MSG.loginInvalid);
    await b.shot(page, 'login-error');
    await page.getByLabel('Password').press('x');
    await alert.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await alert.waitFor();
    await page.getByLabel('Email').press('x');
    await alert.waitFor({ state: 'detached' });
  });

  it('other statuses and a failed user load show their messages', async () => {
    const page = await b.page();
    await page.goto(b.url('/login'));
    await mockApi(page, 'POST', '/auth', 503);
    await page.getByLabel('Email').fill('a@b.co');
    await page.getByLabel('Password').fill('whatever');
    await page.getByRole('button', { name: 'Sign In' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(AUTH_MSG.loginOther(503));

    await page.unrouteAll();
    await mockApi(page, 'POST', '/auth', 200, { token: 'mocked-token' });
    await mockApi(page, 'GET', '/user', 500);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText(AUTH_MSG.loginUserLoad).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeNull();
  });

  db('Enter in the password field signs in (button loading meanwhile) and goes to /', async () => {
    const m = await activeMember();
    const page = await b.page();
    await page.goto(b.url('/login'));
    await mockApi(page, 'POST', '/auth', 400, { message: 'x', code: 'X' }, 800);
    await page.getByLabel('Email').fill(m.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    const button = page.getByRole('button', { name: 'Sign In' });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button[type=submit]')].some(
        (el) => (el as HTMLButtonElement).disabled,
      ),
    );
    expect(await button.isDisabled()).toBe(true);
    await page.getByTestId('form-error').waitFor();
    await page.unrouteAll();
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('link', { name: `Hi, ${m.handle}` }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeTruthy();
  });

  it('a signed-in user is sent from /login to /', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/login'));
    // / needs an active membership, so this member ends on /join.
    await page.waitForURL('**/join');
  });
});

describe('/forgot', () => {
  it('checks the address, then shows the answer for each status', async () => {
    const page = await b.page();
    await page.goto(b.url('/forgot'));
    await page.getByRole('heading', { name: 'Password Recovery' }).waitFor();
    await b.axe(page);
    await b.shot(page, 'forgot');
    const email = page.getByLabel('Email');
    await email.fill('not-an-address');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(AUTH_MSG.emailInvalidLong).waitFor();
    await b.axe(page);
    await b.shot(page, 'forgot-invalid');

    await email.fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    expect(await page.getByTestId('form-result').textContent()).toContain(AUTH_MSG.resetNotFound);
    await b.axe(page);

    await mockApi(page, 'POST', /^\/email\/password\//, 204);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    expect(await page.getByTestId('form-result').textContent()).toBe(AUTH_MSG.resetSent);
    await b.shot(page, 'forgot-sent');

    await page.unrouteAll();
    await mockApi(page, 'POST', /^\/email\/password\//, 500);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    expect(await page.getByTestId('form-result').textContent()).toBe(AUTH_MSG.resetOther(500));
    await page.getByRole('link', { name: 'Back to Sign In' }).click();
    await page.waitForURL('**/login');
  });
});

describe('/reset/{id}', () => {
  it('enforces the password rule, sends the code from the route, then goes to /login', async () => {
    const page = await b.page();
    await page.goto(b.url('/reset/code-from-link'));
    await page.getByRole('heading', { name: 'Change Your Password' }).waitFor();
    await b.axe(page);
    await b.shot(page, 'reset');
    await page.getByLabel('New Password').fill('weakpass');
    await page.getByRole('button', { name: 'Change Password' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(AUTH_MSG.passwordCriteria);
    await page.getByLabel('New Password').fill('Str0nger!');
    await page.getByTestId('form-error').waitFor({ state: 'detached' });

    await mockApi(page, 'PUT', '/user/reset', 400);
    await page.getByRole('button', { name: 'Change Password' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(AUTH_MSG.resetCodeInvalid);
    await page.unrouteAll();
    await mockApi(page, 'PUT', '/user/reset', 503);
    await page.getByRole('button', { name: 'Change Password' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(ACCOUNT_MSG.passwordOther(503));

    await page.unrouteAll();
    let sent: unknown = null;
    await page.route(/\/user\/reset$/, async (route) => {
      if (route.request().method() === 'PUT') sent = route.request().postDataJSON();
      await route.fulfill({
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': 'authorization, content-type',
          'access-control-allow-methods': 'PUT',
        },
      });
    });
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.waitForURL('**/login');
    expect(sent).toEqual({ resetCode: 'code-from-link', newPassword: 'Str0nger!' });
  });
});

describe('/register/{role}', () => {
  it('member form: Step 1 of 5, Member selected; the radio switches to the creator form', async () => {
    const page = await b.page();
    await page.goto(b.url('/register/member'));
    expect(await page.getByTestId('step').textContent()).toBe('Step 1 of 5');
    expect(await page.getByLabel('Member', { exact: true }).isChecked()).toBe(true);
    await b.axe(page);
    await b.shot(page, 'register-member');
    await page.getByLabel('Content Creator').click();
    await page.waitForURL('**/register/creator');
    // The URL changes a moment before the form re-renders: wait for the new step text.
    await page
      .getByTestId('step')
      .filter({ hasText: /^Step 1 of 4$/ })
      .waitFor();
    expect(await page.getByLabel('Content Creator').isChecked()).toBe(true);
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/login');
  });

  it('creator form: Step 1 of 4 with Content Creator preselected', async () => {
    const page = await b.page();
    await page.goto(b.url('/register/creator'));
    expect(await page.getByTestId('step').textContent()).toBe('Step 1 of 4');
    expect(await page.getByLabel('Content Creator').isChecked()).toBe(true);
    await b.axe(page);
    await b.shot(page, 'register-creator');
    await page.goto(b.url('/register/somebody'));
    await page.waitForURL('**/register/member');
  });

  it('checks e-mail and password, and reports an existing e-mail', async () => {
    const existing = await registerMember();
    const page = await b.page();
    await page.goto(b.url('/register/member'));
    await page.getByLabel('Email').fill('bad address');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(AUTH_MSG.emailInvalid).waitFor();
    await page.getByText(AUTH_MSG.passwordInvalid).waitFor();
    await b.axe(page);
    await b.shot(page, 'register-invalid');
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByTestId('form-error').textContent()).toContain(AUTH_MSG.emailExists);
    await b.axe(page);
  });

  it('other failures show Error createAccount(…) and Error authenticate(…)', async () => {
    const page = await b.page();
    await page.goto(b.url('/register/member'));
    await mockApi(page, 'POST', '/user', 500);
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(AUTH_MSG.createAccount(500));
    await page.unrouteAll();
    await mockApi(page, 'POST', '/auth', 429);
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(AUTH_MSG.authenticate(429));
  });

  it('a new member signs in and goes on to /signup/plan', async () => {
    const page = await b.page();
    await page.goto(b.url('/register/member'));
    await page.getByLabel('Email').fill(uniqueEmail('newmember'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/signup/plan');
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeTruthy();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
  });

  it('a new creator signs in and goes on to /enrollment/handle', async () => {
    const page = await b.page();
    await page.goto(b.url('/register/creator'));
    await page.getByLabel('Email').fill(uniqueEmail('newcreator'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/enrollment/handle');
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
  });
});

describe('/join', () => {
  it('anyone: Get Started to /register/member', async () => {
    const page = await b.page();
    await page.goto(b.url('/join'));
    await page.getByText('Starts at $6.99').waitFor();
    await b.axe(page);
    await b.shot(page, 'join-anonymous');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/register/member');
  });

  db('active member: "You\'re Already a Member!" and Explore to /', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/join'));
    await page.getByRole('heading', { name: "You're Already a Member!" }).waitFor();
    await b.axe(page);
    await b.shot(page, 'join-member-active');
    await page.getByRole('link', { name: 'Explore' }).click();
    await page.waitForURL((u) => u.pathname === '/');
  });

  db('expired member: "Welcome back!" and Restart Membership to /signup/plan', async () => {
    const m = await activeMember({ days: -1 });
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/join'));
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    await b.shot(page, 'join-member-expired');
    await page.getByRole('link', { name: 'Restart Membership' }).click();
    await page.waitForURL('**/signup/plan');
  });

  it('member not yet active: Finish Sign Up to /signup/plan', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/join'));
    await page.getByRole('link', { name: 'Finish Sign Up' }).click();
    await page.waitForURL('**/signup/plan');
  });

  db('creator with a handle: already a Content Creator', async () => {
    const c = await creator();
    const page = await b.page({ token: c.token });
    await page.goto(b.url('/join'));
    await page.getByRole('heading', { name: "You're already a Content Creator!" }).waitFor();
    await b.shot(page, 'join-creator');
  });

  it('creator without a handle: Finish Sign Up to /enrollment/handle', async () => {
    const c = await registerCreator();
    const page = await b.page({ token: c.token });
    await page.goto(b.url('/join'));
    await page.getByRole('link', { name: 'Finish Sign Up' }).click();
    await page.waitForURL('**/enrollment/handle');
  });

  it('renders nothing while the user is unresolved', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await mockApi(page, 'GET', '/user', 500, null, 1500);
    await page.goto(b.url('/join'));
    await page.getByRole('banner').waitFor();
    expect(await page.locator('[data-testid^="join-"]').count()).toBe(0);
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
  });
});

describe('other pages', () => {
  db('/hunters says Hunters; /message is Messages (an empty inbox)', async () => {
    const c = await creator();
    const page = await b.page({ token: c.token });
    await page.goto(b.url('/hunters'));
    await page.getByRole('heading', { name: 'Hunters' }).waitFor();
    await b.axe(page);
    await b.shot(page, 'hunters');
    await page.goto(b.url('/message'));
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await page.getByTestId('conversations-empty').waitFor();
    await b.axe(page);
    await b.shot(page, 'messages');
  });

  it('an unknown address shows the not-found page', async () => {
    const page = await b.page();
    await page.goto(b.url('/no/such/page'));
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await b.axe(page);
    await b.shot(page, 'not-found');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.waitForURL('**/join');
  });
});
