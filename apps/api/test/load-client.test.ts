import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures } from '../bench/endpoints';
import { LoadClient } from '../bench/load-client';

// The bench's load generator runs in a process of its own; these drive it against a tiny server.
describe('LoadClient (the bench load generator in its own process)', () => {
  const seen: string[] = [];
  const auth: (string | undefined)[] = [];
  let server: http.Server;
  let base: string;
  let client: LoadClient;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url!);
      auth.push(req.headers.authorization);
      res.writeHead(req.url!.startsWith('/bare/3') ? 404 : 200, {
        'content-type': 'application/json',
      });
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new LoadClient();
    const fx: Fixtures = {
      bountyIds: [7],
      claimIds: [1, 2, 3],
      activeClaims: [],
      roundBounties: [],
      voters: { product: [{ userId: 1, token: 'tok-a' }], floor: [] },
      oneWordTerms: [],
      twoWordTerms: [],
      fullPageTerms: [],
    };
    client.setFixtures(fx);
  });

  afterAll(async () => {
    await client.close();
    await new Promise((r) => server.close(r));
  });

  it('sends the endpoint requests and goes on with their rotation from one drive to the next', async () => {
    client.useRequest('bare', 'floor');
    const first = await client.drive(base, 1, { amount: 3 });
    expect(first.requests.total).toBe(3);
    expect(first.statusCodes).toEqual({ 200: 2, 404: 1 });
    expect(first.non2xx).toBe(1);
    expect(first.errors).toBe(0);
    expect(first.heapMb).toBeGreaterThan(0);
    expect(first.gcMs).toBeGreaterThanOrEqual(0);
    await client.drive(base, 1, { amount: 2 });
    expect(seen.splice(0)).toEqual(['/bare/1', '/bare/2', '/bare/3', '/bare/1', '/bare/2']);
  });

  it('builds reads as a member sends them (their token on each request)', async () => {
    auth.splice(0);
    client.useRequest('claim', 'product');
    const r = await client.drive(base, 1, { amount: 2 });
    expect(r.requests.total).toBe(2);
    expect(seen.splice(0)).toEqual(['/claim/1', '/claim/2']);
    expect(auth).toEqual(['Bearer tok-a', 'Bearer tok-a']);
  });

  it('runs for a duration and reports its own figures', async () => {
    const r = await client.drive(base, 2, { seconds: 1 });
    expect(r.duration).toBeGreaterThanOrEqual(1);
    expect(r.requests.total).toBeGreaterThan(10);
    expect(r.latency.p99).toBeGreaterThanOrEqual(r.latency.p50);
  });

  it('runs its process with a young generation of 64 MB semi-spaces', () => {
    // With Node's default, the client ran 68–102 major GCs in each search run at 1,000,000
    // claims and limited the run (bench/results/NOTES.md, twenty-second session).
    const argv = fs.readFileSync(`/proc/${client.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--max-semi-space-size=64');
  });

  it('answers a drive with no request built with the reason, not a hang or a crash', async () => {
    const other = new LoadClient();
    try {
      await expect(other.drive(base, 1, { amount: 1 })).rejects.toThrow('no request chosen');
      // Without fixtures, or for an endpoint the bench does not have, the drive says why, and
      // the client stays up for the next request.
      other.useRequest('bare', 'floor');
      await expect(other.drive(base, 1, { amount: 1 })).rejects.toThrow('no fixtures');
      client.useRequest('no-such-endpoint', 'product');
      await expect(client.drive(base, 1, { amount: 1 })).rejects.toThrow(
        'no endpoint no-such-endpoint',
      );
      client.useRequest('bare', 'floor');
      expect((await client.drive(base, 1, { amount: 1 })).requests.total).toBe(1);
    } finally {
      await other.close();
    }
  });
});
