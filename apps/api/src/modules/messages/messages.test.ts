import { MESSAGE_MSG } from '@bountyhunt/shared/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { activeMember, insertMediaRow, type Session } from '../../../test/factories';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { giveHandle } from '../../../test/live-support';
import { enrolledAdmin } from '../../../test/admin-support';

const mails: MailMessage[] = [];
const mailer: Mailer = {
  async send(m) {
    mails.push(m);
  },
  async close() {},
};

describe('direct messages', () => {
  let t: TestApp;
  let member: Session;
  let hunter: Session;
  let memberHandle: string;
  let hunterHandle: string;

  beforeAll(async () => {
    t = await createTestApp({ parts: { mailer }, env: { RL_MESSAGE_USER: '5/60' } });
    member = await activeMember(t.app, t.root.ctx.db, t.clock.now());
    hunter = await signUp(t.app, { hunter: true });
    memberHandle = await giveHandle(t.app, member, 'm');
    hunterHandle = await giveHandle(t.app, hunter, 'h');
  });
  afterAll(() => t.close());

  const open = (s: Session, handle: string) =>
    t.app.inject({ method: 'POST', url: '/conversations', headers: s.auth, payload: { handle } });
  const send = (s: Session, id: number, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/conversations/${id}/messages`,
      headers: s.auth,
      payload,
    });

  it('needs a handle, a hunter on the other side, and not oneself', async () => {
    const nobody = await signUp(t.app);
    expect((await open(nobody, hunterHandle)).json()).toMatchObject({
      code: 'HANDLE_REQUIRED',
      message: MESSAGE_MSG.needHandle,
    });
    const otherMember = await signUp(t.app);
    const otherHandle = await giveHandle(t.app, otherMember, 'o');
    const res = await open(member, otherHandle);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGE_MSG.onlyHunters);
    expect((await open(member, memberHandle)).statusCode).toBe(400);
    expect((await open(member, 'nosuchhandle')).statusCode).toBe(404);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/conversations',
      payload: { handle: hunterHandle },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('a member writes to a hunter, the hunter replies; unread counts, pages and read receipts', async () => {
    const opened = await open(member, hunterHandle);
    expect(opened.statusCode).toBe(200);
    const id = opened.json().conversationId as number;
    // Opening again finds the same conversation, from either side (case-insensitive handle).
    expect((await open(member, hunterHandle.toUpperCase())).json().conversationId).toBe(id);
    expect((await open(hunter, memberHandle)).json().conversationId).toBe(id);

    const first = await send(member, id, { text: '  Hello there!  ' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      text: 'Hello there!',
      senderId: member.userId,
      image: null,
    });
    const image = await insertMediaRow(t.root.ctx.db, member.userId, { kind: 'image' });
    const second = await send(member, id, { text: 'A picture', image });
    expect(second.json().image).toBe(image);

    const list = await t.app.inject({ method: 'GET', url: '/conversations', headers: hunter.auth });
    expect(list.json()).toMatchObject({
      unread: 2,
      items: [
        {
          conversationId: id,
          other: { userId: member.userId, handle: memberHandle },
          lastMessage: { text: 'A picture', hasImage: true, fromMe: false },
          unread: 2,
          otherReadUpTo: second.json().messageId,
          blocked: false,
        },
      ],
    });
    const badge = await t.app.inject({
      method: 'GET',
      url: '/conversations/unread',
      headers: hunter.auth,
    });
    expect(badge.json()).toEqual({ unread: 2 });

    const read = await t.app.inject({
      method: 'POST',
      url: `/conversations/${id}/read`,
      headers: hunter.auth,
      payload: { upTo: first.json().messageId },
    });
    expect(read.json()).toEqual({ upTo: first.json().messageId });
    const memberView = await t.app.inject({
      method: 'GET',
      url: `/conversations/${id}`,
      headers: member.auth,
    });
    expect(memberView.json().otherReadUpTo).toBe(first.json().messageId);
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/conversations/unread', headers: hunter.auth })
      ).json(),
    ).toEqual({ unread: 1 });

    const reply = await send(hunter, id, { text: 'Hi! Thanks for writing.' });
    expect(reply.statusCode).toBe(200);
    // Replying is reading: the hunter's own side has nothing unread.
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/conversations/unread', headers: hunter.auth })
      ).json(),
    ).toEqual({ unread: 0 });

    const page = await t.app.inject({
      method: 'GET',
      url: `/conversations/${id}/messages?limit=2`,
      headers: member.auth,
    });
    expect(page.json().items.map((m: { text: string }) => m.text)).toEqual([
      'A picture',
      'Hi! Thanks for writing.',
    ]);
    const older = await t.app.inject({
      method: 'GET',
      url: `/conversations/${id}/messages?limit=2&before=${page.json().nextBefore}`,
      headers: member.auth,
    });
    expect(older.json()).toMatchObject({ items: [{ text: 'Hello there!' }], nextBefore: null });
  });

  it('checks text and image, and keeps strangers out of a conversation', async () => {
    const id = (await open(member, hunterHandle)).json().conversationId as number;
    expect((await send(member, id, { text: '   ' })).json().message).toBe(MESSAGE_MSG.empty);
    expect((await send(member, id, { text: 'x'.repeat(1001) })).json().message).toBe(
      MESSAGE_MSG.tooLong,
    );
    expect((await send(member, id, { text: 'x'.repeat(1000) })).statusCode).toBe(200);
    const someoneElses = await insertMediaRow(t.root.ctx.db, hunter.userId, { kind: 'image' });
    expect((await send(member, id, { text: 'hi', image: someoneElses })).statusCode).toBe(400);
    const stranger = await signUp(t.app, { hunter: true });
    await giveHandle(t.app, stranger, 's');
    for (const url of [`/conversations/${id}`, `/conversations/${id}/messages`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: stranger.auth })).statusCode).toBe(
        404,
      );
    }
    expect((await send(stranger, id, { text: 'sneaky' })).statusCode).toBe(404);
  });

  it('a block stops messages both ways until it is lifted', async () => {
    const m2 = await activeMember(t.app, t.root.ctx.db, t.clock.now());
    await giveHandle(t.app, m2, 'b');
    const id = (await open(m2, hunterHandle)).json().conversationId as number;
    const block = await t.app.inject({
      method: 'PUT',
      url: `/blocks/${m2.userId}`,
      headers: hunter.auth,
    });
    expect(block.statusCode).toBe(204);
    expect((await send(m2, id, { text: 'hello?' })).json()).toMatchObject({ code: 'BLOCKED' });
    expect((await send(hunter, id, { text: 'hello?' })).statusCode).toBe(403);
    const view = await t.app.inject({
      method: 'GET',
      url: `/conversations/${id}`,
      headers: m2.auth,
    });
    expect(view.json()).toMatchObject({ blocked: false, blockedByOther: true });
    await t.app.inject({ method: 'DELETE', url: `/blocks/${m2.userId}`, headers: hunter.auth });
    expect((await send(m2, id, { text: 'hello again' })).statusCode).toBe(200);
  });

  it('rate-limits each sender', async () => {
    const m3 = await activeMember(t.app, t.root.ctx.db, t.clock.now());
    await giveHandle(t.app, m3, 'r');
    const id = (await open(m3, hunterHandle)).json().conversationId as number;
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await send(m3, id, { text: `#${i}` })).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.slice(5)).toEqual([429, 429]);
  });

  it('mails an unread message after 15 minutes, at most once per conversation per hour', async () => {
    const m4 = await activeMember(t.app, t.root.ctx.db, t.clock.now());
    const h4 = await signUp(t.app, { hunter: true });
    const h4Handle = await giveHandle(t.app, h4, 'q');
    await giveHandle(t.app, m4, 'p');
    const id = (await open(m4, h4Handle)).json().conversationId as number;
    await send(m4, id, { text: 'Are you there?' });
    const mailsTo = () => mails.filter((m) => m.to === h4.email);
    await t.runJob('messages.unread-mail');
    expect(mailsTo()).toHaveLength(0);
    t.clock.advance(16 * 60_000);
    await t.runJob('messages.unread-mail');
    expect(mailsTo()).toHaveLength(1);
    const mail = mailsTo()[0]!;
    expect(mail.subject).toMatch(/^New message from @p/);
    expect(mail.text).toContain('Are you there?');
    expect(mail.text).toContain(`/message/${id}`);
    expect(mail.headers?.['List-Unsubscribe']).toMatch(/\/notifications\/unsubscribe\?u=/);
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // More messages within the hour: no second mail yet; the same batch is never mailed twice.
    await send(m4, id, { text: 'Hello??' });
    t.clock.advance(20 * 60_000);
    await t.runJob('messages.unread-mail');
    expect(mailsTo()).toHaveLength(1);
    // Read, then a new message: a new batch, mailed once the hour since the last mail has passed.
    const last = (
      await t.app.inject({ method: 'GET', url: `/conversations/${id}/messages`, headers: h4.auth })
    )
      .json()
      .items.at(-1).messageId;
    await t.app.inject({
      method: 'POST',
      url: `/conversations/${id}/read`,
      headers: h4.auth,
      payload: { upTo: last },
    });
    await send(m4, id, { text: 'One more thing' });
    t.clock.advance(16 * 60_000);
    await t.runJob('messages.unread-mail');
    expect(mailsTo()).toHaveLength(1);
    t.clock.advance(30 * 60_000);
    await t.runJob('messages.unread-mail');
    expect(mailsTo()).toHaveLength(2);
    // With message mails turned off, nothing is mailed.
    await t.app.inject({
      method: 'PUT',
      url: '/notifications/settings',
      headers: h4.auth,
      payload: { settings: [{ type: 'message', inApp: true, email: false }] },
    });
    await send(m4, id, { text: 'Last one' });
    t.clock.advance(2 * 3600_000);
    await t.runJob('messages.unread-mail');
    expect(mailsTo()).toHaveLength(2);
  });
});

