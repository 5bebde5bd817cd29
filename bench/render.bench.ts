/**
 * Renderer throughput (src/engines/render): the engines' output for the 3.5 KB text receipt
 * (bench/escpos.bench.ts) and the 4x6 inch EPL shipping label, drawn and encoded as PNG and as
 * PDF. Targets on one core: PNG >= 500 receipts/s, >= 300 labels/s. Then the Worker bundle's
 * gzip size with the renderer linked in (Cloudflare's limit: 3 MB free plan, 10 MB paid).
 * `npm run bench -- render`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEplSession } from '../src/engines/epl/index.ts';
import { createEscPosSession } from '../src/engines/escpos/index.ts';
import { renderPdf, renderPng, type RenderCanvas } from '../src/engines/render/index.ts';
import { shippingLabel } from '../test/engines/epl/fixtures.ts';
import { labelPrinterContext, latin1, testPrinterContext } from '../test/support/printer-context.ts';
import { textReceipt } from './escpos.bench.ts';

function receiptCanvases(): RenderCanvas[] {
  const ctx = testPrinterContext();
  const s = createEscPosSession(() => ctx);
  s.push(textReceipt());
  return s.finish().canvases;
}

function labelCanvases(): RenderCanvas[] {
  const ctx = labelPrinterContext();
  const s = createEplSession(() => ctx);
  s.push(latin1(shippingLabel()));
  return s.finish().canvases;
}

/**
 * Renders per second of this process's CPU time (all its threads: the native deflate runs off
 * the main thread), i.e. on one core; the machine's other load moves wall-clock rates a lot.
 */
async function measure(name: string, once: () => Promise<number>, target?: number): Promise<void> {
  for (const end = performance.now() + 1000; performance.now() < end; ) await once(); // JIT and glyph cache warm-up
  const rates: number[] = [], wall: number[] = [];
  let bytes = 0;
  for (let r = 0; r < 3; r++) {
    let n = 0;
    const t0 = performance.now(), c0 = process.cpuUsage();
    while (performance.now() - t0 < 1000) { bytes = await once(); n++; }
    const c = process.cpuUsage(c0);
    rates.push((n * 1e6) / (c.user + c.system));
    wall.push((n * 1000) / (performance.now() - t0));
  }
  const best = Math.max(...rates);
  const verdict = target === undefined ? '' : ` (target >= ${target}/s: ${best >= target ? 'OK' : 'MISSED'})`;
  console.log(`${name}: ${best.toFixed(0)}/s per CPU second, best of 3 rounds [${rates.map((x) => x.toFixed(0)).join(', ')}]; wall clock [${wall.map((x) => x.toFixed(0)).join(', ')}]/s; ${bytes} bytes out${verdict}`);
}

/** Bundle the Worker as `wrangler deploy --dry-run` does, with the renderer kept alive, and gzip it. */
function workerBundleSize(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const entry = join(root, 'src/worker/.render-bundle-probe.ts');
  const out = mkdtempSync(join(tmpdir(), 'slipstream-bundle-'));
  mkdirSync(join(root, 'public'), { recursive: true }); // wrangler wants the assets folder (built by `npm run build`) to exist
  writeFileSync(entry, [
    "export * from './index.ts';",
    "export { default } from './index.ts';",
    "import * as render from '../engines/render/index.ts';",
    '(globalThis as Record<string, unknown>).__slipstreamRender = render;',
    '',
  ].join('\n'));
  try {
    const r = spawnSync(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', out, entry], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) { console.log(`worker bundle: wrangler failed: ${(r.stderr || r.stdout).slice(-400)}`); return; }
    // Wrangler's own figure is the one Cloudflare's limit applies to.
    const total = /Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/.exec(r.stdout + r.stderr);
    console.log(total
      ? `worker bundle with the renderer (wrangler deploy --dry-run): ${total[1]}, gzip ${total[2]} (Cloudflare limit: 3 MB gzip free plan, 10 MB paid)`
      : `worker bundle: wrangler printed no "Total Upload" line`);
  } finally {
    rmSync(entry, { force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const receipt = receiptCanvases();
  const label = labelCanvases();
  await measure('PNG, 3.5 KB text receipt', async () => (await renderPng(receipt)).png.length, 500);
  await measure('PNG, 4x6 EPL shipping label', async () => (await renderPng(label)).png.length, 300);
  await measure('PDF, 3.5 KB text receipt', async () => (await renderPdf(receipt)).pdf.length);
  await measure('PDF, 4x6 EPL shipping label', async () => (await renderPdf(label)).pdf.length);
  workerBundleSize();
}
