/**
 * Bundles the tcp-bridge into one JavaScript file, tcp-bridge/dist/bridge.mjs (dependencies
 * stay in node_modules). `node tcp-bridge/main.ts` runs the same code, but Node's TypeScript
 * type stripping stays resident in the process: the bundle starts at ~65 MB instead of ~100 MB,
 * which matters for a bridge that holds 1,000 listeners in a 150 MB budget.
 * Usage: tsx scripts/build-bridge.ts
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
export const bridgeBundle = resolve(root, 'tcp-bridge/dist/bridge.mjs');

/** Builds the bundle of the checkout at `from` (default this one; benchmarks build an older commit's too). */
export async function buildBridge(from = root): Promise<string> {
  const outfile = resolve(from, 'tcp-bridge/dist/bridge.mjs');
  await build({
    absWorkingDir: from,
    entryPoints: ['tcp-bridge/main.ts'],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'warning',
    // Runnable as the package's `slipstream-bridge` bin (`npx slipstream-bridge` in a checkout).
    banner: { js: '#!/usr/bin/env node' },
  });
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildBridge();
