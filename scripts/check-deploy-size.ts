/**
 * Deployability check (CI): bundles the Worker exactly as `wrangler deploy` would
 * (`wrangler deploy --dry-run --outdir`, no Cloudflare account needed), prints its size
 * gzip-compressed, and fails above Cloudflare's Worker size limit.
 *
 * The limit is the Workers Free plan's 3 MB after compression (Paid: 10 MB;
 * https://developers.cloudflare.com/workers/platform/limits/#worker-size): staying under it
 * keeps Slipstream deployable on either plan. `WORKER_SIZE_LIMIT_BYTES` overrides it.
 * The web UI is not part of it: static assets are uploaded separately (25 MiB per file).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildAssets } from './build-assets.ts';

const root = resolve(import.meta.dirname, '..');
const FREE_PLAN_LIMIT = 3 * 1024 * 1024;
const limit = Number(process.env.WORKER_SIZE_LIMIT_BYTES ?? FREE_PLAN_LIMIT);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

// wrangler refuses a configuration whose assets directory is missing (a clean checkout).
if (!existsSync(resolve(root, 'public'))) await buildAssets();

const out = mkdtempSync(join(tmpdir(), 'slipstream-deploy-'));
try {
  execFileSync(process.execPath, [resolve(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', out], {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  // The modules wrangler would upload (the bundle, its source map excluded, and any wasm/text modules).
  const modules = files(out).filter((f) => !f.endsWith('.map') && !f.endsWith('README.md'));
  const raw = modules.reduce((n, f) => n + statSync(f).size, 0);
  const gzip = modules.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;
  console.log(`Worker bundle: ${mb(raw)} raw, ${mb(gzip)} gzip (limit ${mb(limit)} gzip, Workers Free plan) in ${modules.length} module(s)`);
  if (gzip > limit) {
    console.error(`Worker bundle too large: ${mb(gzip)} gzip > ${mb(limit)}`);
    process.exit(1);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
