import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helper';
import { backup, BackupError, restore } from '../ops/backup';
import { embeddedInUse, embeddedServerPid, markEmbeddedServer } from './embedded-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function embedded() {
  const config = testConfig();
  dirs.push(config.dataDir);
  return testConfig({
    DATA_DIR: config.dataDir,
    DATABASE_URL: `pglite://${path.join(config.dataDir, 'db')}`,
  });
}

/** Another live process standing in for a running server. */
async function otherProcess<T>(run: (pid: number) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    return await run(child.pid!);
  } finally {
    child.kill('SIGKILL');
  }
}

describe('one process at a time on the embedded database', () => {
  it('a server marks DATA_DIR while it runs and unmarks it when it stops', () => {
    const config = embedded();
    const release = markEmbeddedServer(config.dataDir);
    // Its own mark does not stop the same process.
    expect(embeddedServerPid(config.dataDir)).toBeUndefined();
    expect(fs.readFileSync(path.join(config.dataDir, 'server.pid'), 'utf8').trim()).toBe(
      String(process.pid),
    );
    release();
    expect(fs.existsSync(path.join(config.dataDir, 'server.pid'))).toBe(false);
  });

  it('backup and restore refuse while another live process holds it; a stale mark is ignored', async () => {
    const config = embedded();
    const pidFile = path.join(config.dataDir, 'server.pid');
    await otherProcess(async (pid) => {
      fs.writeFileSync(pidFile, `${pid}\n`);
      expect(embeddedInUse(config.databaseUrl, config.dataDir)).toMatch(
        new RegExp(`^The server \\(process ${pid}\\) is using the embedded database`),
      );
      const out = path.join(config.dataDir, 'b.tar');
      await expect(backup({ config, out })).rejects.toThrow(BackupError);
      await expect(backup({ config, out })).rejects.toThrow(/Stop it first/);
      expect(fs.existsSync(out)).toBe(false);
      await expect(
        restore({ config, file: out, database: {} as never, jobs: {} as never }),
      ).rejects.toThrow(/Stop it first/);
      // A PostgreSQL deployment is never held by it.
      expect(embeddedInUse('postgres://h/db', config.dataDir)).toBeUndefined();
    });
    // The process is gone (a server killed with -9): its mark no longer counts.
    await new Promise((r) => setTimeout(r, 200));
    expect(embeddedInUse(config.databaseUrl, config.dataDir)).toBeUndefined();
  });
});
