/** Barcodes (ESC b) and two-dimensional codes: QR Code (ESC GS y) and PDF417 (ESC GS x). */
import { symbolCost } from '../../core/budget.ts';
import { fixed, type LenFn, type Outcome } from '../../core/commands.ts';
import { renderLinear } from '../../escpos/barcodes.ts';
import type { BarcodeResult } from '../../raster/barcode.ts';
import type { StarMachine } from '../machine.ts';
import { ESC, GS, RS, ch, digit, type StarFamily } from '../define.ts';
import { renderStarPdf417, renderStarQr, starBarcodeModule, starBarcodeType, starLinearSpec } from '../symbols.ts';

/** Barcode data longer than this without its RS terminator is cut off (malformed). */
const MAX_BARCODE_DATA = 255;

/** ESC b n1 n2 n3 n4 d1..dk RS: the data runs to the record separator. */
const escB: LenFn = (b, n) => {
  if (n < 7) return 7;
  for (let i = 6; i < n; i++) if (b[i] === RS) return i + 1;
  return n - 6 >= MAX_BARCODE_DATA ? n : n + 1;
};

/** `<prefix of p bytes> nL nH d1..dk`. */
const dataAfter = (p: number): LenFn => (b, n) => (n < p + 2 ? p + 2 : p + 2 + b[p] + b[p + 1] * 256);

const OVER_BUDGET: Outcome = { text: 'Not drawn: the job is over its rendering budget' };

function placeSymbol(m: StarMachine, res: BarcodeResult, name: string, raw: string, length: number): Outcome {
  if (!res.ok) return { text: `${name}: ${res.error}`, kind: 'malformed', error: res.error };
  const bmp = res.value.bitmap;
  const text = `Print ${name} ${bmp.width}x${bmp.height} dots`;
  if (bmp.width > m.width) return { text: `${text}: wider than the print area (not printed)`, kind: 'malformed', error: `${name} wider than the print area` };
  m.layout.placeBlock(bmp, m.src(raw, [name, text], length));
  return { text };
}

function setting(name: string, run: (m: StarMachine, n: number) => string | Outcome) {
  return (m: StarMachine, b: Uint8Array): Outcome => {
    const r = run(m, b[b.length - 1]);
    return typeof r === 'string' ? { text: `${name}: ${r}` } : r;
  };
}

const bad = (what: string, n: number, range: string): Outcome => ({ text: `${what}: invalid ${n}`, kind: 'malformed', error: `${what} ${n} is not ${range}` });

