/** The parts of autocannon (no bundled types) the benchmark uses. */
declare module 'autocannon' {
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Request extends RequestParams {
    setupRequest?: (req: RequestParams, context: Record<string, unknown>) => RequestParams;
  }
  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    /** Stop after this many requests (the duration is then ignored). */
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
