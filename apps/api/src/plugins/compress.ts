/**
 * Compressed JSON answers. Browsers send `Accept-Encoding: br, gzip`; a feed page is ~38 KB of
 * JSON and ~6 KB as brotli, which on a phone's connection is the difference between the feed's
 * images starting early or late. Answers under 1 KB, streams (media files) and answers that
 * already carry a Content-Encoding are sent as they are.
 *
 * Brotli at quality 4 compresses a feed page in a fraction of a millisecond, on libuv's thread
 * pool, and within a few percent of gzip -9's size; gzip is the fallback for clients without
 * brotli. A payload sent many times (the cached feed page) can be compressed once per encoding
 * with `compressedOnce`.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ownBytes } from '../lib/own-bytes';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this many bytes compression saves less than a packet. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * The encoding to answer in: brotli when the client accepts it, else gzip, else none.
 * `q=0` refuses an encoding; `*` accepts any not named.
 */
export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (enc: string) => (q.get(enc) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip') || ((q.get('x-gzip') ?? 0) > 0 && !q.has('gzip'))) return 'gzip';
  return null;
}

export function compress(body: Buffer | string, encoding: Encoding): Promise<Buffer> {
  const input = typeof body === 'string' ? Buffer.from(body) : body;
  return encoding === 'br'
    ? brotli(input, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      })
    : gzip(input, { level: 6 });
}

/**
 * A body encoded once as UTF-8 and compressed at most once per encoding: for answers sent many
 * times (cached pages). Kept as bytes, not as the string: a string answer is measured and
 * encoded again on every send (Buffer.byteLength, then the socket's write), which for a 40–90
 * KB page cost a fifth of what sending it costs.
 */
export class CompressedOnce {
  private readonly variants = new Map<Encoding, Promise<Buffer>>();
  /** The JSON, UTF-8. */
  readonly body: Buffer;
  constructor(json: string | Buffer) {
    this.body = typeof json === 'string' ? ownBytes(json) : json;
  }

  get(encoding: Encoding): Promise<Buffer> {
    let v = this.variants.get(encoding);
    if (!v) {
      v = compress(this.body, encoding);
      this.variants.set(encoding, v);
      // A failure is not kept: the next answer tries again.
      v.catch(() => this.variants.delete(encoding));
    }
    return v;
  }
}

function addVary(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const list = vary === undefined ? '' : String(vary);
  if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(list))
    reply.header('vary', list ? `${list}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Sends `body` (JSON already encoded) compressed for this client when it is worth it. The
 * compression hook leaves such answers alone (they carry their Content-Encoding).
 */
export async function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: CompressedOnce,
): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8').serializer((p) => p as string);
  addVary(reply);
  const encoding =
    body.body.length >= MIN_COMPRESS_BYTES && pickEncoding(request.headers['accept-encoding']);
  if (!encoding || request.method === 'HEAD') return reply.send(body.body as never);
  const compressed = await body.get(encoding);
  return reply.header('content-encoding', encoding).send(compressed as never);
}

/** Compresses the JSON answers of every route registered after it (onSend, after serialization). */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) return payload;
    addVary(reply);
    if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304)
      return payload;
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (length < MIN_COMPRESS_BYTES) return payload;
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed = await compress(payload, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
