/**
 * The module-boundary lint rule of eslint.config.js (a module owns its tables and keeps its
 * repositories to itself), shown failing and passing through ESLint's Node API.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: repoRoot });
const inProfiles = path.join(repoRoot, 'apps/api/src/modules/profiles/boundary-probe.ts');

async function problems(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: inProfiles });
  return result!.messages
    .filter(
      (m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'no-restricted-imports',
    )
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('module boundaries (eslint.config.js)', () => {
  it("reports an import of another module's repository", async () => {
    const found = await problems(
      "import { findBounty } from '../bounties/bounties.repository';\nexport const f = findBounty;\n",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^import-x\/no-restricted-paths: .*bounties\.repository/);
  });

  it("reports a table another module owns, not the module's own", async () => {
    const found = await problems(
      "import { claims, posts } from '../../db/schema';\nexport const t = [claims, posts];\n",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^no-restricted-imports: 'claims'/);
  });

  it("allows another module's service, read interface and presenter", async () => {
    const found = await problems(
      [
        "import { bountyExists } from '../bounties/bounties.read';",
        "import { presentRankedClaim } from '../bounties/bounties.present';",
        "import type { UsersService } from '../users/users.service';",
        'export const f = [bountyExists, presentRankedClaim];',
        'export type U = UsersService;',
        '',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });
}, 60_000);
