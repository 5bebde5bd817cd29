/**
 * ESC/POS engine throughput: a text-heavy 4 KB receipt, and a receipt with a 576x400 raster
 * logo, a QR code and a CODE128 barcode (PNG encoding included). `npm run bench -- escpos`.
 */
import { createEscPosSession } from '../src/engines/escpos/index.ts';
import type { PrinterContext } from '../src/engines/canvas/printer-context.ts';
import { testPrinterContext } from '../test/support/printer-context.ts';

const ctx: PrinterContext = testPrinterContext();

function enc(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0) & 0xff);
}

export function textReceipt(): Uint8Array {
  const out: number[] = [0x1b, 0x40, 0x1b, 0x74, 19, 0x1b, 0x61, 1, 0x1d, 0x21, 0x11, ...enc('SLIPSTREAM CAFE\n'), 0x1d, 0x21, 0, 0x1b, 0x61, 0];
  let i = 0;
  while (out.length < 3900) {
    i++;
    out.push(...enc(`${String(i).padStart(2)} x Item number ${i} descr`));
    out.push(0x1b, 0x45, 1, ...enc(`  ${(i * 1.37).toFixed(2).padStart(8)} \xd5\n`), 0x1b, 0x45, 0);
    if (i % 10 === 0) out.push(0x1b, 0x2d, 1, ...enc('Subtotal\t\t\t12.34\n'), 0x1b, 0x2d, 0);
  }
  out.push(...enc('TOTAL'.padEnd(40, '.') + '\n'), 0x1d, 0x56, 0x41, 3);
  return Uint8Array.from(out.slice(0, 4096));
}

export function imageReceipt(): Uint8Array {
  const out: number[] = [0x1b, 0x40, 0x1b, 0x61, 1];
  // 576x400 raster logo with a pattern
  const wb = 72, h = 400;
  out.push(0x1d, 0x76, 0x30, 0, wb, 0, h & 0xff, h >> 8);
  for (let y = 0; y < h; y++) for (let x = 0; x < wb; x++) out.push(((x + y) & 7) < 3 ? 0xf0 : (y & 16 ? 0x3c : 0x00));
  out.push(...enc('Thank you!\n'));
  const qr = enc('https://example.com/receipt/1234567890');
  out.push(0x1d, 0x28, 0x6b, 4, 0, 49, 65, 50, 0);
  out.push(0x1d, 0x28, 0x6b, 3, 0, 49, 67, 6);
  out.push(0x1d, 0x28, 0x6b, 3, 0, 49, 69, 49);
  out.push(0x1d, 0x28, 0x6b, qr.length + 3, 0, 49, 80, 48, ...qr);
  out.push(0x1d, 0x28, 0x6b, 3, 0, 49, 81, 48);
  const code = enc('{B12345678');
  out.push(0x1d, 0x48, 2, 0x1d, 0x68, 80, 0x1d, 0x77, 2, 0x1d, 0x6b, 73, code.length, ...code);
  out.push(0x0a, 0x1d, 0x56, 0x41, 3);
  return Uint8Array.from(out);
}

function measure(name: string, data: Uint8Array, minMs: number): number {
  const once = (): void => {
    const s = createEscPosSession(() => ctx);
    s.push(data);
    s.finish();
  };
  for (let i = 0; i < 50; i++) once(); // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    for (let i = 0; i < 20; i++) once();
    n += 20;
    t = performance.now();
  }
  const perSec = (n * 1000) / (t - t0);
  console.log(`${name}: ${perSec.toFixed(0)} receipts/s (${data.length} bytes, ${n} runs)`);
  return perSec;
}

export async function run(): Promise<void> {
  const a = measure('text-heavy 4 KB receipt', textReceipt(), 2000);
  const b = measure('576x400 logo + QR + CODE128 receipt', imageReceipt(), 2000);
  console.log(`targets: text >= 5000/s ${a >= 5000 ? 'OK' : 'MISSED'}; image >= 500/s ${b >= 500 ? 'OK' : 'MISSED'}`);
}
