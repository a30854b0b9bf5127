/**
 * The request (or job) a piece of code runs for, carried through async calls, so that every
 * log line written while serving it names it — also lines a service writes with the root
 * logger (createLogger's mixin), not only Fastify's own request logger. Only with LOG_CONTEXT=1
 * (decision 0040): once anything runs in an AsyncLocalStorage, Node 20 calls its hooks for every
 * promise of the process from then on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RunContext {
  /** The request id, also sent back as `x-request-id`. */
  reqId?: string;
  /** The background job being run: `name:id`. */
  job?: string;
}

export const runContext = new AsyncLocalStorage<RunContext>();

/** Runs `fn` in `context` when `enabled` (LOG_CONTEXT=1), else just runs it. */
export function runIn<T>(enabled: boolean, context: RunContext, fn: () => T): T {
  return enabled ? runContext.run(context, fn) : fn();
}

/** Marks a logger that already carries `reqId` in its bindings (Fastify's per-request child). */
export const BOUND_REQ_ID = Symbol('bountyhunt.boundReqId');

/** Fields the current context adds to a log line: none when the logger is already bound. */
export function contextFields(logger: object): RunContext {
  const store = runContext.getStore();
  if (!store) return {};
  if ((logger as Record<symbol, unknown>)[BOUND_REQ_ID]) {
    return store.job ? { job: store.job } : {};
  }
  return store;
}

/**
 * A request id a client or proxy sent (`x-request-id`) is kept only when it is short and plain,
 * so it cannot forge log lines; otherwise the server makes one.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
