import { describe, expect, it, vi } from 'vitest';
import { createSseParser, type SseEvent } from './sse';

function collect(chunks: string[], initialId = '') {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const p = createSseParser(
    { onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) },
    initialId,
  );
  for (const c of chunks) p.push(c);
  return { events, retries, lastId: p.lastEventId() };
}

describe('createSseParser', () => {
  it('reads id and data, dispatching on a blank line', () => {
    const { events, lastId } = collect(['id: 7\ndata: {"type":"reset"}\n\n']);
    expect(events).toEqual([{ id: '7', event: 'message', data: '{"type":"reset"}' }]);
    expect(lastId).toBe('7');
  });

  it('joins chunks split anywhere, even inside a CRLF', () => {
    const text = 'id: 1\r\ndata: {"a":1}\r\n\r\nid: 2\r\ndata: {"b":2}\r\n\r\n';
    for (let cut = 0; cut < text.length; cut++) {
      const { events, lastId } = collect([text.slice(0, cut), text.slice(cut)]);
      expect(events.map((e) => [e.id, e.data])).toEqual([
        ['1', '{"a":1}'],
        ['2', '{"b":2}'],
      ]);
      expect(lastId).toBe('2');
    }
  });

  it('one character at a time, with CR line ends', () => {
    const text = 'data: x\rdata: y\r\r';
    const { events } = collect(text.split(''));
    expect(events).toEqual([{ id: '', event: 'message', data: 'x\ny' }]);
  });

  it('skips comments (heartbeats) but counts them as activity, and reads retry', () => {
    const activity = vi.fn();
    const events: SseEvent[] = [];
    const retries: number[] = [];
    const p = createSseParser({
      onEvent: (e) => events.push(e),
      onRetry: (ms) => retries.push(ms),
      onActivity: activity,
    });
    p.push(': ping\n\nretry: 3000\n\nretry: soon\n\n');
    expect(events).toEqual([]);
    expect(retries).toEqual([3000]);
    expect(activity).toHaveBeenCalled();
  });

  it('keeps the last id across events without one, and starts from the resumed id', () => {
    const { events, lastId } = collect(['data: a\n\n', 'id: 9\ndata: b\n\ndata: c\n\n'], '4');
    expect(events.map((e) => e.id)).toEqual(['4', '9', '9']);
    expect(lastId).toBe('9');
  });

  it('does not dispatch an event without data, and keeps a field without a colon', () => {
    const { events } = collect(['id: 3\n\ndata\n\n']);
    expect(events).toEqual([{ id: '3', event: 'message', data: '' }]);
  });

  it('keeps an incomplete event until its blank line', () => {
    const events: SseEvent[] = [];
    const p = createSseParser({ onEvent: (e) => events.push(e) });
    p.push('id: 5\ndata: {"x"');
    expect(events).toEqual([]);
    p.push(':1}\n');
    expect(events).toEqual([]);
    p.push('\n');
    expect(events).toEqual([{ id: '5', event: 'message', data: '{"x":1}' }]);
  });
});
