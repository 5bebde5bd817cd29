/** Barcodes (GS k and its settings) and 2D symbols (GS ( k). */
import { symbolCost } from '../../core/budget.ts';
import { NUL_TERMINATED, arg, fixed, type LenFn, type Outcome } from '../../core/commands.ts';
import { DATABAR_STACKED_NAMES } from '../gs1-databar-2d.ts';
import { SYMBOL_NAMES, linearFromEscPos, renderLinear, renderStoredSymbol, storedSymbolData, symbologyName } from '../barcodes.ts';
import { fontName } from '../descriptions.ts';
import type { EscPosMachine } from '../machine.ts';
import { GS, ch, type EscPosFamily } from './define.ts';

const gsK: LenFn = (b, n) => {
  if (n < 3) return 3;
  const m = b[2];
  if (m <= 6) return NUL_TERMINATED;
  if (m >= 65 && m <= 79) return n < 4 ? 4 : 4 + b[3];
  return 3;
};

/** The outcome of a symbol the job's rendering budget no longer covers (summarised, one error for the job). */
const OVER_BUDGET: Outcome = { text: 'Not drawn: the job is over its rendering budget' };

export const CODES: EscPosFamily = [
  {
    prefix: [GS, ch('k')], name: 'GS k', summary: 'Print barcode', length: gsK, header: 3,
    run(m, b, raw) {
      const sys = b[2];
      let data: Uint8Array;
      if (sys <= 6) data = b.subarray(3, b.length - 1);
      else if (sys >= 65 && sys <= 79) data = b.subarray(4, 4 + b[3]);
      else return { text: `Barcode: invalid system ${sys}`, kind: 'malformed', error: `invalid barcode system ${sys}` };
      const spec = linearFromEscPos(sys, data);
      const name = symbologyName(sys);
      if (typeof spec === 'string') return { text: `${name}: ${spec}`, kind: 'malformed', error: spec };
      if (!m.doc.spend(symbolCost(data.length))) return OVER_BUDGET;
      const res = renderLinear(spec, m.modes.barcodeModule, m.modes.barcodeHeight);
      if (!res.ok) return { text: `${name}: ${res.error}`, kind: 'malformed', error: res.error };
      const bmp = res.value.bitmap;
      const hri = spec.hri || res.value.humanReadable;
      const desc = ['GS k', `${name} "${hri}" ${bmp.width}x${bmp.height} dots`];
      if (bmp.width > m.width) return { text: `${desc[1]}: wider than the print area (not printed)`, kind: 'malformed', error: `${name} wider than the print area` };
      m.placeBarcode(bmp, hri, m.modes.hriPosition, m.modes.hriFont, m.src(raw, desc, b.length));
      return { text: desc[1] };
    },
  },
  {
    prefix: [GS, ch('h')], name: 'GS h', summary: 'Set barcode height', length: fixed(3),
    run(m, b) {
      m.modes.barcodeHeight = arg(b) === 0 ? 1 : arg(b);
      return { text: `Barcode height ${arg(b)} dots` };
    },
  },
  {
    // Epson takes n = 2..6 (68..76 for the 1D GS1 DataBar widths); others are clamped to
    // the nearest of 1..6 without an error (node-thermal-printer sends GS w 0 by default).
    prefix: [GS, ch('w')], name: 'GS w', summary: 'Set barcode width', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const valid = (n >= 1 && n <= 6) || (n >= 68 && n <= 76);
      m.modes.barcodeModule = valid ? (n >= 68 ? n - 67 : n) : n === 0 ? 1 : 6;
      return { text: `Barcode module width ${m.modes.barcodeModule} dots${valid ? '' : ` (${n} clamped)`}` };
    },
  },
  {
    prefix: [GS, ch('H')], name: 'GS H', summary: 'Select print position of HRI characters', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      m.modes.hriPosition = n & 3;
      if (n > 3 && (n < 48 || n > 51)) return { text: `HRI position: invalid ${n}`, kind: 'malformed', error: `invalid HRI position ${n}` };
      return { text: `HRI position: ${['not printed', 'above', 'below', 'above and below'][n & 3]}` };
    },
  },
  {
    prefix: [GS, ch('f')], name: 'GS f', summary: 'Select font for HRI characters', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      m.modes.hriFont = n === 1 || n === 49 ? 1 : 0;
      return { text: `HRI font: ${fontName(n)}` };
    },
  },
];

