/**
 * Builds the web UI (web/) into public/ for the Worker's static assets:
 * public/index.html plus content-hashed JS and CSS under public/assets/. No CDN; works offline.
 * Usage: tsx scripts/build-web.ts [--dev]   (--dev: no minification)
 */
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assetHeadersFile } from '../src/shared/security-headers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public');
const assetsDir = path.join(outDir, 'assets');
const dev = process.argv.includes('--dev');

export async function buildWeb(): Promise<void> {
  const started = Date.now();
  await rm(assetsDir, { recursive: true, force: true });
  await mkdir(assetsDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'web/src/main.ts' },
    bundle: true,
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    minify: !dev,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': dev ? '"development"' : '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => path.relative(outDir, path.join(root, p)).split(path.sep).join('/'));
  const js = outputs.filter((f) => f.endsWith('.js'));
  const css = outputs.filter((f) => f.endsWith('.css'));
  const template = await readFile(path.join(root, 'web/index.html'), 'utf8');
  const html = template
    .replace('<!--STYLES-->', css.map((f) => `<link rel="stylesheet" href="/${f}">`).join('\n'))
    .replace('<!--SCRIPTS-->', js.map((f) => `<script type="module" src="/${f}"></script>`).join('\n'));
  await writeFile(path.join(outDir, 'index.html'), html);
  await writeFile(path.join(outDir, '_headers'), assetHeadersFile());
  const files = ['index.html', ...outputs];
  console.log(`build-web: ${files.filter((f) => !f.endsWith('.map')).join(', ')} in ${Date.now() - started} ms`);
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  buildWeb().catch((e) => {
    console.error(`build-web failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
