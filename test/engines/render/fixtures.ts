/**
 * Documents for the renderer's tests and benchmark, made by real client libraries and run
 * through the engines as a printer would receive them.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { createProtocolSession, newPrinterMemory } from '../../../src/engines/index.ts';
import type { RenderedJob } from '../../../src/engines/canvas/model.ts';
import { concatBytes, labelPrinterContext, testPrinterContext } from '../../support/printer-context.ts';

export const RECEIPT_LINES = ['SLIPSTREAM CAFE', 'Espresso            2.50', 'Croissant           3.20', 'TOTAL               5.70'];
export const RECEIPT_QR = 'https://slipstream.example/r/42';
export const RECEIPT_CODE128 = 'SLIP-0042';

/** A w x h logo: a 3-dot frame and a filled square in the middle (RGBA, as canvas ImageData). */
export function logoImage(w = 96, h = 48): { data: Uint8ClampedArray; width: number; height: number } {
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const frame = x < 3 || y < 3 || x >= w - 3 || y >= h - 3;
    const square = Math.abs(x - w / 2) < h / 4 && Math.abs(y - h / 2) < h / 4;
    if (frame || square) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  }
  return { data, width: w, height: h };
}

/** ESC/POS bytes of a receipt with text, a raster logo, a QR code and a CODE128, from receipt-printer-encoder. */
export function receiptBytes(): Uint8Array {
  const enc = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48, imageMode: 'raster' });
  enc.initialize().codepage('cp437');
  enc.line(RECEIPT_LINES[0]);
  for (const l of RECEIPT_LINES.slice(1)) enc.line(l);
  return enc
    .image(logoImage(), 96, 48, 'threshold')
    .qrcode(RECEIPT_QR, { model: 2, size: 6, errorlevel: 'm' })
    .barcode(RECEIPT_CODE128, 'code128', 80)
    .cut()
    .encode();
}

export function escposJob(data: Uint8Array): RenderedJob {
  const ctx = testPrinterContext();
  const s = createProtocolSession('EscPos', () => ctx);
  s.push(data);
  return s.finish();
}

export const LABEL_LINES = ['ACME WIDGETS INC', 'SHIP TO: JANE DOE', 'PITTSBURGH PA 15238'];
export const LABEL_QR = 'https://slipstream.example/t/1Z999';
export const LABEL_CODE128 = '1Z12345E0205271688';

/** A 4x6 inch EPL2 label: text in fonts 2-4, a frame, a GW graphic, a QR code and a Code 128. */
export function labelBytes(): Uint8Array {
  const gw: number[] = [];
  const wb = 4, h = 32; // 32x32 graphic: checkerboard of 8x8 squares
  for (let y = 0; y < h; y++) for (let xb = 0; xb < wb; xb++) gw.push(((y >> 3) + xb) % 2 === 0 ? 0x00 : 0xff); // EPL GW: 0 bit = black
  const crlf = (...ls: string[]): string => ls.map((l) => l + '\r\n').join('');
  return concatBytes(
    crlf('', 'N', 'q812', 'Q1218,24',
      `A30,30,0,4,1,1,N,"${LABEL_LINES[0]}"`,
      `A30,80,0,3,1,1,N,"${LABEL_LINES[1]}"`,
      `A30,120,0,2,2,2,N,"${LABEL_LINES[2]}"`,
      'X20,20,4,790,200'),
    `GW700,40,${wb},${h},`, // the graphic's bytes follow the last comma directly
    Uint8Array.from(gw),
    crlf('',
      `b40,260,Q,m2,s6,eM,"${LABEL_QR}"`,
      `B40,600,0,1,3,6,160,N,"${LABEL_CODE128}"`,
      'P1'),
  );
}

export function eplJob(data: Uint8Array): RenderedJob {
  const ctx = labelPrinterContext();
  const s = createProtocolSession('Epl', () => ctx, newPrinterMemory());
  s.push(data);
  return s.finish();
}
