import { linearFromEscPos, type LinearSpec } from '../escpos/barcodes.ts';
import { renderMatrixCode, type BarcodeResult } from '../raster/barcode.ts';
import { SymbolCache } from '../raster/symbol-cache.ts';

/** A POS prints the same QR code on every receipt: rendered symbols are reused. */
const symbols = new SymbolCache<BarcodeResult>((r) => (r.ok ? r.value.bitmap.pixels.byteLength : 0));

/**
 * Star barcodes (ESC b) and two-dimensional codes (ESC GS y QR Code, ESC GS x PDF417),
 * translated into the shared rasteriser's requests. Parameter tables from Star's command
 * specifications (appendix "Bar code specification details").
 */

/** ESC b n1: Star's barcode types, as the ESC/POS GS k system with the same symbology. */
const STAR_TYPES: Record<number, { name: string; escPos: number }> = {
  0: { name: 'UPC-E', escPos: 66 },
  1: { name: 'UPC-A', escPos: 65 },
  2: { name: 'JAN/EAN-8', escPos: 68 },
  3: { name: 'JAN/EAN-13', escPos: 67 },
  4: { name: 'Code39', escPos: 69 },
  5: { name: 'ITF', escPos: 70 },
  // Star's Code128 takes plain data and chooses code sets itself, as GS k 79 (auto) does.
  6: { name: 'Code128', escPos: 79 },
  7: { name: 'Code93', escPos: 72 },
  8: { name: 'NW-7', escPos: 71 },
  9: { name: 'GS1-128', escPos: 74 },
  10: { name: 'GS1 DataBar Omnidirectional', escPos: 75 },
  11: { name: 'GS1 DataBar Truncated', escPos: 76 },
  12: { name: 'GS1 DataBar Limited', escPos: 77 },
  13: { name: 'GS1 DataBar Expanded', escPos: 78 },
};

/** Star parameters are given as a number or as its ASCII digit ("0" = 48). */
const ascii = (n: number): number => (n >= 0x30 && n <= 0x39 ? n - 0x30 : n);

export function starBarcodeType(n1: number): { name: string; escPos: number } | undefined {
  return STAR_TYPES[ascii(n1)];
}

/**
 * ESC b n3 (mode): the narrow module, and for two-width symbologies the narrow:wide ratio.
 * UPC/EAN/Code128/Code93/GS1: modes 1-3 are 2, 3, 4 dots. Code39 and NW-7, ITF: nine
 * narrow:wide pairs each.
 */
const TWO_WIDTH_39: [number, number][] = [[2, 6], [3, 9], [4, 12], [2, 5], [3, 8], [4, 10], [2, 4], [3, 6], [4, 8]];
const TWO_WIDTH_ITF: [number, number][] = [[2, 5], [4, 10], [6, 15], [2, 4], [4, 8], [6, 12], [2, 6], [3, 9], [4, 12]];

export function starBarcodeModule(type: number, n3: number): { module: number; wideRatio?: number } | string {
  const mode = ascii(n3);
  const t = ascii(type);
  if (t === 4 || t === 8 || t === 5) {
    const pair = (t === 5 ? TWO_WIDTH_ITF : TWO_WIDTH_39)[mode - 1];
    if (!pair) return `mode ${n3} is not 1 to 9`;
    return { module: pair[0], wideRatio: pair[1] / pair[0] };
  }
  if (mode < 1 || mode > 3) return `mode ${n3} is not 1 to 3`;
  return { module: mode + 1 };
}

/** The ESC/POS translation of Star barcode data, or why it cannot print. */
export function starLinearSpec(type: number, data: Uint8Array): LinearSpec | string {
  const t = starBarcodeType(type);
  if (!t) return `unknown barcode type ${type}`;
  let d = data;
  // Star computes check digits itself: a check digit sent with UPC-A, EAN-13 or EAN-8 data is ignored.
  if ((t.escPos === 65 && d.length === 12) || (t.escPos === 67 && d.length === 13) || (t.escPos === 68 && d.length === 8)) d = d.subarray(0, d.length - 1);
  const spec = linearFromEscPos(t.escPos, d);
  if (typeof spec === 'string') return spec;
  return { ...spec, name: t.name };
}

/** Stored QR Code and PDF417 settings (ESC GS y S / ESC GS x S), back to these on ESC @. */
export interface StarSymbolSettings {
  qrModel: number; // 1, 2
  qrEcc: number; // 0..3 = L, M, Q, H
  qrCell: number; // 1..8 dots
  qrData: Uint8Array | null;
  /** ESC GS x S 0 n p1 p2: n = 0 aspect ratio p1:p2 (automatic size), n = 1 rows p1 and columns p2 (0 = auto). */
  pdfSizeMode: number;
  pdfP1: number;
  pdfP2: number;
  pdfEcc: number; // 0..8
  pdfModuleX: number; // dots
  pdfAspect: number; // module height : width
  pdfData: Uint8Array | null;
}

export function initialStarSymbols(): StarSymbolSettings {
  return { qrModel: 2, qrEcc: 0, qrCell: 3, qrData: null, pdfSizeMode: 0, pdfP1: 1, pdfP2: 2, pdfEcc: 1, pdfModuleX: 2, pdfAspect: 3, pdfData: null };
}

const latin1 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
};

export function renderStarQr(s: StarSymbolSettings): BarcodeResult {
  if (!s.qrData || s.qrData.length === 0) return { ok: false, error: 'QR Code: no data stored (ESC GS y D)' };
  const text = latin1(s.qrData), eclevel = 'LMQH'[s.qrEcc] ?? 'L';
  return symbols.get(`qr\u0000${s.qrCell}\u0000${eclevel}\u0000${text}`, () => renderMatrixCode({ bcid: 'qrcode', text, moduleSize: s.qrCell, options: { eclevel } }));
}

export function renderStarPdf417(s: StarSymbolSettings): BarcodeResult {
  if (!s.pdfData || s.pdfData.length === 0) return { ok: false, error: 'PDF417: no data stored (ESC GS x D)' };
  const options: Record<string, string | number | boolean> = { eclevel: s.pdfEcc };
  if (s.pdfSizeMode === 1) {
    if (s.pdfP1 > 0) options.rows = s.pdfP1;
    if (s.pdfP2 > 0) options.columns = s.pdfP2;
  }
  const text = latin1(s.pdfData);
  const key = `pdf417\u0000${s.pdfModuleX}\u0000${s.pdfAspect}\u0000${JSON.stringify(options)}\u0000${text}`;
  return symbols.get(key, () => renderMatrixCode({ bcid: 'pdf417', text, moduleSize: s.pdfModuleX, rowHeight: s.pdfModuleX * s.pdfAspect, options }));
}
