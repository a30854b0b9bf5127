// Renders deploy/nginx/bountyhunt.conf, the nginx site of a deployment: every ${BH_…} in it
// is replaced from `vars` (see the file's header). Run as a script, it prints the site
// rendered from the environment: `BH_SERVER_NAME=… node scripts/nginx-conf.mjs > site.conf`.
// renderMain() wraps a rendered site in a whole nginx.conf for a local, unprivileged run
// (`npm run cluster`): everything under one directory, nothing in /var.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SITE_TEMPLATE = path.join(root, 'deploy/nginx/bountyhunt.conf');

const MiB = 1024 * 1024;

/** client_max_body_size for uploads: the larger product limit, plus 1 MiB of slack. */
export function maxUploadSize(env = process.env) {
  const image = Number(env.MAX_IMAGE_BYTES ?? 25 * MiB);
  const video = Number(env.MAX_VIDEO_BYTES ?? 500 * MiB);
  return `${Math.ceil(Math.max(image, video) / MiB) + 1}m`;
}

export function defaults(env = process.env) {
  return {
    BH_LISTEN: '80',
    BH_SERVER_NAME: 'bountyhunt.example.com',
    BH_API_SERVERS: '127.0.0.1:5052',
    BH_WEB_ROOT: path.join(root, 'apps/web/dist'),
    BH_MEDIA_ORIGIN: 'http://127.0.0.1:9000/bh-media',
    BH_MAX_UPLOAD: maxUploadSize(env),
    BH_LOG_DIR: '/var/log/nginx',
  };
}

/** The site with every ${BH_…} replaced; an unknown or missing name throws. */
export function renderSite(vars, template = fs.readFileSync(SITE_TEMPLATE, 'utf8')) {
  return template.replace(/\$\{(BH_[A-Z0-9_]+)\}/g, (_m, name) => {
    const value = vars[name];
    if (value === undefined || value === '') throw new Error(`nginx site: ${name} is not set`);
    if (name === 'BH_API_SERVERS') {
      // One `server` line per instance; a failed one is skipped for 10 s.
      return String(value)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => `server ${s} max_fails=1 fail_timeout=10s;`)
        .join('\n    ');
    }
    if (/[;{}\n]/.test(String(value)))
      throw new Error(`nginx site: ${name} has ; { } or a newline`);
    return String(value);
  });
}

/** A whole nginx.conf around `siteFile`, for `nginx -p <dir> -c <dir>/nginx.conf` as any user. */
export function renderMain({ dir, siteFile }) {
  const t = (name) => path.join(dir, 'tmp', name);
  return `# Rendered by scripts/nginx-conf.mjs for a local run; the site is ${path.basename(siteFile)}.
worker_processes 1;
error_log ${path.join(dir, 'logs', 'error.log')} warn;
events {
    worker_connections 1024;
}
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    client_body_temp_path ${t('body')};
    proxy_temp_path ${t('proxy')};
    fastcgi_temp_path ${t('fastcgi')};
    uwsgi_temp_path ${t('uwsgi')};
    scgi_temp_path ${t('scgi')};
    include ${siteFile};
}
`;
}

/** Creates the directories renderMain() names. */
export function prepareDir(dir) {
  for (const d of ['logs', 'tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi'])
    fs.mkdirSync(path.join(dir, d), { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const vars = { ...defaults() };
  for (const name of Object.keys(vars)) if (process.env[name]) vars[name] = process.env[name];
  process.stdout.write(renderSite(vars));
}
