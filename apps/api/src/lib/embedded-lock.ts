/**
 * The embedded database (PGlite in DATA_DIR/db) serves one process at a time: a second process
 * opening the same folder would replay and checkpoint it behind the server's back. The server
 * writes its pid to DATA_DIR/server.pid while it runs on PGlite; the operations commands
 * (backup, restore) refuse while that process lives.
 */
import fs from 'node:fs';
import path from 'node:path';

const PID_FILE = 'server.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Marks DATA_DIR as in use by this process; the returned function unmarks it. */
export function markEmbeddedServer(dataDir: string): () => void {
  const file = path.join(dataDir, PID_FILE);
  fs.writeFileSync(file, `${process.pid}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
    } catch {
      // already gone
    }
  };
}

/** The pid of a live server using this DATA_DIR's embedded database (not this process), if any. */
export function embeddedServerPid(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  return alive(pid) ? pid : undefined;
}

/** The refusal an operations command gives while the embedded server runs, else undefined. */
export function embeddedInUse(databaseUrl: string, dataDir: string): string | undefined {
  if (!databaseUrl.startsWith('pglite://')) return undefined;
  const pid = embeddedServerPid(dataDir);
  return pid
    ? `The server (process ${pid}) is using the embedded database in ${dataDir}. ` +
        'Stop it first: the embedded database serves one process at a time.'
    : undefined;
}