export const CODES: StarFamily = [
  {
    bytes: [ESC, ch('b')], name: 'ESC b n1 n2 n3 n4 ... RS', summary: 'Print barcode', length: escB, header: 6,
    run(m, b, raw) {
      if (b[b.length - 1] !== RS) return { text: 'Barcode: data not terminated by RS', kind: 'malformed', error: 'barcode data not terminated by RS' };
      const [type, hriMode, mode, height] = [b[2], digit(b[3]), b[4], b[5]];
      const t = starBarcodeType(type);
      if (!t) return bad('Barcode type', type, '0 to 13');
      if (hriMode < 1 || hriMode > 4) return bad(`${t.name} under-bar character mode`, b[3], '1 to 4');
      if (height === 0) return bad(`${t.name} height`, 0, '1 to 255');
      const module = starBarcodeModule(type, mode);
      if (typeof module === 'string') return { text: `${t.name}: ${module}`, kind: 'malformed', error: `${t.name}: ${module}` };
      const spec = starLinearSpec(type, b.subarray(6, b.length - 1));
      if (typeof spec === 'string') return { text: `${t.name}: ${spec}`, kind: 'malformed', error: spec };
      if (!m.doc.spend(symbolCost(b.length - 7))) return OVER_BUDGET;
      const res = renderLinear({ ...spec, wideRatio: module.wideRatio ?? spec.wideRatio }, module.module, height);
      if (!res.ok) return { text: `${t.name}: ${res.error}`, kind: 'malformed', error: res.error };
      const bmp = res.value.bitmap;
      const hri = spec.hri || res.value.humanReadable;
      const text = `${t.name} "${hri}" ${bmp.width}x${bmp.height} dots`;
      if (bmp.width > m.width) return { text: `${text}: wider than the print area (not printed)`, kind: 'malformed', error: `${t.name} wider than the print area` };
      // n2: 1, 2 feed a line after the barcode, 3, 4 do not; 2, 4 print the characters under the bars.
      const withText = hriMode === 2 || hriMode === 4;
      m.placeBarcode(bmp, hri, withText ? 2 : 0, 0, m.src(raw, ['ESC b', text], b.length));
      if (hriMode <= 2 && !m.layout.pageMode) m.doc.feed(m.modes.lineSpacing);
      return { text };
    },
  },
  {
    bytes: [ESC, GS, ch('y'), ch('S'), ch('0')], name: 'ESC GS y S 0 n', summary: 'Set QR Code model', length: fixed(6),
    run: setting('QR Code model', (m, n) => (n === 1 || n === 2 ? ((m.symbols.qrModel = n), `model ${n}`) : bad('QR Code model', n, '1 or 2'))),
  },
  {
    bytes: [ESC, GS, ch('y'), ch('S'), ch('1')], name: 'ESC GS y S 1 n', summary: 'Set QR Code error correction level', length: fixed(6),
    run: setting('QR Code error correction', (m, n) => (n <= 3 ? ((m.symbols.qrEcc = n), `level ${'LMQH'[n]}`) : bad('QR Code error correction level', n, '0 to 3'))),
  },
  {
    bytes: [ESC, GS, ch('y'), ch('S'), ch('2')], name: 'ESC GS y S 2 n', summary: 'Set QR Code cell size', length: fixed(6),
    run: setting('QR Code cell size', (m, n) => (n >= 1 && n <= 8 ? ((m.symbols.qrCell = n), `${n} dots`) : bad('QR Code cell size', n, '1 to 8'))),
  },
  {
    bytes: [ESC, GS, ch('y'), ch('D'), ch('1')], name: 'ESC GS y D 1 m nL nH', summary: 'Set QR Code data (automatic mode selection)', length: dataAfter(6), header: 8,
    run(m, b) {
      const k = b[6] + b[7] * 256;
      if (k === 0) return bad('QR Code data length', 0, '1 to 7089');
      m.symbols.qrData = b.slice(8, 8 + k);
      return { text: `QR Code data: ${k} bytes` };
    },
  },
  {
    bytes: [ESC, GS, ch('y'), ch('P')], name: 'ESC GS y P', summary: 'Print QR Code', length: fixed(4),
    run(m, b, raw) {
      if (!m.doc.spend(symbolCost(m.symbols.qrData?.length ?? 0))) return OVER_BUDGET;
      return placeSymbol(m, renderStarQr(m.symbols), 'QR Code', raw, b.length);
    },
  },
  { bytes: [ESC, GS, ch('y'), ch('I')], name: 'ESC GS y I', summary: 'QR Code expansion information', length: fixed(4), run: () => ({ text: 'QR Code information request (answered only in the extended ASB of Ethernet memory switch settings)' }) },
  {
    bytes: [ESC, GS, ch('x'), ch('S'), ch('0')], name: 'ESC GS x S 0 n p1 p2', summary: 'Set PDF417 size', length: fixed(8),
    run(m, b) {
      const [n, p1, p2] = [b[5], b[6], b[7]];
      if (n > 1) return bad('PDF417 size mode', n, '0 or 1');
      Object.assign(m.symbols, { pdfSizeMode: n, pdfP1: p1, pdfP2: p2 });
      return { text: n === 0 ? `PDF417 size: aspect ratio ${p1}:${p2}` : `PDF417 size: ${p1 || 'auto'} rows, ${p2 || 'auto'} columns` };
    },
  },
  {
    bytes: [ESC, GS, ch('x'), ch('S'), ch('1')], name: 'ESC GS x S 1 n', summary: 'Set PDF417 security level', length: fixed(6),
    run: setting('PDF417 security level', (m, n) => (n <= 8 ? ((m.symbols.pdfEcc = n), `${n}`) : bad('PDF417 security level', n, '0 to 8'))),
  },
  {
    bytes: [ESC, GS, ch('x'), ch('S'), ch('2')], name: 'ESC GS x S 2 n', summary: 'Set PDF417 module X size', length: fixed(6),
    run: setting('PDF417 module width', (m, n) => (n >= 1 && n <= 10 ? ((m.symbols.pdfModuleX = n), `${n} dots`) : bad('PDF417 module width', n, '1 to 10'))),
  },
  {
    bytes: [ESC, GS, ch('x'), ch('S'), ch('3')], name: 'ESC GS x S 3 n', summary: 'Set PDF417 module aspect ratio', length: fixed(6),
    run: setting('PDF417 module aspect ratio', (m, n) => (n >= 1 && n <= 10 ? ((m.symbols.pdfAspect = n), `${n}:1`) : bad('PDF417 module aspect ratio', n, '1 to 10'))),
  },
  {
    bytes: [ESC, GS, ch('x'), ch('D')], name: 'ESC GS x D nL nH', summary: 'Set PDF417 data', length: dataAfter(4), header: 6,
    run(m, b) {
      const k = b[4] + b[5] * 256;
      if (k === 0) return bad('PDF417 data length', 0, '1 or more');
      m.symbols.pdfData = b.slice(6, 6 + k);
      return { text: `PDF417 data: ${k} bytes` };
    },
  },
  {
    bytes: [ESC, GS, ch('x'), ch('P')], name: 'ESC GS x P', summary: 'Print PDF417', length: fixed(4),
    run(m, b, raw) {
      if (!m.doc.spend(symbolCost(m.symbols.pdfData?.length ?? 0))) return OVER_BUDGET;
      return placeSymbol(m, renderStarPdf417(m.symbols), 'PDF417', raw, b.length);
    },
  },
  { bytes: [ESC, GS, ch('x'), ch('I')], name: 'ESC GS x I', summary: 'PDF417 expansion information', length: fixed(4), run: () => ({ text: 'PDF417 information request (answered only in the extended ASB of Ethernet memory switch settings)' }) },
];
