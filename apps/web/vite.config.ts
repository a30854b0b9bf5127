import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build as rolldownBuild } from 'rolldown';
import { defineConfig, type Plugin, type Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * The files each early route's page chunk loads (scripts it imports, not the entry's, and
 * their CSS), by page module under src/: the pages named by `page: '…'` in the features'
 * early.ts tables.
 */
function earlyPageChunks(
  bundle: OutputBundle,
  src: string,
  base: string,
): Record<string, string[]> {
  const pages = new Set<string>();
  for (const feature of fs.readdirSync(path.join(src, 'features'))) {
    const file = path.join(src, 'features', feature, 'early.ts');
    if (!fs.existsSync(file)) continue;
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bpage:\s*['"]([^'"]+)['"]/g))
      pages.add(m[1]!);
  }
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const out: Record<string, string[]> = {};
  for (const page of pages) {
    const chunk = chunks.find((c) => c.facadeModuleId === path.join(src, page));
    if (!chunk) throw new Error(`early.ts names page ${page}, which is no chunk of the build.`);
    const files = new Set<string>();
    const visit = (c: OutputChunk) => {
      if (c.isEntry || files.has(c.fileName)) return;
      files.add(c.fileName);
      for (const css of c.viteMetadata?.importedCss ?? []) files.add(css);
      for (const dep of c.imports) {
        const d = byFile.get(dep);
        if (d) visit(d);
      }
    };
    visit(chunk);
    out[page] = [...files].map((f) => `${base}${f}`);
  }
  return out;
}

/**
 * Inlines src/early/index.ts into index.html as one small classic script (see
 * src/lib/early.ts): a signed-in visitor's first API requests then leave while the app's
 * script downloads, instead of after it has run. Built with the same env as the app.
 */
function inlineEarlyScript(): Plugin {
  const src = path.resolve(import.meta.dirname, 'src');
  let env: Record<string, unknown> = {};
  let base = '/';
  return {
    name: 'bountyhunt:early-script',
    apply: 'build',
    configResolved(config) {
      env = config.env;
      base = config.base;
    },
    async transformIndexHtml(_html, ctx) {
      const pageChunks = ctx.bundle ? earlyPageChunks(ctx.bundle, src, base) : {};
      const out = await rolldownBuild({
        input: path.join(src, 'early/index.ts'),
        write: false,
        logLevel: 'warn',
        transform: {
          define: {
            'import.meta.env': JSON.stringify(env),
            __BH_PAGE_CHUNKS__: JSON.stringify(pageChunks),
          },
        },
        output: { format: 'iife', minify: true },
      });
      const chunk = out.output[0];
      if (chunk.code.length > 8 * 1024)
        throw new Error(`The early script grew to ${chunk.code.length} bytes (limit 8 KB).`);
      return [{ tag: 'script', children: chunk.code.trim(), injectTo: 'body-prepend' }];
    },
  };
}

/**
 * Writes `.br` and `.gz` beside every built script and stylesheet, once at build time; the
 * web server (apps/api/src/web-server.ts, `preCompressed`) sends them to browsers that accept
 * them. Uncompressed, a first visit moved ~550 KB of JavaScript instead of ~170 KB.
 */
function precompress(): Plugin {
  return {
    name: 'bountyhunt:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? path.resolve('dist');
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(file)) continue;
        const body = fs.readFileSync(path.join(dir, file));
        if (body.length < 1024) continue;
        fs.writeFileSync(
          path.join(dir, `${file}.br`),
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        fs.writeFileSync(path.join(dir, `${file}.gz`), gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * Leaves MUI's CSS-variables theme code out of the build (~7 KB gzipped of every first load).
 * Our theme (src/lib/theme.ts) is made without `cssVariables` or `colorSchemes`, so MUI's
 * createTheme and ThemeProvider only ever take their no-variables branch; the other branch's
 * modules are replaced by stubs that throw, should a future theme ask for variables (the
 * theme test checks it does not).
 */
function muiWithoutCssVars(): Plugin {
  const stub = '\0bountyhunt:mui-css-vars-stub';
  const replaced: Record<string, string> = {
    'createTheme.mjs': './createThemeWithVars.mjs',
    'ThemeProvider.mjs': './ThemeProviderWithVars.mjs',
  };
  const fail = `throw new Error('MUI CSS variables themes are left out of this build (vite.config.ts)')`;
  return {
    name: 'bountyhunt:mui-without-css-vars',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/[\\/]@mui[\\/]material[\\/]styles[\\/]/.test(importer)) return null;
      return replaced[path.basename(importer)] === source ? stub : null;
    },
    load(id) {
      if (id !== stub) return null;
      return (
        `export default function createThemeWithVars() { ${fail} }\n` +
        `export function CssVarsProvider() { ${fail} }\n`
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), muiWithoutCssVars(), precompress(), inlineEarlyScript()],
  build: {
    target: 'es2022',
    sourcemap: false,
    // Every browser the app supports knows <link rel=modulepreload>: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one chunk: the automatic split made ~20
        // small files for the first load, and on a phone's connection each costs a round trip.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  server: { port: 3000 },
});
