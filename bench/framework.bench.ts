/**
 * The engine framework's cost (issue 13): the text-heavy 4 KB receipt through today's ESC/POS
 * engine, alone and with its document serialised to JSON (what the printer object stores),
 * side by side in the same run with the engine as it was before the framework (commit
 * BASELINE_COMMIT, extracted with `git archive` into node_modules/.cache so it resolves the
 * same packages). Rounds alternate old and new so machine noise hits both alike (the two
 * shared cores make single runs vary by 20 % and more).
 * Target: the framework costs at most 10 % over the old engine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PrinterContext } from '../src/engines/canvas/printer-context.ts';
import { createEscPosSession } from '../src/engines/escpos/index.ts';
import { testPrinterContext } from '../test/support/printer-context.ts';
import { textReceipt } from './escpos.bench.ts';

/** The last commit before the engine framework (issue 13's starting point). */
const BASELINE_COMMIT = '2039aa8';

type SessionFactory = (getContext: () => PrinterContext) => { push(b: Uint8Array): unknown; finish(): unknown };

async function baselineEngine(): Promise<SessionFactory> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = join(root, 'node_modules', '.cache', 'slipstream-bench-baseline', BASELINE_COMMIT);
  if (!existsSync(join(dir, 'src/engines/escpos/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', BASELINE_COMMIT, 'src/engines'], { cwd: root, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    // ES modules, as the project's package.json says.
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  }
  const mod = (await import(pathToFileURL(join(dir, 'src/engines/escpos/index.ts')).href)) as { createEscPosSession: SessionFactory };
  return mod.createEscPosSession;
}

function rate(create: SessionFactory, data: Uint8Array, json: boolean, ms: number): number {
  const ctx = testPrinterContext();
  const once = (): void => {
    const s = create(() => ctx);
    s.push(data);
    const job = s.finish();
    if (json) JSON.stringify(job);
  };
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 20; i++) once();
    n += 20;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function run(): Promise<void> {
  const data = textReceipt();
  const old = await baselineEngine();
  const now = createEscPosSession as unknown as SessionFactory;
  for (const f of [old, now]) rate(f, data, true, 300); // warm-up
  const r = { old: [] as number[], oldJson: [] as number[], now: [] as number[], nowJson: [] as number[] };
  for (let round = 0; round < 7; round++) {
    r.old.push(rate(old, data, false, 400));
    r.now.push(rate(now, data, false, 400));
    r.oldJson.push(rate(old, data, true, 400));
    r.nowJson.push(rate(now, data, true, 400));
  }
  const m = { old: median(r.old), now: median(r.now), oldJson: median(r.oldJson), nowJson: median(r.nowJson) };
  const cost = (a: number, b: number): string => `${(((b / a) - 1) * 100).toFixed(1)} %`;
  console.log(`text receipt (${data.length} bytes), median of 7 alternating rounds, receipts/s:`);
  console.log(`  old engine (${BASELINE_COMMIT}) alone:        ${m.old.toFixed(0)}`);
  console.log(`  framework engine alone:          ${m.now.toFixed(0)}   cost ${cost(m.now, m.old)}`);
  console.log(`  old engine + document JSON:      ${m.oldJson.toFixed(0)}`);
  console.log(`  framework engine + document JSON: ${m.nowJson.toFixed(0)}   cost ${cost(m.nowJson, m.oldJson)} (vs old engine alone: ${cost(m.nowJson, m.old)})`);
  const worst = Math.max(m.old / m.now, m.oldJson / m.nowJson) - 1;
  console.log(`target: framework costs <= 10 % over the old engine: ${worst <= 0.1 ? 'OK' : 'MISSED'} (${(worst * 100).toFixed(1)} %)`);
}
