/**
 * Barcode rasteriser throughput: renders per second for the symbols the engines draw most
 * (CODE128 on receipts, a 50-character QR, a MaxiCode on shipping labels), end to end
 * (bwip-js encoding + integer-dot Bitmap).
 *
 * "new data" varies the content on every render, so bwip encodes every time (the worst case);
 * "repeated" renders the same symbol again and again, as a shop's URL on every receipt, and is
 * served by the rasteriser's small LRU of bwip results.
 */
import { renderLinearBarcode, renderMatrixCode, type BarcodeResult } from '../src/engines/raster/barcode.ts';

function measure(name: string, fn: (i: number) => BarcodeResult, minMs = 1000): void {
  const first = fn(0);
  if (!first.ok) throw new Error(`${name}: ${first.error}`);
  let i = 1;
  for (; i < 20; i++) fn(i); // warm-up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    for (let k = 0; k < 10; k++) fn(i++);
    n += 10;
    now = performance.now();
  }
  const perSec = (n * 1000) / (now - start);
  const { width, height } = first.value.bitmap;
  console.log(`${name.padEnd(44)} ${perSec.toFixed(0).padStart(7)} renders/s  ${(1000 / perSec).toFixed(3)} ms each  (${width}x${height} dots)`);
}

const pad = (i: number, n: number) => String(i % 10 ** n).padStart(n, '0');
const MAXI = (i: number) =>
  `[)>\x1e01\x1d96123450000\x1d840\x1d001\x1d1Z${pad(i, 8)}\x1dUPSN\x1d12345E\x1d089\x1d\x1d1/1\x1d10.1\x1dY\x1d\x1d\x1dUT\x1e\x04`;
const QR = (i: number) => `https://slipstream.example/receipt/2024-${pad(i, 8)}`.padEnd(50, '0');

export async function run(): Promise<void> {
  if (QR(0).length !== 50) throw new Error('QR text must be 50 chars');
  for (const repeated of [false, true]) {
    const tag = repeated ? 'repeated' : 'new data';
    const at = (i: number) => (repeated ? 0 : i);
    measure(`CODE128 16 chars mw=2 (${tag})`, (i) =>
      renderLinearBarcode({ bcid: 'code128', text: `SLIP-2024-${pad(at(i), 6)}`, moduleWidth: 2, height: 80 }));
    measure(`QR 50 chars module 4 (${tag})`, (i) =>
      renderMatrixCode({ bcid: 'qrcode', text: QR(at(i)), moduleSize: 4, options: { eclevel: 'M' } }));
    measure(`MaxiCode mode 2 module 7 (${tag})`, (i) =>
      renderMatrixCode({ bcid: 'maxicode', text: MAXI(at(i)), moduleSize: 7, options: { mode: 2 } }));
  }
  measure('EAN-13 mw=3 (new data)', (i) => renderLinearBarcode({ bcid: 'ean13', text: `5901234${pad(i, 5)}`, moduleWidth: 3, height: 100 }));
  measure('PDF417 60 chars (new data)', (i) => renderMatrixCode({ bcid: 'pdf417', text: `PDF417-${pad(i, 8)}-`.padEnd(60, 'X'), moduleSize: 2, rowHeight: 6 }));
  measure('DataMatrix 40 chars (new data)', (i) => renderMatrixCode({ bcid: 'datamatrix', text: `DM-${pad(i, 8)}`.padEnd(40, 'Y'), moduleSize: 4 }));
}
