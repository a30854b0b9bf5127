/**
 * Compressed JSON answers. Browsers send `Accept-Encoding: br, gzip`; a feed page is ~38 KB of
 * JSON and ~6 KB as brotli, which on a phone's connection is the difference between the feed's
 * images starting early or late. Answers under 1 KB, streams (media files) and answers that
 * already carry a Content-Encoding are sent as they are.
 *
 * A payload sent many times (the cached feed page, bounty and claim pages) is compressed once per
 * encoding (`CompressedOnce`), with brotli at quality 4 on libuv's thread pool when the client
 * accepts it: within a few percent of gzip -9's size. An answer made for one request (a search
 * for a term, any other JSON answer) is compressed for that request alone: there brotli cost
 * ~1.1 ms of CPU for a 40 KB search answer, so such answers go out as gzip at level 3 through a
 * kept zlib context (`ReusedGzip`, ~80 µs, ~17 % more bytes) to every client that accepts gzip,
 * and as brotli only to those that accept nothing else (decision 0036).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ownBytes } from '../lib/own-bytes';
import { ReusedGzip } from '../lib/reused-gzip';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this many bytes compression saves less than a packet. */
export const MIN_COMPRESS_BYTES = 1024;

/** gzip level of answers made for one request (decision 0036). */
export const ONE_OFF_GZIP_LEVEL = 3;
/** One per process: answers are compressed one at a time, on the event loop. */
const oneOffGzip = new ReusedGzip(ONE_OFF_GZIP_LEVEL);

/**
 * The encoding to answer in: `prefer` (brotli unless said) when the client accepts it, else the
 * other, else none. `q=0` refuses an encoding; `*` accepts any not named.
 */
export function pickEncoding(
  acceptEncoding: string | string[] | undefined,
  prefer: Encoding = 'br',
): Encoding | null {
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
  const br = accepts('br');
  const gzip = accepts('gzip') || ((q.get('x-gzip') ?? 0) > 0 && !q.has('gzip'));
  if (prefer === 'gzip' && gzip) return 'gzip';
  return br ? 'br' : gzip ? 'gzip' : null;
}

/**
 * An answer made for one request, compressed for it: gzip through the kept context (on the
 * event loop, no encoder made), or brotli for a client that accepts only that.
 */
export function compressOneOff(body: Buffer | string, encoding: Encoding): Promise<Buffer> {
  const input = typeof body === 'string' ? Buffer.from(body) : body;
  return encoding === 'gzip' ? Promise.resolve(oneOffGzip.gzip(input)) : compress(input, 'br');
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
  /** Made for one answer (a search for a term): compressed as `compressOneOff` does. */
  readonly oneOff: boolean;
  constructor(json: string | Buffer, opts: { oneOff?: boolean } = {}) {
    this.body = typeof json === 'string' ? ownBytes(json) : json;
    this.oneOff = opts.oneOff ?? false;
  }

  /** The encoding to send it in to a client that sent `acceptEncoding`. */
  encodingFor(acceptEncoding: string | string[] | undefined): Encoding | null {
    return pickEncoding(acceptEncoding, this.oneOff ? 'gzip' : 'br');
  }

  get(encoding: Encoding): Promise<Buffer> {
    let v = this.variants.get(encoding);
    if (!v) {
      v = this.oneOff ? compressOneOff(this.body, encoding) : compress(this.body, encoding);
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
    body.body.length >= MIN_COMPRESS_BYTES && body.encodingFor(request.headers['accept-encoding']);
  if (!encoding || request.method === 'HEAD') return reply.send(body.body as never);
  const compressed = await body.get(encoding);
  return reply.header('content-encoding', encoding).send(compressed as never);
}

/**
 * Compresses the JSON answers of every route registered after it (onSend, after serialization):
 * each is made for its request, so as `compressOneOff` does.
 */
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
    const encoding = pickEncoding(request.headers['accept-encoding'], 'gzip');
    if (!encoding) return payload;
    const compressed = await compressOneOff(payload, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
