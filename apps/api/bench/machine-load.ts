/**
 * Where the machine's CPU went during one measured run: the server measured, the load client
 * (autocannon, in the bench's load-client process), PostgreSQL, anything else, idle, and time the hypervisor gave to
 * other guests ("steal"). On a shared virtual machine a run can be slow for reasons outside it;
 * these figures tell such a run from one the product made slow. Linux only (`/proc`); null
 * elsewhere.
 */
import fs from 'node:fs';

/** The kernel's clock ticks per second (USER_HZ), 100 on every Linux this runs on. */
const HZ = 100;

export interface LoadSnapshot {
  /** /proc/stat's first line: ticks of all cores by state. */
  total: number;
  idle: number;
  steal: number;
  /** CPU ticks of the server measured, of PostgreSQL's processes, and of this process (µs). */
  server: number;
  /** Ticks of each PostgreSQL process by pid (backends come and go during a run). */
  db: Map<number, number>;
  clientUs: number;
}

/** Shares of the whole machine's CPU time over a run, in percent (they add up to 100). */
export interface MachineLoad {
  /** Taken by the hypervisor for other guests. */
  stealPct: number;
  idlePct: number;
  serverPct: number;
  /** The load client (autocannon, in the bench's load-client process). */
  clientPct: number;
  /** Every process named `postgres` (the system server or the embedded one). */
  dbPct: number;
  /** Everything else on the machine. */
  otherPct: number;
  /**
   * The load client's garbage-collection pauses, in percent of the run (it reads no answer
   * meanwhile), and its V8 heap in use at the end (MB); set from the client's own report.
   */
  clientGcPct?: number;
  clientHeapMb?: number;
}

/** CPU ticks (user + system, 100 a second) a process has used so far; throws when it is gone. */
export function processTicks(pid: number, withChildren = false): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime: fields 14 and 15 of stat(5); cutime and cstime (16, 17) add the children
  // it has waited for (the load client's wrk runs).
  const own = Number(fields[11]) + Number(fields[12]);
  return withChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
}

function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name === 'postgres') ticks.set(Number(e), processTicks(Number(e)));
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/**
 * The machine's and the processes' CPU so far. The load client is the process `clientPid` when
 * given (the bench's load client), otherwise this process.
 */
export function loadSnapshot(serverPid: number, clientPid?: number): LoadSnapshot | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const cpu = clientPid === undefined ? process.cpuUsage() : undefined;
    return {
      total: v.reduce((a, b) => a + b, 0),
      idle: v[3]! + v[4]!,
      steal: v[7]!,
      server: processTicks(serverPid),
      db: postgresTicks(),
      clientUs: cpu ? cpu.user + cpu.system : processTicks(clientPid!, true) * (1e6 / HZ),
    };
  } catch {
    return null;
  }
}

export function machineLoad(
  before: LoadSnapshot | null,
  after: LoadSnapshot | null,
): MachineLoad | null {
  if (!before || !after) return null;
  const total = after.total - before.total;
  if (total <= 0) return null;
  const pct = (ticks: number) => Math.round((Math.max(0, ticks) / total) * 1000) / 10;
  const stealPct = pct(after.steal - before.steal);
  const idlePct = pct(after.idle - before.idle);
  const serverPct = pct(after.server - before.server);
  const clientPct = pct(((after.clientUs - before.clientUs) / 1e6) * HZ);
  // A backend that started during the run counts whole; one that ended during it is lost.
  let db = 0;
  for (const [pid, ticks] of after.db) db += ticks - (before.db.get(pid) ?? 0);
  const dbPct = pct(db);
  const otherPct =
    Math.round(Math.max(0, 100 - stealPct - idlePct - serverPct - clientPct - dbPct) * 10) / 10;
  return { stealPct, idlePct, serverPct, clientPct, dbPct, otherPct };
}

/** "steal 3 %, idle 10 %, server 45 %, client 30 %, PostgreSQL 10 %, other 2 %" */
export function machineLoadText(m: MachineLoad | null | undefined): string {
  if (!m) return 'machine load not read';
  return (
    `steal ${m.stealPct} %, idle ${m.idlePct} %, server ${m.serverPct} %, client ${m.clientPct} %, ` +
    `PostgreSQL ${m.dbPct} %, other ${m.otherPct} %` +
    (m.clientGcPct === undefined
      ? ''
      : `; client GC ${m.clientGcPct} % of the run, heap ${m.clientHeapMb} MB`)
  );
}
