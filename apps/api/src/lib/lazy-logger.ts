/**
 * A request's logger made on its first line, not on every request.
 *
 * Fastify gives every request a child of the root logger bound to its id. pino builds a child
 * eagerly: it serialises the bindings and runs them through the redaction paths, ~3.4 KB of
 * garbage and ~4 % of the CPU of a cached page's request (measured with a sampling heap
 * profile at 1,000,000 claims). At the levels a server runs at (`LOG_LEVEL=warn` or `info`
 * without request logging), most requests write no line at all. This stands in for the child:
 * a method whose level is off returns at once, and the first line written makes the child
 * (`make`) and is written through it, as are all lines after it, so every line still names its
 * request.
 */
import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

interface LevelSource {
  isLevelEnabled?(level: string): boolean;
}

/** One object of three fields a request: the methods live on the prototype. */
class LazyLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly make: () => FastifyBaseLogger,
  ) {}

  private write(level: Level, args: unknown[]): void {
    if (!this.real) {
      if ((this.parent as unknown as LevelSource).isLevelEnabled?.(level) === false) return;
      this.real = this.make();
    }
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): FastifyBaseLogger {
    this.real ??= this.make();
    return this.real.child(bindings, options);
  }

  get level(): string {
    return (this.real ?? this.parent).level;
  }
  set level(value: string) {
    this.real ??= this.make();
    this.real.level = value;
  }
}

export function lazyChild(
  parent: FastifyBaseLogger,
  make: () => FastifyBaseLogger,
): FastifyBaseLogger {
  return new LazyLogger(parent, make) as unknown as FastifyBaseLogger;
}
