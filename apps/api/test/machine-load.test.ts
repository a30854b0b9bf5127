import { describe, expect, it } from 'vitest';
import {
  loadSnapshot,
  machineLoad,
  machineLoadText,
  processTicks,
  type LoadSnapshot,
} from '../bench/machine-load';

const snap = (o: Partial<LoadSnapshot>): LoadSnapshot => ({
  total: 0,
  idle: 0,
  steal: 0,
  server: 0,
  db: new Map(),
  clientUs: 0,
  ...o,
});

describe('machineLoad (where the CPU went during a bench run)', () => {
  it('splits the machine time into steal, idle, server, client, PostgreSQL and the rest', () => {
    const before = snap({ total: 1000, idle: 100, steal: 10, server: 50, db: new Map([[7, 20]]) });
    // 2,000 ticks pass: 200 idle, 100 steal, 800 the server, 3 s of client CPU (300 ticks),
    // 400 PostgreSQL (backend 7 +100, backend 9 born during the run with 300).
    const after = snap({
      total: 3000,
      idle: 300,
      steal: 110,
      server: 850,
      db: new Map([
        [7, 120],
        [9, 300],
      ]),
      clientUs: 3_000_000,
    });
    expect(machineLoad(before, after)).toEqual({
      stealPct: 5,
      idlePct: 10,
      serverPct: 40,
      clientPct: 15,
      dbPct: 20,
      otherPct: 10,
    });
  });

  it('does not count a backend that ended during the run against the others', () => {
    const before = snap({
      total: 0,
      db: new Map([
        [5, 10_000],
        [6, 0],
      ]),
    });
    const after = snap({ total: 1000, db: new Map([[6, 100]]) });
    expect(machineLoad(before, after)!.dbPct).toBe(10);
  });

  it('reads nothing when a snapshot is missing or no time passed', () => {
    expect(machineLoad(null, snap({ total: 5 }))).toBeNull();
    expect(machineLoad(snap({ total: 5 }), snap({ total: 5 }))).toBeNull();
    expect(machineLoadText(null)).toBe('machine load not read');
  });

  it.runIf(process.platform === 'linux')('reads this machine and this process', () => {
    const s = loadSnapshot(process.pid);
    expect(s).not.toBeNull();
    expect(s!.total).toBeGreaterThan(0);
    expect(s!.server).toBeLessThanOrEqual(processTicks(process.pid));
    expect(loadSnapshot(2 ** 30)).toBeNull();
    // The load client read as another process: its ticks (10 ms each), in µs.
    const c = loadSnapshot(process.pid, process.pid)!;
    expect(c.clientUs % 10_000).toBe(0);
    expect(c.clientUs / 10_000).toBeGreaterThanOrEqual(s!.server);
    expect(loadSnapshot(process.pid, 2 ** 30)).toBeNull();
  });

  it("names the client's garbage collection when it is known", () => {
    const m = machineLoad(snap({ total: 0 }), snap({ total: 100, idle: 100 }))!;
    expect(machineLoadText(m)).not.toContain('GC');
    expect(machineLoadText({ ...m, clientGcPct: 4.5, clientHeapMb: 30 })).toContain(
      'client GC 4.5 % of the run, heap 30 MB',
    );
  });
});
