/** The bench's wrk client (bench/wrk-drive.ts): its report parser, and a real run when installed. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { driveWrk, findWrk, parseWrk } from '../bench/wrk-drive';

const REPORT = `Running 10s test @ http://127.0.0.1:5762
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.90ms    2.11ms  41.20ms   85.12%
    Req/Sec    11.58k     1.02k   13.01k    71.00%
  Latency Distribution
     50%  812.00us
     75%    4.61ms
     90%    6.51ms
     99%   12.33ms
  115206 requests in 10.00s, 1.50GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 3
Requests/sec:  11520.68
Transfer/sec:    153.60MB
`;

describe('parseWrk', () => {
  it('reads totals, percentiles in ms, bytes, errors and non-2xx answers', () => {
    expect(parseWrk(REPORT)).toEqual({
      total: 115206,
      seconds: 10,
      p50: 0.812,
      p99: 12.33,
      mean: 3.9,
      bytes: Math.round(1.5 * 1024 ** 3),
      non2xx: 3,
      errors: 3,
    });
  });

  it('refuses a report without its latency distribution', () => {
    expect(() => parseWrk(REPORT.replace(/ {5}\d+% .*\n/g, ''))).toThrow(/no latency/);
  });

  it('refuses a report it cannot read', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(
      /unreadable/,
    );
  });
});

/** A local server that hands each request's whole body to `answer`; its port. */
async function serveBodies(
  answer: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => answer(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** As the bench's votes: a new body each request, or round again after `period` of them. */
function voteRotation(period = Infinity) {
  let k = 0;
  return {
    method: 'POST' as const,
    setupRequest: (req: object) => ({
      ...req,
      path: '/vote',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ claimId: k++ % period, votes: 1 }),
    }),
  };
}

describe.skipIf(!findWrk())('driveWrk', () => {
  it("sends the rotation's requests (method, path, headers, body) and counts non-2xx", async () => {
    const seen = new Map<string, number>();
    const { server, port } = await serveBodies((req, body, res) => {
      const key = `${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${body || '-'}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    let k = 0;
    const paths = ['/a', '/b', '/missing'];
    try {
      const r = await driveWrk(
        `http://127.0.0.1:${port}`,
        {
          method: 'POST',
          setupRequest: (req) => {
            const i = k++;
            return {
              ...req,
              path: paths[i % 3],
              headers: { 'content-type': 'application/json', authorization: `Bearer t${i % 2}` },
              body: JSON.stringify({ term: `w${i % 2}` }),
            };
          },
        },
        4,
        1,
      );
      expect(r.total).toBeGreaterThan(30);
      expect(r.errors).toBe(0);
      // A third of the rotation answers 404.
      expect(r.non2xx).toBeGreaterThan(r.total / 4);
      expect(r.non2xx).toBeLessThan(r.total / 2.5);
      expect(r.p99).toBeGreaterThanOrEqual(r.p50);
      expect(r.bytes).toBeGreaterThan(r.total * 11);
      // The rotation's six distinct requests, each as built: nothing else.
      expect([...seen.keys()].sort()).toEqual([
        'POST /a Bearer t0 {"term":"w0"}',
        'POST /a Bearer t1 {"term":"w1"}',
        'POST /b Bearer t0 {"term":"w0"}',
        'POST /b Bearer t1 {"term":"w1"}',
        'POST /missing Bearer t0 {"term":"w0"}',
        'POST /missing Bearer t1 {"term":"w1"}',
      ]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('sends requests that must not repeat once each, and refuses a run that outran them', async () => {
    const seen = new Map<string, number>();
    const { server, port } = await serveBodies((_req, body, res) => {
      seen.set(body, (seen.get(body) ?? 0) + 1);
      // ~5 ms an answer, as a vote's: a few hundred a second from 4 connections.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }, 5);
    });
    const url = `http://127.0.0.1:${port}`;
    const votes = voteRotation();
    try {
      // Read ahead for ~20,000 a second: far more than this server answers in 1 s.
      const r = await driveWrk(url, votes, 4, 1, { noRepeat: true });
      expect(r.total).toBeGreaterThan(30);
      expect(r.non2xx).toBe(0);
      expect(seen.size).toBeGreaterThanOrEqual(r.total);
      expect(Math.max(...seen.values())).toBe(1);

      // 50 distinct requests cannot fill a second: the file went round, and the run is refused.
      seen.clear();
      await expect(driveWrk(url, votes, 4, 1, { noRepeat: true, readAhead: 50 })).rejects.toThrow(
        /only 50 distinct requests were read ahead/,
      );
      expect(Math.max(...seen.values())).toBeGreaterThan(1);

      // A rotation that comes round after 20 requests (few members × claims) is refused too,
      // however many lines were read ahead.
      seen.clear();
      await expect(driveWrk(url, voteRotation(20), 4, 1, { noRepeat: true })).rejects.toThrow(
        /only 20 distinct requests were read ahead/,
      );
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
