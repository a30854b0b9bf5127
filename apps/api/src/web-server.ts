/** Serves the built SPA on WEB_PORT with a fallback to index.html for client routes. */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from './env';
import { pickEncoding } from './plugins/compress';

export const WEB_DIST = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../web/dist',
);

/**
 * The browser learns API_URL and MEDIA_URL at run time, so one build serves any deployment.
 * Both origins also get preconnect hints: the page's first API calls and images then find a
 * connection open instead of opening one after the scripts have run.
 */
export function renderIndex(html: string, config: Config): string {
  const runtime: Record<string, string> = {};
  if (config.API_URL) runtime.apiUrl = config.API_URL;
  if (config.MEDIA_URL) runtime.mediaUrl = config.MEDIA_URL;
  const script = `<script>window.__BH_CONFIG__=${JSON.stringify(runtime).replace(/</g, '\\u003c')}</script>`;
  const origins = new Set<string>();
  for (const url of [config.API_URL, config.MEDIA_URL]) {
    if (!url || url.startsWith('/')) continue;
    origins.add(new URL(url).origin);
  }
  // API calls are CORS requests (the anonymous connection pool), images are not.
  const hints = [...origins]
    .map(
      (o) => `<link rel="preconnect" href="${o}" crossorigin><link rel="preconnect" href="${o}">`,
    )
    .join('');
  return html.replace('</head>', `${script}${hints}</head>`);
}

export async function buildWebServer(
  config: Config,
  logger: FastifyBaseLogger,
  distDir = WEB_DIST,
): Promise<FastifyInstance> {
  const indexPath = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexPath)) {
    throw new Error(
      `The web app is not built (${path.relative(process.cwd(), indexPath)} is missing): run "npm run build".`,
    );
  }
  const index = renderIndex(fs.readFileSync(indexPath, 'utf8'), config);
  // index.html is the first thing every visit loads: compressed once, here.
  const indexEncoded = {
    br: brotliCompressSync(index, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_MODE]: 1 },
    }),
    gzip: gzipSync(index, { level: 9 }),
  };
  const web = Fastify({
    loggerInstance: logger.child({ server: 'web' }),
    // No line per asset served (the API logs its own requests). Through a log controller: the
    // top-level `disableRequestLogging` is deprecated in Fastify 5 and warned about at start.
    logController: new LogController({ disableRequestLogging: true }),
  });
  await web.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: false,
    // The build writes .br and .gz beside each asset (apps/web/vite.config.ts).
    preCompressed: true,
    setHeaders(res, filePath) {
      // Vite puts a content hash in every asset name: cache those for a year.
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.header('cache-control', 'public, max-age=31536000, immutable');
      else res.header('cache-control', 'public, max-age=300');
    },
  });
  web.addHook('onSend', async (_req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
  });
  const sendIndex = (req: FastifyRequest, reply: FastifyReply) => {
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Encoding');
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding || req.method === 'HEAD') return reply.send(index);
    return reply.header('content-encoding', encoding).send(indexEncoded[encoding]);
  };
  web.get('/', (req, reply) => sendIndex(req, reply));
  web.get('/*', (req, reply) => {
    const rel = decodeURIComponent((req.params as { '*': string })['*'] ?? '');
    const file = path.resolve(distDir, rel);
    if (
      file.startsWith(distDir + path.sep) &&
      fs.existsSync(file) &&
      fs.statSync(file).isFile() &&
      rel !== 'index.html'
    ) {
      return reply.sendFile(rel);
    }
    // A missing asset is a 404; anything else is a client route.
    if (rel.startsWith('assets/') || /\.[a-z0-9]{2,5}$/i.test(rel)) {
      return reply.code(404).type('text/plain').send('Not found');
    }
    return sendIndex(req, reply);
  });
  return web;
}
