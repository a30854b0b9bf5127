/**
 * Where a payout run's NACHA file goes (issue 18): the bank's SFTP drop or an API in a real
 * deployment. The embedded default writes the file to DATA_DIR/payouts/ (the operator uploads
 * it to the bank), and reads it back for the console's download.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface PayoutProvider {
  /** Delivers the file of a run; throws when it could not. */
  send(file: { name: string; text: string }): Promise<void>;
  /** The file as sent, or null when it is not there. */
  read(name: string): Promise<string | null>;
  /** Takes a file back whose run did not commit. */
  discard(name: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

export class DiskPayoutProvider implements PayoutProvider {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'payouts');
  }

  private file(name: string): string {
    if (!SAFE_NAME.test(name)) throw new Error('invalid payout file name');
    return path.join(this.dir, name);
  }

  async send(file: { name: string; text: string }): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const target = this.file(file.name);
    const tmp = `${target}.tmp`;
    await fs.writeFile(tmp, file.text, { mode: 0o600 });
    await fs.rename(tmp, target);
  }

  async read(name: string): Promise<string | null> {
    try {
      return await fs.readFile(this.file(name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async discard(name: string): Promise<void> {
    await fs.rm(this.file(name), { force: true });
  }
}
