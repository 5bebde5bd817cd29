/**
 * `npm run bench`: runs every benchmark module in this folder and prints its figures.
 * Each module exports `run(): Promise<void>` and prints human-readable lines.
 * Pass names to run a subset: `npm run bench -- escpos epl`.
 *
 * Each module runs in a fresh process (same Node flags, so the TypeScript loader too): its
 * figures do not depend on what ran before it (heap size, JIT state, open sockets).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { buildBridge } from '../scripts/build-bridge.ts';

const here = dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === '--one') {
  const mod = (await import(join(here, process.argv[3]))) as { run: () => Promise<void> };
  await mod.run();
  process.exit(0);
}

// The bridge benchmark runs the bundled bridge, as `npm start` does: build it from the sources.
await buildBridge();

const wanted = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

for (const file of modules) {
  console.log(`\n== ${file}`);
  const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--one', file], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.log(`${file} failed (exit ${run.status ?? run.signal})`);
    process.exitCode = 1;
  }
}
