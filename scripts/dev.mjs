// `npm run dev`: the API in watch mode (API_ONLY) and Vite with hot reload on WEB_PORT.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', 'apps/api/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_ONLY: '1' },
  }),
  spawn(bin('vite'), ['--port', process.env.WEB_PORT ?? '3000', '--strictPort'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
  }),
];
const stop = (sig) => children.forEach((c) => c.kill(sig));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const c of children)
  c.on('exit', (code) => {
    stop('SIGTERM');
    process.exit(code ?? 0);
  });