describe('reporting a message', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('only its recipient can report it; an admin removing it shows "removed" to both parties', async () => {
    t = await createTestApp();
    const member = await activeMember(t.app, t.root.ctx.db, t.clock.now());
    const hunter = await signUp(t.app, { hunter: true });
    await giveHandle(t.app, member, 'm');
    const hunterHandle = await giveHandle(t.app, hunter, 'h');
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/conversations',
        headers: member.auth,
        payload: { handle: hunterHandle },
      })
    ).json().conversationId as number;
    const msg = (
      await t.app.inject({
        method: 'POST',
        url: `/conversations/${id}/messages`,
        headers: member.auth,
        payload: { text: 'buy my stuff' },
      })
    ).json();
    const report = (s: Session) =>
      t.app.inject({
        method: 'POST',
        url: '/report',
        headers: s.auth,
        payload: { targetType: 'message', targetId: msg.messageId, reason: 'spam' },
      });
    const stranger = await signUp(t.app);
    expect((await report(stranger)).statusCode).toBe(404);
    expect((await report(member)).statusCode).toBe(404);
    expect((await report(hunter)).statusCode).toBe(200);

    const admin = await enrolledAdmin(t);
    const queue = await t.app.inject({
      method: 'GET',
      url: '/admin/reports?targetType=message',
      headers: admin.auth,
    });
    expect(queue.json()[0]).toMatchObject({
      targetType: 'message',
      targetId: msg.messageId,
      item: { title: 'buy my stuff', ownerId: member.userId, hidden: false },
    });
    const hide = await t.app.inject({
      method: 'POST',
      url: `/admin/reports/message/${msg.messageId}/hide`,
      headers: admin.auth,
    });
    expect(hide.statusCode).toBe(200);
    for (const s of [member, hunter]) {
      const page = await t.app.inject({
        method: 'GET',
        url: `/conversations/${id}/messages`,
        headers: s.auth,
      });
      expect(page.json().items[0]).toMatchObject({
        text: MESSAGE_MSG.removed,
        image: null,
        removed: true,
      });
      const list = await t.app.inject({ method: 'GET', url: '/conversations', headers: s.auth });
      expect(list.json().items[0].lastMessage.text).toBe(MESSAGE_MSG.removed);
    }
  });
});
