import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_KEY, VIDEO_KEY } from '@bountyhunt/shared/media-keys';
import { queryRows } from '../../db/client';
import { assertObjectName } from '../../storage/storage';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import {
  FFMPEG,
  FFPROBE,
  listFiles,
  makeVideo,
  photo,
  tmpFile,
} from '../../../test/media-fixtures';
import { requireMedia } from './media.service';

const env = { FFMPEG_PATH: FFMPEG, FFPROBE_PATH: FFPROBE };

let t: TestApp;
let auth: { authorization: string };
let userId: number;
let other: { authorization: string; userId: number };

beforeAll(async () => {
  t = await createTestApp({ env });
  const u = await signUp(t.app, { hunter: true });
  auth = u.auth;
  userId = u.userId;
  const o = await signUp(t.app);
  other = { authorization: o.auth.authorization, userId: o.userId };
});
afterAll(async () => t?.close());

const publicDir = () => path.join(t.config.dataDir, 'media');
const privateDir = () => path.join(t.config.dataDir, 'media-private');
const tmpDir = () => path.join(t.config.dataDir, 'tmp');

function upload(
  kind: 'image' | 'video' | 'identity',
  body: Buffer | Readable,
  type: string,
  headers = auth,
) {
  return t.app.inject({
    method: 'POST',
    url: `/media/${kind}`,
    headers: { ...headers, 'content-type': type },
    payload: body,
  });
}

async function drainJobs() {
  return t.runJobs();
}

async function mediaCount(): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    t.app.root.ctx.db,
    sql`select count(*)::int as n from media`,
  );
  return Number(rows[0]!.n);
}

/** Files on disk and rows in the table, to prove a refused upload leaves nothing behind. */
async function snapshot() {
  return {
    public: listFiles(publicDir()),
    private: listFiles(privateDir()),
    tmp: listFiles(tmpDir()),
    rows: await mediaCount(),
  };
}

