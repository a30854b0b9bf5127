import type { Readable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import { errorAnswer } from '@bountyhunt/shared/users';
import { MEDIA_KEY } from '@bountyhunt/shared/media-keys';
import { mediaStatusAnswer, uploadAnswer } from '@bountyhunt/shared/media';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors';
import { optionalActor, requireActor } from '../../plugins/auth';
import { DiskStorage } from '../../storage/disk-storage';
import { assertDeclaredType, maxBytes, tooLarge, type MediaKind } from './media.intake';
import { getMedia, statusAnswer } from './media.service';

const uploadResponses = {
  200: uploadAnswer,
  400: errorAnswer,
  401: errorAnswer,
  413: errorAnswer,
  415: errorAnswer,
  429: errorAnswer,
  503: errorAnswer,
};

/** Media routes (SPEC.md §7, CONTRACT.md "Media"): raw-byte uploads, status, and /media/* files. */
const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx, rateLimiter } = app.root;
  const media = app.root.services.media;
  const { storage, video } = media;

  // Uploads are raw bytes with their own Content-Type: hand the request stream to the
  // service untouched (this plugin only; other routes keep their JSON parser).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.addHook('onReady', async () => {
    if (!(await video.isAvailable())) {
      app.log.warn(
        { ffmpeg: ctx.config.FFMPEG_PATH, ffprobe: ctx.config.FFPROBE_PATH },
        'ffmpeg/ffprobe not found: video uploads will answer 503 until they are installed (images keep working)',
      );
    }
  });

  /** Who, how much and what type, all before a byte of the body is read. */
  async function admit(request: FastifyRequest, kind: MediaKind) {
    const actor = await requireActor(request);
    await rateLimiter.consume(
      request.ip,
      `upload-user:${actor.userId}`,
      ctx.config.rateLimits.uploadUser,
    );
    assertDeclaredType(kind, request.headers['content-type']);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes(kind, ctx.config)) {
      // The service would refuse it too; no need to receive it first.
      throw tooLarge(kind, ctx.config);
    }
    return actor;
  }

  app.post(
    '/media/image',
    {
      schema: {
        tags: ['media'],
        summary: 'Upload one image (raw bytes); answers once -f.webp and -t.webp exist',
        security: [{ bearer: [] }],
        response: uploadResponses,
      },
    },
    async (request) => {
      const actor = await admit(request, 'image');
      const row = await media.storeImage(request.body as Readable, {
        ownerId: actor.userId,
        contentType: request.headers['content-type'],
      });
      return { key: row.key };
    },
  );

  app.post(
    '/media/identity',
    {
      schema: {
        tags: ['media'],
        summary: 'Upload an identity document image; kept private, never under MEDIA_URL',
        security: [{ bearer: [] }],
        response: uploadResponses,
      },
    },
    async (request) => {
      const actor = await admit(request, 'image');
      const row = await media.storeImage(request.body as Readable, {
        ownerId: actor.userId,
        contentType: request.headers['content-type'],
        visibility: 'private',
      });
      return { key: row.key };
    },
  );

  app.post(
    '/media/video',
    {
      schema: {
        tags: ['media'],
        summary: 'Upload one video (raw bytes); answers at once, a job makes -p.mp4 and -t.webp',
        security: [{ bearer: [] }],
        response: uploadResponses,
      },
    },
    async (request) => {
      const actor = await admit(request, 'video');
      await media.assertVideoAvailable();
      const row = await media.storeVideo(request.body as Readable, {
        ownerId: actor.userId,
        contentType: request.headers['content-type'],
      });
      return { key: row.key };
    },
  );

  app.get(
    '/media/:key/status',
    {
      schema: {
        tags: ['media'],
        summary: 'processing | ready | failed (with a reason) for one media key',
        params: z.object({ key: z.string().max(64) }),
        response: { 200: mediaStatusAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { key } = request.params;
      if (!MEDIA_KEY.test(key)) throw notFound();
      const row = await getMedia(ctx, key);
      if (!row) throw notFound();
      if (row.visibility === 'private') {
        const actor = await optionalActor(request);
        if (!actor || actor.userId !== row.ownerId) throw notFound();
      }
      return statusAnswer(row);
    },
  );

  // Files on local disk: long-lived caching (a key's bytes never change), content types from
  // the extension, ranges for mp4; no listing, no dotfiles (in-progress writes), no traversal.
  if (storage instanceof DiskStorage) {
    await app.register(fastifyStatic, {
      root: storage.publicDir,
      prefix: '/media/',
      decorateReply: false,
      list: false,
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      maxAge: '365d',
      immutable: true,
      acceptRanges: true,
      etag: true,
      lastModified: true,
    });
  }
};

export default mediaRoutes;
