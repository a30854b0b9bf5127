/**
 * Live events cross instances: a message sent through A reaches a stream held on B, and a
 * stream held through nginx (unbuffered) gets a reply sent through B at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { activeMember, creator } from '../support/session';
import { A, B, FRONT, ok, openStream } from './support';

const streams: { close(): void }[] = [];
afterEach(() => streams.splice(0).forEach((s) => s.close()));

describe('live events across instances', () => {
  it('a message sent through A arrives on a stream held on B, a reply through nginx', async () => {
    const hunter = await creator();
    const member = await activeMember();
    const onB = await openStream(B, hunter.token);
    const viaNginx = await openStream(`${FRONT}/api`, member.token);
    streams.push(onB, viaNginx);
    expect(viaNginx.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const { conversationId } = await ok<{ conversationId: number }>(A, 'POST', '/conversations', {
      token: member.token,
      body: { handle: hunter.handle },
    });
    const sentAt = Date.now();
    await ok(A, 'POST', `/conversations/${conversationId}/messages`, {
      token: member.token,
      body: { text: 'Sent through A' },
    });
    const got = await onB.next(
      (e) => e.data.type === 'message' && JSON.stringify(e.data).includes('Sent through A'),
    );
    expect(got.id).toBeGreaterThan(0);

    await ok(B, 'POST', `/conversations/${conversationId}/messages`, {
      token: hunter.token,
      body: { text: 'Reply through B' },
    });
    await viaNginx.next(
      (e) => e.data.type === 'message' && JSON.stringify(e.data).includes('Reply through B'),
    );
    // Not held back by a proxy buffer.
    expect(Date.now() - sentAt).toBeLessThan(8_000);
  });
});