describe('POST /media/image', () => {
  it.each([
    ['jpeg', 2400, 1600, 1920, 1280],
    ['png', 2400, 1600, 1920, 1280],
    ['webp', 1600, 2400, 1280, 1920],
    ['gif', 600, 400, 600, 400],
    ['avif', 2100, 700, 1920, 640],
  ] as const)(
    'accepts %s and makes -f.webp (≤1920) and -t.webp (500×500) before answering',
    async (format, w, h, fw, fh) => {
      const bytes = await photo(w, h, format);
      const res = await upload('image', bytes, `image/${format}`);
      expect(res.statusCode, res.body).toBe(200);
      const { key } = res.json();
      expect(key).toMatch(IMAGE_KEY);
      expect(key.endsWith(`-${fw}x${fh}`)).toBe(true);

      const full = await t.app.inject({ method: 'GET', url: `/media/${key}-f.webp` });
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe('image/webp');
      expect(full.headers['cache-control']).toContain('max-age=31536000');
      const fm = await sharp(full.rawPayload).metadata();
      expect([fm.format, fm.width, fm.height]).toEqual(['webp', fw, fh]);

      const thumb = await t.app.inject({ method: 'GET', url: `/media/${key}-t.webp` });
      const tm = await sharp(thumb.rawPayload).metadata();
      expect([tm.format, tm.width, tm.height]).toEqual(['webp', 500, 500]);

      // The original is kept, privately: never under /media/.
      expect(fs.existsSync(path.join(privateDir(), 'originals', key))).toBe(true);
      const orig = await t.app.inject({ method: 'GET', url: `/media/originals/${key}` });
      expect(orig.statusCode).toBe(404);
    },
    60_000,
  );

  it('a panorama gets a sharp thumbnail: 500 × 500 made from the original, not the 1920 copy', async () => {
    const bytes = await photo(4000, 600, 'jpeg');
    const res = await upload('image', bytes, 'image/jpeg');
    expect(res.statusCode, res.body).toBe(200);
    const { key } = res.json();
    expect(key).toMatch(/-1920x288$/);
    const thumb = fs.readFileSync(path.join(publicDir(), `${key}-t.webp`));
    expect(await sharp(thumb).metadata()).toMatchObject({
      format: 'webp',
      width: 500,
      height: 500,
    });
    // The same as cutting it from the original (the 1920 copy is only 288 px high).
    const fromOriginal = await sharp(bytes)
      .resize(500, 500, { fit: 'cover', position: 'attention' })
      .webp({ quality: 80, effort: 2 })
      .toBuffer();
    expect(thumb.equals(fromOriginal)).toBe(true);
  });

  it('keeps small images at their size and encodes it in the key', async () => {
    const res = await upload('image', await photo(640, 360, 'png'), 'image/png');
    expect(res.json().key).toMatch(/-640x360$/);
  });

  it('strips EXIF (GPS, camera) from published files and honours the orientation', async () => {
    const bytes = await photo(600, 400, 'jpeg', { exifGps: true, orientation: 6 });
    expect(bytes.includes(Buffer.from('SecretModel-42'))).toBe(true);
    const res = await upload('image', bytes, 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const { key } = res.json();
    // Orientation 6 turns a 600×400 landscape into a 400×600 portrait.
    expect(key).toMatch(/-400x600$/);
    for (const suffix of ['-f.webp', '-t.webp']) {
      const file = fs.readFileSync(path.join(publicDir(), `${key}${suffix}`));
      const meta = await sharp(file).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(file.includes(Buffer.from('SecretModel-42'))).toBe(false);
      expect(file.includes(Buffer.from('BountyCam'))).toBe(false);
    }
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/media/image',
      headers: { 'content-type': 'image/png' },
      payload: await photo(10, 10, 'png'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  });
});

describe('bad inputs: the right 4xx and nothing left behind', () => {
  const jpegPlusHtml = async () =>
    Buffer.concat([
      await photo(64, 64, 'jpeg'),
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    ]);

  /** A PNG whose header claims 100000 × 100000 pixels over a few bytes of data. */
  function pngBomb(): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(td) >>> 0);
      return Buffer.concat([len, td, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(100_000, 0);
    ihdr.writeUInt32BE(100_000, 4);
    ihdr[8] = 1; // bit depth
    ihdr[9] = 0; // greyscale
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }

  const cases: [
    string,
    () => Promise<[kind: 'image' | 'video', body: Buffer, type: string]>,
    number,
  ][] = [
    [
      'text declared as JPEG',
      async () => ['image', Buffer.from('hello, not an image at all'), 'image/jpeg'],
      415,
    ],
    [
      'PNG bytes declared as JPEG',
      async () => ['image', await photo(50, 50, 'png'), 'image/jpeg'],
      415,
    ],
    [
      'SVG (not accepted)',
      async () => [
        'image',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        'image/svg+xml',
      ],
      415,
    ],
    ['JSON content type', async () => ['image', Buffer.from('{"a":1}'), 'application/json'], 415],
    ['no content type', async () => ['image', await photo(50, 50, 'png'), ''], 415],
    [
      'truncated JPEG',
      async () => {
        const b = await photo(800, 600, 'jpeg');
        return ['image', b.subarray(0, b.length / 3), 'image/jpeg'];
      },
      415,
    ],
    [
      'truncated PNG',
      async () => {
        const b = await photo(300, 300, 'png');
        return ['image', b.subarray(0, b.length / 2), 'image/png'];
      },
      415,
    ],
    ['zero bytes image', async () => ['image', Buffer.alloc(0), 'image/png'], 400],
    ['PNG claiming 10^10 pixels', async () => ['image', pngBomb(), 'image/png'], 413],
    [
      'GIF/JavaScript polyglot',
      async () => [
        'image',
        Buffer.from('GIF89a/*\x00\x00\x00\x00*/=1;alert(document.domain)//'),
        'image/gif',
      ],
      415,
    ],
    [
      'video sent to the image endpoint',
      async () => ['image', makeVideo(tmpFile('a.mp4')), 'video/mp4'],
      415,
    ],
    [
      'image sent to the video endpoint',
      async () => ['video', await photo(50, 50, 'png'), 'video/mp4'],
      415,
    ],
    [
      'text declared as MP4',
      async () => ['video', Buffer.from('not a video, just text'), 'video/mp4'],
      415,
    ],
    ['MP4 declared as WebM', async () => ['video', makeVideo(tmpFile('b.mp4')), 'video/webm'], 415],
    [
      'truncated MP4 (index lost)',
      async () => {
        const b = makeVideo(tmpFile('c.mp4'));
        return ['video', b.subarray(0, Math.floor(b.length / 2)), 'video/mp4'];
      },
      415,
    ],
    ['zero bytes video', async () => ['video', Buffer.alloc(0), 'video/mp4'], 400],
  ];

  it.each(cases)(
    '%s',
    async (_name, make, status) => {
      const [kind, body, type] = await make();
      const before = await snapshot();
      const res = await upload(kind, body, type);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ message: expect.any(String), code: expect.any(String) });
      expect(res.body).not.toMatch(/\/tmp|at \w+ \(/);
      expect(await snapshot()).toEqual(before);
      // A refused video's preview job (queued before ffprobe read the file) finds no row and
      // leaves nothing behind either.
      await drainJobs();
      expect(await snapshot()).toEqual(before);
    },
    60_000,
  );

  it('a JPEG with HTML appended is re-encoded: nothing of the payload is published', async () => {
    const res = await upload('image', await jpegPlusHtml(), 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const { key } = res.json();
    for (const suffix of ['-f.webp', '-t.webp']) {
      const file = fs.readFileSync(path.join(publicDir(), `${key}${suffix}`));
      expect(file.includes(Buffer.from('<script>'))).toBe(false);
    }
  });

  it('size and pixel limits come from config: 413, also when streamed without a length', async () => {
    const small = await createTestApp({
      env: {
        ...env,
        MAX_IMAGE_BYTES: '50000',
        MAX_VIDEO_BYTES: '60000',
        MAX_IMAGE_PIXELS: '1000000',
      },
    });
    try {
      const u = await signUp(small.app);
      const big = await photo(800, 800, 'png');
      expect(big.length).toBeGreaterThan(50_000);
      const send = (url: string, payload: Buffer | Readable, type: string) =>
        small.app.inject({
          method: 'POST',
          url,
          headers: { ...u.auth, 'content-type': type },
          payload,
        });
      const r1 = await send('/media/image', big, 'image/png');
      expect(r1.statusCode).toBe(413);
      expect(r1.json().message).toMatch(/too large/);
      // Chunked: no Content-Length, so the limit is enforced while streaming.
      const r2 = await send(
        '/media/image',
        Readable.from([big.subarray(0, 30_000), big.subarray(30_000)]),
        'image/png',
      );
      expect(r2.statusCode).toBe(413);
      const plain = await sharp({
        create: { width: 1200, height: 1000, channels: 3, background: '#369' },
      })
        .jpeg()
        .toBuffer();
      expect(plain.length).toBeLessThan(50_000);
      const r3 = await send('/media/image', plain, 'image/jpeg');
      expect(r3.statusCode).toBe(413);
      expect(r3.json().message).toMatch(/pixels/);
      const vid = makeVideo(tmpFile('d.mp4'), { seconds: 4, size: '640x480' });
      expect(vid.length).toBeGreaterThan(60_000);
      expect((await send('/media/video', vid, 'video/mp4')).statusCode).toBe(413);
      expect(listFiles(path.join(small.config.dataDir, 'media'))).toEqual([]);
      expect(listFiles(path.join(small.config.dataDir, 'media-private'))).toEqual([]);
      expect(listFiles(path.join(small.config.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await small.close();
    }
  }, 60_000);
});

describe('serving /media/*', () => {
  it('refuses listings, dotfiles, traversal and unknown files', async () => {
    const res = await upload('image', await photo(100, 100, 'png'), 'image/png');
    const { key } = res.json();
    fs.writeFileSync(path.join(t.config.dataDir, 'secret.key'), 'top secret');
    fs.writeFileSync(path.join(publicDir(), '.tmp-partial'), 'half');
    const urls = [
      '/media/',
      '/media',
      '/media/.tmp-partial',
      '/media/../secret.key',
      '/media/%2e%2e/secret.key',
      '/media/..%2fsecret.key',
      '/media/%2e%2e%2fsecret.key',
      '/media/..%5csecret.key',
      `/media/..%2fmedia-private%2foriginals%2f${key}`,
      `/media/originals/${key}`,
      '/media/%00.webp',
      '/media/nope-f.webp',
    ];
    for (const url of urls) {
      const r = await t.app.inject({ method: 'GET', url });
      expect([400, 403, 404], url).toContain(r.statusCode);
      expect(r.body).not.toContain('top secret');
      expect(r.body).not.toContain('half');
    }
    fs.rmSync(path.join(publicDir(), '.tmp-partial'));
  });

  it('status refuses keys of the wrong shape', async () => {
    for (const key of ['..%2f..%2fsecret', 'i-..', 'x'.repeat(70), '%2e%2e']) {
      const r = await t.app.inject({ method: 'GET', url: `/media/${key}/status` });
      expect([400, 404]).toContain(r.statusCode);
    }
  });

  it('storage refuses object names with path tricks', () => {
    for (const name of ['../x', 'a/../../b', '/etc/passwd', '.hidden', 'a\\b', 'x\0y', '']) {
      expect(() => assertObjectName(name), name).toThrow();
    }
    expect(() => assertObjectName('originals/i-abc')).not.toThrow();
  });
});

describe('POST /media/video', () => {
  it.each([
    ['mp4', 'video/mp4', 12, '1280x720', 854, 480],
    ['mov', 'video/quicktime', 3, '640x360', 640, 360],
    ['webm', 'video/webm', 3, '320x240', 320, 240],
  ] as const)(
    '%s: answers at once, a job makes a muted ≤480p ≤10 s faststart preview and a poster',
    async (format, type, seconds, size, pw, ph) => {
      const bytes = makeVideo(tmpFile(`v.${format}`), { format, seconds, size, rate: 10 });
      await drainJobs(); // earlier tests' jobs: the count below is this upload's
      const res = await upload('video', bytes, type);
      expect(res.statusCode, res.body).toBe(200);
      const { key } = res.json();
      expect(key).toMatch(VIDEO_KEY);
      const before = await t.app.inject({ method: 'GET', url: `/media/${key}/status` });
      const [ow, oh] = size.split('x').map(Number);
      // The original's size (ffprobe's, read after the job was queued) until the preview's.
      expect(before.json()).toMatchObject({
        key,
        kind: 'video',
        status: 'processing',
        error: null,
        width: ow,
        height: oh,
      });
      expect(fs.existsSync(path.join(publicDir(), `${key}-p.mp4`))).toBe(false);

      expect(await drainJobs()).toBe(1);
      const after = await t.app.inject({ method: 'GET', url: `/media/${key}/status` });
      expect(after.json()).toMatchObject({ status: 'ready', width: pw, height: ph });

      const preview = path.join(publicDir(), `${key}-p.mp4`);
      const probe = JSON.parse(
        (await import('node:child_process'))
          .execFileSync(FFPROBE, [
            '-v',
            'error',
            '-print_format',
            'json',
            '-show_format',
            '-show_streams',
            preview,
          ])
          .toString(),
      );
      expect(probe.streams.map((s: { codec_type: string }) => s.codec_type)).toEqual(['video']);
      expect(probe.streams[0].codec_name).toBe('h264');
      expect(probe.streams[0].height).toBeLessThanOrEqual(480);
      expect(Number(probe.format.duration)).toBeLessThanOrEqual(10.2);
      expect(probe.format.tags?.title).toBeUndefined();
      expect(probe.format.tags?.location).toBeUndefined();
      const data = fs.readFileSync(preview);
      expect(data.indexOf('moov')).toBeLessThan(data.indexOf('mdat'));

      const mp4 = await t.app.inject({
        method: 'GET',
        url: `/media/${key}-p.mp4`,
        headers: { range: 'bytes=0-99' },
      });
      expect(mp4.statusCode).toBe(206);
      expect(mp4.headers['content-type']).toBe('video/mp4');
      expect(mp4.headers['content-range']).toBe(`bytes 0-99/${data.length}`);
      expect(mp4.rawPayload.length).toBe(100);

      const poster = await sharp(
        fs.readFileSync(path.join(publicDir(), `${key}-t.webp`)),
      ).metadata();
      expect([poster.format, poster.width, poster.height]).toEqual(['webp', 500, 500]);
    },
    120_000,
  );

  it('a portrait video keeps its orientation with the short side at most 480', async () => {
    const res = await upload(
      'video',
      makeVideo(tmpFile('p.mp4'), { size: '720x1280', rate: 10 }),
      'video/mp4',
    );
    await drainJobs();
    const st = await t.app.inject({ method: 'GET', url: `/media/${res.json().key}/status` });
    expect(st.json()).toMatchObject({ status: 'ready', width: 480, height: 854 });
  }, 120_000);

  it('short videos get a poster too: from the middle, and when the upload overstated the length', async () => {
    const media = t.app.root.services.media;
    // The queued job (the length ffprobe read at upload: the frame at 0.3 s), then a run told
    // a longer length than the video has (no frame at 1 s: the poster comes from the preview).
    for (const told of [null, 30]) {
      const res = await upload(
        'video',
        makeVideo(tmpFile('s.mp4'), { seconds: 0.6, size: '320x240', rate: 10 }),
        'video/mp4',
      );
      const { key } = res.json();
      // Before the recorded job, which then finds the video ready and does nothing.
      if (told !== null) await media.processVideo(key, { seconds: told });
      await drainJobs();
      const st = await t.app.inject({ method: 'GET', url: `/media/${key}/status` });
      expect(st.json()).toMatchObject({ status: 'ready', width: 320, height: 240 });
      const poster = await sharp(
        fs.readFileSync(path.join(publicDir(), `${key}-t.webp`)),
      ).metadata();
      expect([poster.format, poster.width, poster.height]).toEqual(['webp', 500, 500]);
    }
  }, 120_000);

  it('a corrupt video ends as failed with a reason, never a crash', async () => {
    const file = tmpFile('fs.mp4');
    // moov first (faststart), then cut: ffprobe reads it, the frames are gone.
    makeVideo(file, { seconds: 3, silent: true, faststart: true });
    const bytes = fs.readFileSync(file).subarray(0, 3000);
    const res = await upload('video', bytes, 'video/mp4');
    expect(res.statusCode, res.body).toBe(200);
    const { key } = res.json();
    await drainJobs();
    const st = (await t.app.inject({ method: 'GET', url: `/media/${key}/status` })).json();
    expect(st.status).toBe('failed');
    expect(st.error).toMatch(/\w+/);
    expect(st.error).not.toContain(t.config.dataDir);
    expect(fs.existsSync(path.join(publicDir(), `${key}-p.mp4`))).toBe(false);
    // Claims and posts refuse it.
    await expect(requireMedia(t.app.root.ctx, key, { ownerId: userId })).rejects.toMatchObject({
      status: 400,
    });
  }, 60_000);

  it('without ffmpeg: a clear warning at start, 503 for videos, images still work', async () => {
    const bare = await createTestApp({
      env: { FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' },
    });
    try {
      expect(bare.logs.join('\n')).toMatch(/ffmpeg\/ffprobe not found/);
      const u = await signUp(bare.app);
      const v = await bare.app.inject({
        method: 'POST',
        url: '/media/video',
        headers: { ...u.auth, 'content-type': 'video/mp4' },
        payload: makeVideo(tmpFile('n.mp4')),
      });
      expect(v.statusCode).toBe(503);
      expect(v.json().message).toMatch(/Video uploads are unavailable/);
      const i = await bare.app.inject({
        method: 'POST',
        url: '/media/image',
        headers: { ...u.auth, 'content-type': 'image/png' },
        payload: await photo(40, 40, 'png'),
      });
      expect(i.statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  }, 60_000);
});

describe('identity documents and the media service', () => {
  it('POST /media/identity keeps the image private', async () => {
    const res = await upload(
      'identity',
      await photo(800, 500, 'jpeg', { exifGps: true }),
      'image/jpeg',
    );
    expect(res.statusCode).toBe(200);
    const { key } = res.json();
    expect(listFiles(publicDir()).some((f) => f.startsWith(key))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/media/${key}-f.webp` })).statusCode).toBe(
      404,
    );
    // Only its owner sees its status.
    expect((await t.app.inject({ method: 'GET', url: `/media/${key}/status` })).statusCode).toBe(
      404,
    );
    const mine = await t.app.inject({ method: 'GET', url: `/media/${key}/status`, headers: auth });
    expect(mine.json()).toMatchObject({ status: 'ready', kind: 'image' });
    await expect(
      requireMedia(t.app.root.ctx, key, { ownerId: userId, visibility: 'private' }),
    ).resolves.toMatchObject({ key });
    // Never usable as public media (a claim, a picture).
    await expect(requireMedia(t.app.root.ctx, key, { ownerId: userId })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('requireMedia checks existence, owner and kind', async () => {
    const { key } = (await upload('image', await photo(60, 60, 'png'), 'image/png')).json();
    await expect(
      requireMedia(t.app.root.ctx, key, { ownerId: userId, kind: 'image' }),
    ).resolves.toMatchObject({ key, status: 'ready' });
    await expect(
      requireMedia(t.app.root.ctx, key, { ownerId: other.userId }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'MEDIA_INVALID',
    });
    await expect(requireMedia(t.app.root.ctx, key, { kind: 'video' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(requireMedia(t.app.root.ctx, 'i-nope', {})).rejects.toMatchObject({ status: 400 });
    await expect(requireMedia(t.app.root.ctx, "'; drop table media; --", {})).rejects.toMatchObject(
      {
        status: 400,
      },
    );
  });
});