/** GS ( k: store settings and data of a 2D symbol, print it, or report its size. */
export function symbol(m: EscPosMachine, b: Uint8Array, raw: string): Outcome {
  if (b.length < 7) return { text: '2D code: missing function', kind: 'malformed', error: 'missing 2D code function' };
  const cn = b[5], fn = b[6];
  const s = m.symbols;
  const name = SYMBOL_NAMES[cn] ?? `symbol ${cn}`;
  const p = (i: number): number => (b.length > 7 + i ? b[7 + i] : 0);
  const data = (): Uint8Array => b.slice(8);
  if (fn === 81) {
    if (!m.doc.spend(symbolCost(storedSymbolData(cn, s)?.length ?? 0))) return OVER_BUDGET;
    const res = renderStoredSymbol(cn, s, m.width);
    if (!res.ok) return { text: `Print ${name}: ${res.error}`, kind: 'malformed', error: res.error };
    const desc = ['GS ( k', `Print ${name} ${res.value.bitmap.width}x${res.value.bitmap.height} dots`];
    const bmp = res.value.bitmap;
    if (bmp.width > m.width) return { text: `${desc[1]}: wider than the print area (not printed)`, kind: 'malformed', error: `${name} wider than the print area` };
    m.layout.placeBlock(bmp, m.src(raw, desc, b.length));
    return { text: desc[1] };
  }
  if (fn === 82) {
    // transmit size information: printing area info, not emulated beyond an answer
    m.reply(Uint8Array.of(0x37, 0x36 + 0, 0x00));
    return { text: `Transmit ${name} size information` };
  }
  switch (cn) {
    case 49: // QR
      switch (fn) {
        case 65: s.qrModel = p(0); return { text: `QR Code model ${p(0) === 49 ? 1 : p(0) === 50 ? 2 : p(0) === 51 ? 'micro' : p(0)}` };
        case 67: s.qrSize = Math.min(16, Math.max(1, p(0))); return { text: `QR Code module size ${s.qrSize} dots` };
        case 69: s.qrEc = p(0) >= 48 && p(0) <= 51 ? p(0) : 48; return { text: `QR Code error correction ${'LMQH'[s.qrEc - 48]}` };
        case 80: s.qrData = data(); return { text: `QR Code: store ${s.qrData.length} bytes` };
      }
      break;
    case 48: // PDF417
      switch (fn) {
        case 65: s.pdfColumns = p(0); return { text: `PDF417 columns ${p(0) || 'auto'}` };
        case 66: s.pdfRows = p(0); return { text: `PDF417 rows ${p(0) || 'auto'}` };
        case 67: s.pdfModule = Math.min(8, Math.max(1, p(0))); return { text: `PDF417 module width ${s.pdfModule} dots` };
        case 68: s.pdfRowHeight = Math.min(8, Math.max(2, p(0))); return { text: `PDF417 row height x${s.pdfRowHeight}` };
        case 69: s.pdfEcLevel = p(0) === 48 ? Math.min(8, Math.max(0, p(1) - 48)) : null; return { text: `PDF417 error correction ${p(0) === 48 ? 'level ' + (p(1) - 48) : 'ratio ' + p(1) * 10 + '%'}` };
        case 70: s.pdfTruncated = (p(0) & 1) === 1; return { text: `PDF417 ${s.pdfTruncated ? 'truncated' : 'standard'}` };
        case 80: s.pdfData = data(); return { text: `PDF417: store ${s.pdfData.length} bytes` };
      }
      break;
    case 50: // MaxiCode
      switch (fn) {
        case 65: s.maxiMode = p(0); return { text: `MaxiCode mode ${p(0) - 48}` };
        case 80: s.maxiData = data(); return { text: `MaxiCode: store ${s.maxiData.length} bytes` };
      }
      break;
    case 53: // Aztec
      switch (fn) {
        case 50: s.aztecCompact = p(0) === 1 || p(0) === 49; s.aztecLayers = p(1); return { text: `Aztec Code ${s.aztecCompact ? 'compact' : 'full-range'}, layers ${p(1) || 'auto'}` };
        case 51: s.aztecModule = Math.min(16, Math.max(2, p(0))); return { text: `Aztec Code module size ${s.aztecModule} dots` };
        case 53: s.aztecEc = Math.min(95, Math.max(5, p(0))); return { text: `Aztec Code error correction ${s.aztecEc}%` };
        case 80: s.aztecData = data(); return { text: `Aztec Code: store ${s.aztecData.length} bytes` };
      }
      break;
    case 51: // GS1 DataBar Stacked, Stacked Omnidirectional, Expanded Stacked
      switch (fn) {
        case 67: s.databar.module = Math.min(8, Math.max(2, p(0))); return { text: `GS1 DataBar module width ${s.databar.module} dots` };
        case 71: s.databar.expandedMaxWidth = p(0) + p(1) * 256; return { text: `GS1 DataBar Expanded Stacked maximum width ${s.databar.expandedMaxWidth || 'the print area'}${s.databar.expandedMaxWidth ? ' dots' : ''}` };
        case 80: {
          s.databar.type = p(1);
          s.databar.data = b.slice(9);
          return { text: `${DATABAR_STACKED_NAMES[p(1)] ?? `GS1 DataBar type ${p(1)}`}: store ${s.databar.data.length} bytes` };
        }
      }
      break;
    case 54: // DataMatrix
      switch (fn) {
        case 66: s.dmRect = p(0) === 1 || p(0) === 49; s.dmColumns = p(1); s.dmRows = p(2); return { text: `DataMatrix ${s.dmRect ? 'rectangle' : 'square'} ${p(1) || 'auto'}x${p(2) || 'auto'}` };
        case 67: s.dmModule = Math.min(16, Math.max(2, p(0))); return { text: `DataMatrix module size ${s.dmModule} dots` };
        case 80: s.dmData = data(); return { text: `DataMatrix: store ${s.dmData.length} bytes` };
      }
      break;
  }
  return { text: `${name} function ${fn} (not emulated)` };
}
