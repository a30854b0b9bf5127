/**
 * The load generator of `npm run bench`, in a process of its own: autocannon sending the
 * endpoints' requests (endpoints.ts) over the phase's fixtures. The bench process keeps far more
 * (the data it generated, samples, results); a client in that process spent its time collecting
 * that heap's garbage, up to a whole core under large answers, and read answers the slower for it.
 * Here the heap holds only the fixtures, and the client's CPU and garbage collection are its own
 * figures (machine-load.ts).
 *
 * `LoadClient` (used by bench.ts) forks this file; the child answers each `drive` message with
 * autocannon's figures and its own garbage-collection time during the run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import autocannon, { type Request, type Result } from 'autocannon';
import { BARE, ENDPOINTS, type Fixtures } from './endpoints';
import { driveWrk } from './wrk-drive';

type Who = 'product' | 'floor';

/** What the bench reads from an autocannon run. */
export interface DriveResult {
  requests: { total: number };
  duration: number;
  latency: { p50: number; p99: number; mean: number };
  throughput: { total: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  /** The client's garbage-collection pauses during the run (ms) and its heap after it (MB). */
  gcMs: number;
  heapMb: number;
}

type ToClient =
  | { type: 'fixtures'; fx: Fixtures }
  | { type: 'request'; endpoint: string; who: Who }
  | {
      type: 'drive';
      id: number;
      url: string;
      connections: number;
      seconds?: number;
      amount?: number;
      /** A measured run sent by wrk (wrk-drive.ts) instead of autocannon. */
      wrk?: boolean;
      /** Each request must be new (votes): wrk must not send its file round again. */
      noRepeat?: boolean;
    };
type FromClient = { id: number; result?: DriveResult; error?: string };

/** The bench's side: one client process for the whole run. */
export class LoadClient {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<number, (m: FromClient) => void>();

  constructor() {
    this.child = fork(fileURLToPath(import.meta.url), [], {
      // A young generation large enough that the objects of a response in flight die young. With
      // the default semi-spaces, under the ~40 KB search answers of the 1,000,000-claim phase the
      // client ran a major GC every ~300 requests (68–102 in a run; its GC pauses 11–12 % of the
      // run, its CPU per request doubled) and became what limited the run; with 64 MB, 9–13.
      execArgv: ['--import', 'tsx', '--max-semi-space-size=64'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: FromClient) => {
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
    this.child.on('exit', (code, signal) => {
      for (const done of this.waiting.values())
        done({ id: 0, error: `load client exited (${signal ?? code})` });
      this.waiting.clear();
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The fixtures the next requests rotate over (sent once per phase). */
  setFixtures(fx: Fixtures): void {
    this.send({ type: 'fixtures', fx });
  }

  /**
   * Builds the endpoint's request for `who`; the drives after it share it, so its rotation goes
   * on from one drive to the next (first pass, warm-up, measured run).
   */
  useRequest(endpoint: string, who: Who): void {
    this.send({ type: 'request', endpoint, who });
  }

  /**
   * `seconds` of load, or `amount` requests, from `connections` connections, no pipelining;
   * `seconds` of it sent by wrk with `wrk` (the same rotation of requests).
   */
  drive(
    url: string,
    connections: number,
    run: { seconds: number; wrk?: boolean; noRepeat?: boolean } | { amount: number },
  ): Promise<DriveResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (m) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
      this.send({ type: 'drive', id, url, connections, ...run });
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.disconnect();
    await exited;
  }

  private send(m: ToClient) {
    this.child.send(m);
  }
}

// ---- the child ----------------------------------------------------------------------------

function serve() {
  let fx: Fixtures | undefined;
  let request: Request | undefined;
  // Why no request could be built (an unknown endpoint, no fixtures): said at the next drive.
  let requestError = 'load client: no request chosen';
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  }).observe({ entryTypes: ['gc'] });
  const reply = (m: FromClient) => process.send!(m);

  process.on('message', (m: ToClient) => {
    if (m.type === 'fixtures') {
      fx = m.fx;
      request = undefined;
    } else if (m.type === 'request') {
      const ep = m.endpoint === BARE.name ? BARE : ENDPOINTS.find((e) => e.name === m.endpoint);
      request = ep && fx ? ep.request(fx, m.who) : undefined;
      requestError = `load client: no ${fx ? `endpoint ${m.endpoint}` : 'fixtures'}`;
    } else {
      if (!request) {
        reply({ id: m.id, error: requestError });
        return;
      }
      const gcBefore = gcMs;
      // The run's figures, with the client's GC pauses during it and its heap after it.
      const done = (r: Omit<DriveResult, 'gcMs' | 'heapMb'>) =>
        reply({
          id: m.id,
          result: {
            ...r,
            gcMs: Math.round((gcMs - gcBefore) * 10) / 10,
            heapMb: Math.round(process.memoryUsage().heapUsed / 1e5) / 10,
          },
        });
      const failed = (err: unknown) =>
        reply({ id: m.id, error: err instanceof Error ? err.message : String(err) });
      if (m.wrk && m.seconds !== undefined) {
        driveWrk(m.url, request, m.connections, m.seconds, { noRepeat: m.noRepeat }).then(
          (w) =>
            done({
              requests: { total: w.total },
              duration: w.seconds,
              latency: { p50: w.p50, p99: w.p99, mean: w.mean },
              throughput: { total: w.bytes },
              statusCodes: {},
              non2xx: w.non2xx,
              errors: w.errors,
            }),
          failed,
        );
        return;
      }
      autocannon({
        url: m.url,
        connections: m.connections,
        pipelining: 1,
        timeout: 30,
        requests: [request],
        ...(m.amount === undefined ? { duration: m.seconds } : { amount: m.amount }),
      }).then(
        // GC entries arrive after the pause they describe: wait a turn for the last ones.
        (r: Result) =>
          setImmediate(() => {
            const statusCodes: Record<string, number> = {};
            for (const [code, v] of Object.entries(r.statusCodeStats ?? {}))
              statusCodes[code] = v.count;
            done({
              requests: { total: r.requests.total },
              duration: r.duration,
              latency: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean },
              throughput: { total: r.throughput.total },
              statusCodes,
              non2xx: r.non2xx,
              errors: r.errors,
            });
          }),
        failed,
      );
    }
  });
  // The bench ended (or died): nothing is left to send.
  process.on('disconnect', () => process.exit(0));
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) serve();
