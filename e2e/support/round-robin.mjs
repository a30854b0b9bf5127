// A load balancer for browser tests (issue 19: "the same with two API instances behind one
// address"): every request goes to the next API instance in turn, bodies streamed both ways,
// so a long-lived event stream stays on one instance while the calls around it alternate.
import http from 'node:http';

/** Listens on `port` (127.0.0.1) and forwards to `targets` (`http://127.0.0.1:p`) in turn. */
export function startRoundRobin({ port, targets }) {
  let next = 0;
  const counts = targets.map(() => 0);
  const server = http.createServer((req, res) => {
    const i = next++ % targets.length;
    counts[i] += 1;
    const target = new URL(targets[i]);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"upstream unavailable","code":"BAD_GATEWAY"}');
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  // Idle connections are kept longer than any pause between a spec's calls. With Node's 5 s, a
  // spec's fetch could reuse a connection at the moment the balancer closed it ("other side
  // closed", seen once in CI); clients are told the timeout and close theirs first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        counts,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}
