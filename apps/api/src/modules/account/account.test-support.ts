/** Test helpers of the account feature: media rows as the media pipeline would leave them. */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { media } from '../../db/schema';

export async function insertMedia(
  app: FastifyInstance,
  ownerId: number,
  opts: { visibility?: 'public' | 'private'; kind?: 'image' | 'video'; status?: string } = {},
): Promise<string> {
  const kind = opts.kind ?? 'image';
  const key = `${kind === 'image' ? 'i-' : 'v-'}${crypto.randomBytes(8).toString('hex')}-500x500`;
  await app.ctx.db.insert(media).values({
    key,
    ownerId,
    kind,
    visibility: opts.visibility ?? 'public',
    status: opts.status ?? 'ready',
    mime: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    bytes: 1234,
    width: 500,
    height: 500,
  });
  return key;
}
