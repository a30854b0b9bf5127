/**
 * A Server-Sent Events parser for a fetch() body (the HTML "event stream" rules): text arrives
 * in chunks that may split lines anywhere; lines end in LF, CR or CRLF; `data:` lines add up
 * (joined by LF) until a blank line dispatches the event; `id:` sets the last event id (kept
 * across events); `retry:` sets the reconnection delay; lines starting with `:` are comments
 * (heartbeats). `event:` names are kept but this product only uses the default `message`.
 */
export interface SseEvent {
  /** The last event id seen, this event's or an earlier one's ('' when none yet). */
  id: string;
  event: string;
  data: string;
}

export interface SseHandlers {
  onEvent: (event: SseEvent) => void;
  onRetry?: (ms: number) => void;
  /** Any line arrived (events, comments, heartbeats): the stream is alive. */
  onActivity?: () => void;
}

export interface SseParser {
  push: (chunk: string) => void;
  /** The id to send as `Last-Event-ID` on reconnection ('' when none yet). */
  lastEventId: () => string;
}

export function createSseParser(handlers: SseHandlers, initialId = ''): SseParser {
  let buffer = '';
  let lastId = initialId;
  let data: string[] = [];
  let eventName = '';
  let sawData = false;
  /** A chunk ended in CR: a following LF belongs to that line ending. */
  let pendingCr = false;

  function line(text: string) {
    handlers.onActivity?.();
    if (text === '') {
      if (sawData)
        handlers.onEvent({ id: lastId, event: eventName || 'message', data: data.join('\n') });
      data = [];
      eventName = '';
      sawData = false;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        data.push(value);
        sawData = true;
        break;
      case 'event':
        eventName = value;
        break;
      case 'id':
        if (!value.includes('\0')) lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) handlers.onRetry?.(Number(value));
        break;
      default:
        break;
    }
  }

  return {
    push(chunk) {
      let text = chunk;
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    lastEventId: () => lastId,
  };
}
