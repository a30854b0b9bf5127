import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { IDENTITY_MSG, IDENTITY_REASON_LABEL } from '@bountyhunt/shared/identity';
import { identitySubmissions, media, users } from '../../db/schema';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { enrolledAdmin, type Auth } from '../../../test/admin-support';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { IDENTITY_JOBS } from './identity.service';

const WEB = 'https://bountyhunt.example';
const DAY = 24 * 3600 * 1000;
let t: TestApp;
let admin: Auth;
const mails: MailMessage[] = [];
const mailer: Mailer = {
  async send(m) {
    mails.push(m);
  },
  async close() {},
};

beforeAll(async () => {
  t = await createTestApp({
    parts: { mailer },
    env: { PUBLIC_WEB_URL: WEB, RL_UPLOAD_USER: '1000/3600', RL_REGISTER_IP: '1000/3600' },
  });
  admin = (await enrolledAdmin(t)).auth;
});
afterAll(async () => t?.close());

async function image(color: string): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 40, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

async function uploadPrivate(auth: Auth, color = '#c33'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/media/identity',
    headers: { ...auth, 'content-type': 'image/jpeg' },
    payload: await image(color),
  });
  expect(res.statusCode).toBe(200);
  return res.json().key;
}

/** A hunter with a pending submission (two real private uploads). */
async function submitted(body: object = {}) {
  const h = await signUp(t.app, { hunter: true });
  const idFront = await uploadPrivate(h.auth, '#c33');
  const idSelfie = await uploadPrivate(h.auth, '#3c3');
  const res = await putIdentity(h.auth, { idFront, idSelfie, ...body });
  expect(res.statusCode).toBe(204);
  const [row] = await t.db.handle.db
    .select()
    .from(identitySubmissions)
    .where(eq(identitySubmissions.userId, h.userId))
    .orderBy(identitySubmissions.id);
  return { ...h, idFront, idSelfie, submissionId: row!.id };
}

const putIdentity = (auth: Auth, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/user/identity', headers: auth, payload });
const me = async (auth: Auth) =>
  (await t.app.inject({ method: 'GET', url: '/user', headers: auth })).json().user;
const approve = (id: number) =>
  t.app.inject({ method: 'POST', url: `/admin/identities/${id}/approve`, headers: admin });
const reject = (id: number, payload: object) =>
  t.app.inject({ method: 'POST', url: `/admin/identities/${id}/reject`, headers: admin, payload });
const detail = (id: number) =>
  t.app.inject({ method: 'GET', url: `/admin/identities/${id}`, headers: admin });
const submissionRow = async (id: number) =>
  (
    await t.db.handle.db.select().from(identitySubmissions).where(eq(identitySubmissions.id, id))
  )[0]!;

/** Runs the queued decision mails and returns those sent to `to`. */
async function mailsTo(to: string): Promise<MailMessage[]> {
  await t.runJobs((j) => j.name === IDENTITY_JOBS.decisionMail);
  return mails.filter((m) => m.to === to);
}

async function wholeQueue(limit = 2): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i += 1) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/identities?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json() as { submissionId: number }[];
    expect(page.length).toBeLessThanOrEqual(limit);
    ids.push(...page.map((p) => p.submissionId));
    cursor = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
    if (!cursor) return ids;
  }
  throw new Error('the queue never ended');
}

describe('PUT /user/identity', () => {
  it("accepts SPEC.md's {idFront, idSelfie} exactly; the age confirmation is recorded when sent", async () => {
    const plain = await submitted();
    expect((await submissionRow(plain.submissionId)).ageAttested).toBeNull();
    expect(await me(plain.auth)).toMatchObject({ identityStatus: 'pending', identityReason: null });
    const attested = await submitted({ ageConfirmed: true });
    expect((await submissionRow(attested.submissionId)).ageAttested).toBe(true);
  });

  it('a new submission supersedes the pending one: the queue holds only the newest', async () => {
    const h = await submitted();
    const idFront = await uploadPrivate(h.auth);
    const idSelfie = await uploadPrivate(h.auth);
    expect((await putIdentity(h.auth, { idFront, idSelfie })).statusCode).toBe(204);
    expect((await submissionRow(h.submissionId)).status).toBe('superseded');
    const rows = await t.db.handle.db
      .select()
      .from(identitySubmissions)
      .where(eq(identitySubmissions.userId, h.userId));
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'superseded']);
    const queue = await wholeQueue(200);
    expect(queue).not.toContain(h.submissionId);
    expect(queue).toContain(rows.find((r) => r.status === 'pending')!.id);
    expect((await approve(h.submissionId)).statusCode).toBe(409);
  });
});

