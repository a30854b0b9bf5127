/**
 * An error answered before the request body has been read: a JSON body over `bodyLimit`
 * (refused from its Content-Length, or part way through), an upload refused for its size,
 * type or caller, an unknown route with a body…
 *
 * Answering at once and closing the connection (what Fastify does for body errors, and what
 * Node does for a client that sent `Connection: close`) leaves bytes unread in the server's
 * receive buffer; the kernel then resets the connection, and a client that sends its whole
 * body before reading (most simple clients do) gets EPIPE / ECONNRESET instead of the answer.
 * So the rest of the body is read and discarded first, and the answer follows. That is
 * bounded: a body declared larger than `DRAIN_MAX_BYTES`, or still arriving past that many
 * bytes or `DRAIN_MAX_MS`, is not waited for; the answer goes out at once and the connection
 * is closed (a client reading while it sends still gets it).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Bytes of an unwanted body read and discarded before answering. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** How long an unwanted body may keep arriving before the answer goes out anyway. */
export const DRAIN_MAX_MS = 30_000;

export async function drainUnreadBody(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: { maxBytes?: number; maxMs?: number } = {},
): Promise<void> {
  const raw = request.raw;
  // `complete`: Node's parser saw the whole message; `readableEnded`: the body was read out.
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  const maxBytes = limits.maxBytes ?? DRAIN_MAX_BYTES;
  const maxMs = limits.maxMs ?? DRAIN_MAX_MS;
  const declared = Number(raw.headers['content-length']);
  if (!(Number.isFinite(declared) && declared > maxBytes)) {
    await new Promise<void>((resolve) => {
      let bytes = 0;
      const finish = () => {
        clearTimeout(timer);
        raw.off('data', onData);
        raw.off('end', finish);
        raw.off('error', finish);
        raw.off('close', finish);
        resolve();
      };
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) finish();
      };
      const timer = setTimeout(finish, maxMs);
      raw.on('data', onData);
      raw.once('end', finish);
      raw.once('error', finish);
      raw.once('close', finish);
      raw.resume();
    });
  }
  if (!raw.complete && !raw.readableEnded) {
    request.log.warn('unwanted request body too large to read: answering and closing');
    reply.header('connection', 'close');
    raw.resume();
  }
}
