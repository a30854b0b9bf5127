/**
 * Route handlers still running, so that a shutdown closes the database only after them.
 *
 * `app.close()` waits for the connections it still has. A request whose client went away has
 * none left, yet its handler runs on: a search whose client gave up between its walk and the
 * build of its bounties asked the pool for a client after the shutdown had closed it, and the log
 * showed "request failed" for a request nobody was waiting for. Every handler is counted from
 * its start until it returns or its promise settles, whatever became of its connection; a
 * stream's handler returns once the stream is open, so open streams are not waited for (the
 * live service closes them).
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

export class InFlight {
  private running = 0;
  private waiters: (() => void)[] = [];

  /** Handlers running now. */
  get count(): number {
    return this.running;
  }

  /** `fn` counted until it returns, or until the promise it returns settles. */
  track<T>(fn: () => T): T {
    this.running += 1;
    let result: T;
    try {
      result = fn();
    } catch (err) {
      this.done();
      throw err;
    }
    if (isThenable(result)) {
      result.then(
        () => this.done(),
        () => this.done(),
      );
    } else this.done();
    return result;
  }

  /** Resolves true once no handler runs, or false after `timeoutMs` with some still running. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(wake);
    });
  }

  private done(): void {
    this.running -= 1;
    if (this.running > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (
    typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function'
  );
}

/**
 * Counts every route registered on `app` after this call (and in its child plugins) in
 * `inFlight`. Register it before the routes.
 */
export function trackHandlers(app: FastifyInstance, inFlight: InFlight): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function tracked(this: FastifyInstance, request, reply) {
      return inFlight.track(() => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
}