describe('the decision', () => {
  it('approve: the submission is decided, GET /user says approved, an audit row and a mail', async () => {
    const h = await submitted({ ageConfirmed: true });
    const res = await approve(h.submissionId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'approved',
      reason: null,
      decided: expect.any(String),
    });
    expect(await me(h.auth)).toMatchObject({ identityStatus: 'approved', identityReason: null });
    const row = await submissionRow(h.submissionId);
    expect(row).toMatchObject({ status: 'approved', decidedAt: expect.any(Date) });

    const audit = await t.app.inject({
      method: 'GET',
      url: `/admin/audit?action=identity.approve&targetId=${h.submissionId}`,
      headers: admin,
    });
    expect(audit.json()).toEqual([
      expect.objectContaining({
        action: 'identity.approve',
        targetType: 'identity_submission',
        targetId: String(h.submissionId),
        before: expect.objectContaining({ status: 'pending' }),
        after: expect.objectContaining({ status: 'approved', userId: h.userId }),
      }),
    ]);

    const [mail, ...more] = await mailsTo(h.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your identity is verified');
    expect(mail!.text).toContain(`${WEB}/account/identity`);
    expect(mail!.html).toContain('Your identity is verified');

    // Decided once: a second decision is refused, nothing changes.
    expect((await approve(h.submissionId)).statusCode).toBe(409);
    const again = await reject(h.submissionId, { reason: 'blurry' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(IDENTITY_MSG.notPending);
    expect(await me(h.auth)).toMatchObject({ identityStatus: 'approved' });
    // An approved user does not go back to pending.
    const idFront = await uploadPrivate(h.auth);
    const idSelfie = await uploadPrivate(h.auth);
    expect((await putIdentity(h.auth, { idFront, idSelfie })).statusCode).toBe(409);
    expect(await me(h.auth)).toMatchObject({ identityStatus: 'approved' });
  });

  it('reject with a listed reason and text: the user reads it, is mailed, and may submit again', async () => {
    const h = await submitted();
    const res = await reject(h.submissionId, {
      reason: 'blurry',
      text: '  The name on the ID is covered by glare.  ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'rejected',
      reason: 'blurry',
      reasonText: 'The name on the ID is covered by glare.',
    });
    const reason = `${IDENTITY_REASON_LABEL.blurry} The name on the ID is covered by glare.`;
    expect(await me(h.auth)).toMatchObject({ identityStatus: 'rejected', identityReason: reason });

    const [mail] = await mailsTo(h.email);
    expect(mail!.subject).toBe('We could not verify your identity');
    expect(mail!.text).toContain(`Reason: ${reason}`);
    expect(mail!.text).toContain(`Submit New Photos: ${WEB}/account/identity`);
    expect(mail!.html).toContain(`${WEB}/account/identity`);

    const audit = await t.app.inject({
      method: 'GET',
      url: `/admin/audit?action=identity.reject&targetId=${h.submissionId}`,
      headers: admin,
    });
    expect(audit.json()[0]).toMatchObject({
      after: { status: 'rejected', reason: 'blurry', userId: h.userId },
    });

    // Submitting again: pending, the old reason gone, a new row in the queue.
    const idFront = await uploadPrivate(h.auth);
    const idSelfie = await uploadPrivate(h.auth);
    expect((await putIdentity(h.auth, { idFront, idSelfie, ageConfirmed: true })).statusCode).toBe(
      204,
    );
    expect(await me(h.auth)).toMatchObject({ identityStatus: 'pending', identityReason: null });
    expect((await submissionRow(h.submissionId)).status).toBe('rejected');
    const rows = await t.db.handle.db
      .select()
      .from(identitySubmissions)
      .where(eq(identitySubmissions.userId, h.userId));
    const fresh = rows.find((r) => r.id !== h.submissionId)!;
    expect(fresh.status).toBe('pending');
    expect(await wholeQueue(200)).toContain(fresh.id);
    // The second one can be approved.
    expect((await approve(fresh.id)).statusCode).toBe(200);
    expect(await me(h.auth)).toMatchObject({ identityStatus: 'approved', identityReason: null });
  });

  it('reject needs a listed reason, and a text for "other"; 404 for no submission', async () => {
    const h = await submitted();
    for (const body of [
      {},
      { reason: 'ugly' },
      { reason: 'other' },
      { reason: 'other', text: ' ' },
      { reason: 'blurry', text: 'x'.repeat(501) },
    ]) {
      const res = await reject(h.submissionId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await submissionRow(h.submissionId)).status).toBe('pending');
    const other = await reject(h.submissionId, {
      reason: 'other',
      text: 'The ID is a library card.',
    });
    expect(other.statusCode).toBe(200);
    expect((await me(h.auth)).identityReason).toBe(
      `${IDENTITY_REASON_LABEL.other} The ID is a library card.`,
    );
    expect((await approve(999999)).statusCode).toBe(404);
    expect((await reject(999999, { reason: 'blurry' })).statusCode).toBe(404);
  });
});

describe('GET /admin/identities', () => {
  it('lists pending submissions oldest first, keyset paged, with who and the age confirmation', async () => {
    // Two in the same millisecond (ties go by id), then later ones.
    const a = await submitted({ ageConfirmed: true });
    const b = await submitted();
    t.clock.advance(1000);
    const c = await submitted();
    t.clock.advance(1000);
    const d = await submitted();
    await approve(c.submissionId);
    const queue = await wholeQueue(2);
    expect(new Set(queue).size).toBe(queue.length);
    const mine = queue.filter((id) => [a, b, c, d].some((s) => s.submissionId === id));
    expect(mine).toEqual([a.submissionId, b.submissionId, d.submissionId]);

    const first = await t.app.inject({
      method: 'GET',
      url: '/admin/identities?limit=200',
      headers: admin,
    });
    const item = (first.json() as { submissionId: number }[]).find(
      (i) => i.submissionId === a.submissionId,
    );
    expect(item).toEqual({
      submissionId: a.submissionId,
      userId: a.userId,
      email: a.email,
      handle: null,
      firstName: null,
      lastName: null,
      ageAttested: true,
      submitted: expect.any(String),
    });
    // Oldest first over the whole queue.
    const times = (first.json() as { submitted: string }[]).map((i) => i.submitted);
    expect([...times].sort()).toEqual(times);

    const bad = await t.app.inject({
      method: 'GET',
      url: '/admin/identities?cursor=nope',
      headers: admin,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('signed image URLs', () => {
  it('work without a session for 5 minutes, never name the media key, refuse tampering', async () => {
    const h = await submitted();
    const res = await detail(h.submissionId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain(h.idFront);
    expect(res.body).not.toContain(h.idSelfie);
    expect(body.idFrontUrl).toMatch(/^\/identity-media\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(new Date(body.expires).getTime() - t.clock.now().getTime()).toBe(300_000);

    const front = await t.app.inject({ method: 'GET', url: body.idFrontUrl });
    expect(front.statusCode).toBe(200);
    expect(front.headers['content-type']).toBe('image/webp');
    expect(front.headers['cache-control']).toBe('private, no-store');
    expect((await sharp(front.rawPayload).metadata()).format).toBe('webp');
    const selfie = await t.app.inject({ method: 'GET', url: body.idSelfieUrl });
    expect(selfie.statusCode).toBe(200);
    expect(selfie.rawPayload.equals(front.rawPayload)).toBe(false);

    // The private files are not reachable as public media.
    for (const key of [h.idFront, h.idSelfie])
      expect((await t.app.inject({ method: 'GET', url: `/media/${key}-f.webp` })).statusCode).toBe(
        404,
      );

    // Tampered: another submission id with the old MAC, a changed MAC, garbage.
    const [payload, mac] = (body.idFrontUrl as string).split('/').pop()!.split('.') as [
      string,
      string,
    ];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3600 })).toString(
      'base64url',
    );
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [
      `${forged}.${mac}`,
      `${payload}.${flipped}`,
      payload,
      'x.y.z',
      `${payload}.`,
    ])
      expect(
        (await t.app.inject({ method: 'GET', url: `/identity-media/${token}` })).statusCode,
      ).toBe(404);

    // Expired after 5 minutes.
    t.clock.advance(299_000);
    expect((await t.app.inject({ method: 'GET', url: body.idFrontUrl })).statusCode).toBe(200);
    t.clock.advance(1_000);
    const late = await t.app.inject({ method: 'GET', url: body.idFrontUrl });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe(IDENTITY_MSG.linkInvalid);
  });
});

describe('the image purge job', () => {
  it('keeps a pending submission and recent decisions untouched', async () => {
    const pending = await submitted();
    const decided = await submitted();
    await approve(decided.submissionId);
    t.clock.advance(10 * DAY);
    await t.runJob(IDENTITY_JOBS.purgeImages);
    expect((await submissionRow(pending.submissionId)).imagesDeletedAt).toBeNull();
    expect((await submissionRow(decided.submissionId)).imagesDeletedAt).toBeNull();
    expect((await detail(pending.submissionId)).json().idFrontUrl).toEqual(expect.any(String));
  });
  it('deletes the images 30 days after the decision and keeps the decision', async () => {
    const h = await submitted();
    expect((await reject(h.submissionId, { reason: 'expired' })).statusCode).toBe(200);
    const signed = (await detail(h.submissionId)).json();
    const privateDir = path.join(t.config.dataDir, 'media-private');
    const files = () =>
      fs.existsSync(privateDir)
        ? fs
            .readdirSync(privateDir, { recursive: true })
            .map(String)
            .filter((f) => f.includes(h.idFront) || f.includes(h.idSelfie))
        : [];
    expect(files().length).toBeGreaterThan(0);

    t.clock.advance(29 * DAY);
    await t.runJob(IDENTITY_JOBS.purgeImages);
    expect((await submissionRow(h.submissionId)).imagesDeletedAt).toBeNull();
    expect(files().length).toBeGreaterThan(0);

    t.clock.advance(DAY + 1000);
    await t.runJob(IDENTITY_JOBS.purgeImages);
    const row = await submissionRow(h.submissionId);
    expect(row).toMatchObject({
      status: 'rejected',
      reasonCode: 'expired',
      decidedAt: expect.any(Date),
      imagesDeletedAt: expect.any(Date),
    });
    expect(files()).toEqual([]);
    const left = await t.db.handle.db.select().from(media).where(eq(media.ownerId, h.userId));
    expect(left.filter((m) => m.key === h.idFront || m.key === h.idSelfie)).toEqual([]);
    // Sessions have expired by now: the user row and the review are read directly.
    const [user] = await t.db.handle.db.select().from(users).where(eq(users.id, h.userId));
    expect(user).toMatchObject({ identityStatus: 'rejected', idFrontKey: null, idSelfieKey: null });
    expect(user!.identityReason).toBe(IDENTITY_REASON_LABEL.expired);
    // The review still shows the decision, without images.
    const after = await t.root.services.identity.detail(h.submissionId);
    expect(after).toMatchObject({ status: 'rejected', idFrontUrl: null, idSelfieUrl: null });
    expect(after.imagesDeleted).toEqual(expect.any(String));
    // Old signed links are dead; running the job again changes nothing.
    expect((await t.app.inject({ method: 'GET', url: signed.idFrontUrl })).statusCode).toBe(404);
    await t.runJob(IDENTITY_JOBS.purgeImages);
    expect((await submissionRow(h.submissionId)).imagesDeletedAt).toEqual(row.imagesDeletedAt);
  });
});
