/**
 * Fault: the S3 server becomes unreachable during an upload (issue 20). The upload answers a
 * clear 503 (`{message, code}`, Retry-After) within seconds, no media row is recorded, and
 * uploads work again once the server is back; whatever files the cut-off upload had already
 * written are removed (at once, or by the media sweeper).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from '../media-fixtures';
import {
  BUCKET,
  call,
  cleanup,
  port,
  postgresSkipReason,
  signUp,
  startApi,
  startPostgres,
  startS3,
  waitFor,
  type ApiProcess,
  type PgCluster,
  type S3Server,
  type User,
} from './harness';
import { isUnavailableAnswer, mediaProblems, s3Env } from './support';

const skip = postgresSkipReason();
if (skip) console.warn(`skipping the S3 outage fault: ${skip}`);

describe.skipIf(skip)('the S3 server unreachable during an upload', () => {
  let pg: PgCluster;
  let s3: S3Server;
  let api: ApiProcess;
  let user: User;
  let image: Buffer;

  const rows = async () =>
    (await pg.query<{ n: number }>('select count(*)::int as n from media'))[0]!.n;
  const objects = async () => (await s3.list()).map((o) => o.Key!);
  const upload = () =>
    call(api.base, 'POST', '/media/image', {
      token: user.token,
      body: image,
      type: 'image/jpeg',
      timeoutMs: 20_000,
    });

  beforeAll(async () => {
    pg = await startPostgres(port(50));
    s3 = await startS3(port(51));
    api = await startApi({
      name: 's3',
      port: port(52),
      env: { DATABASE_URL: pg.url, ...s3Env(s3.endpoint, BUCKET), MEDIA_SWEEP_GRACE_SECONDS: '2' },
    });
    user = await signUp(api.base);
    image = await photo(1200, 800, 'jpeg');
  });
  afterAll(cleanup);

  it('answers 503 with {message, code} when the server goes away mid-upload, and records nothing', async () => {
    const first = await upload();
    expect(first.status).toBe(200);
    expect(await rows()).toBe(1);

    // The moment the first file of the next upload reaches the server, the server is gone.
    s3.onRequest = (req) => {
      if (req.method === 'PUT' && /\/i-/.test(req.url ?? '')) {
        s3.onRequest = null;
        void s3.stop();
      }
    };
    const cut = await upload();
    expect(isUnavailableAnswer(cut), JSON.stringify(cut.body)).toBe(true);
    expect(cut.body.code).toBe('STORAGE_UNAVAILABLE');
    expect(cut.ms).toBeLessThan(10_000);

    // Still down: refused the same way, quickly.
    const down = await upload();
    expect(isUnavailableAnswer(down), JSON.stringify(down.body)).toBe(true);
    expect(down.ms).toBeLessThan(10_000);
    expect(await rows()).toBe(1);
    console.log(`S3 down: uploads answered 503 in ${cut.ms} ms (cut mid-upload) and ${down.ms} ms`);
  });

  it('uploads work again once the server is back, and no file is left without its row', async () => {
    await s3.start();
    const again = await upload();
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await rows()).toBe(2);
    // Files written before the cut (if any) are the sweeper's: it runs at every start.
    await api.restart();
    const problems = await waitFor(
      'no orphan media objects',
      async () => ((await mediaProblems(pg, await objects())).length === 0 ? [] : null),
      30_000,
      500,
    ).catch(async (err: Error) => {
      throw new Error(
        `${err.message}: ${JSON.stringify(await mediaProblems(pg, await objects()))}`,
      );
    });
    expect(problems).toEqual([]);
    // Both images, three files each (full, thumbnail, private original).
    expect((await objects()).length).toBe(6);
  });
});
