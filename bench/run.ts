/**
 * `npm run bench`: runs every benchmark module in this folder and prints its figures.
 * Each module exports `run(): Promise<void>` and prints human-readable lines.
 * Pass names to run a subset: `npm run bench -- escpos epl`.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

for (const file of modules) {
  console.log(`\n== ${file}`);
  const mod = (await import(join(here, file))) as { run: () => Promise<void> };
  await mod.run();
}
