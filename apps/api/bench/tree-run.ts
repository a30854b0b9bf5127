/**
 * Runs `bench/tree.ts` (the memory of the process tree `npm start` leaves running, issue 21
 * part 2) in a process of its own for `npm run bench`, and renders its result.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Part 2's target: the whole tree stays under this, in MB, under part 1's reads. */
export const TREE_TARGET_MB = 250;

export interface TreePhase {
  read: string;
  rps: number;
  p99: number;
  peakMb: number;
  non2xx: number;
}

/** The JSON line `bench/tree.ts` ends with. */
export interface TreeResult {
  idleMb: number;
  peakMb: number;
  idleOnceMb: number;
  peakOnceMb: number;
  idlePssMb: number;
  peakPssMb: number;
  processes: number;
  phases: TreePhase[];
}

export async function runTree(o: {
  duration: number;
  bounties: number;
  log: (m: string) => void;
}): Promise<TreeResult | { error: string }> {
  const argv = [
    '--import',
    'tsx',
    path.join(here, 'tree.ts'),
    '--duration',
    String(o.duration),
    '--bounties',
    String(o.bounties),
  ];
  const child = spawn(process.execPath, argv, {
    cwd: path.resolve(here, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  child.stdout.on('data', (b: Buffer) => {
    const text = b.toString();
    out.push(text);
    for (const line of text.split('\n')) if (line.startsWith('[tree]')) o.log(line.slice(7));
  });
  child.stderr.on('data', (b: Buffer) => out.push(b.toString()));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const last = out.join('').trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{'))
    return { error: `bench:tree exited ${code}: ${out.join('').slice(-2000)}` };
  return JSON.parse(last) as TreeResult;
}

export function treeMarkdown(r: TreeResult, duration: number): string {
  const lines = [
    "## npm start's process tree (issue 21 part 2)",
    '',
    `\`npm run bench:tree\`: \`npm start\` on a fresh PostgreSQL database filled as the first phase, each of part 1's reads at 50 connections with members' tokens for ${duration} s in turn. ` +
      `RSS summed over the tree's ${r.processes} processes (npm and node); beside it the same with the node binary's pages, which both map, counted once, and the PSS sum. Target: < ${TREE_TARGET_MB} MB.`,
    '',
    '| | RSS sum MB | shared pages once MB | PSS sum MB |',
    '|---|---:|---:|---:|',
    `| idle | ${r.idleMb} | ${r.idleOnceMb} | ${r.idlePssMb} |`,
    `| peak under load | **${r.peakMb}** ${r.peakMb < TREE_TARGET_MB ? '(met)' : '(NOT met)'} | ${r.peakOnceMb} | ${r.peakPssMb} |`,
    '',
    '| read | req/s | p99 ms | tree peak MB | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...r.phases.map((p) => `| ${p.read} | ${p.rps} | ${p.p99} | ${p.peakMb} | ${p.non2xx} |`),
  ];
  return lines.join('\n');
}
