/**
 * 2D codes the Chinese-brand way (XPrinter, HPRT, Gprinter and white-label firmware; their
 * programming manuals, e.g. "GS Z n Select 2-D code type" / "ESC Z v r k nL nH d1…dn Print
 * 2-D bar code"): `GS Z n` selects PDF417 (0), DataMatrix (1) or QR Code (2), `ESC Z` prints
 * the data with three type-specific parameters:
 *
 * - PDF417: v columns (1..30), r error correction level (0..8), k row height in modules (2..5);
 *   the module width is the barcode width (GS w).
 * - DataMatrix: v rows and r columns of the symbol (v = 0: automatic), k module size.
 * - QR Code: v version (0: automatic), r error correction 'L' 'M' 'Q' 'H' (or 1..4), k module size.
 *
 * The type is QR Code at power-on and after ESC @. Models without these commands (Epson and
 * the others) report them and print nothing.
 */
import { COST } from '../../core/budget.ts';
import { arg, fixed, type LenFn, type Outcome } from '../../core/commands.ts';
import { renderMatrixSymbol } from '../../raster/symbols.ts';
import type { EscPosMachine } from '../machine.ts';
import { ESC, GS, ch, type EscPosFamily } from './define.ts';

export type EscZType = 'PDF417' | 'DataMatrix' | 'QR Code';

const TYPES: readonly EscZType[] = ['PDF417', 'DataMatrix', 'QR Code'];

function typeOf(n: number): EscZType | undefined {
  return TYPES[n] ?? TYPES[n - 0x30];
}

/** ESC Z v r k nL nH d1…dn */
const escZ: LenFn = (b, n) => (n < 7 ? 7 : 7 + b[5] + b[6] * 256);

function notOnModel(m: EscPosMachine, name: string): Outcome | null {
  if (m.model.printsEscZ2dCodes) return null;
  const error = `${name} (2D code) is not a command of ${m.model.name}`;
  return { text: error, kind: 'unknown', error };
}

const QR_LEVEL: Record<number, string> = { 0x4c: 'L', 0x4d: 'M', 0x51: 'Q', 0x48: 'H', 1: 'L', 2: 'M', 3: 'Q', 4: 'H', 0x31: 'L', 0x32: 'M', 0x33: 'Q', 0x34: 'H' };

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

export const ESC_Z_CODES: EscPosFamily = [
  {
    prefix: [GS, ch('Z')], name: 'GS Z', summary: 'Select 2D code type', length: fixed(3),
    run(m, b) {
      const refused = notOnModel(m, 'GS Z');
      if (refused) return refused;
      const type = typeOf(arg(b));
      if (!type) return { text: `2D code type: invalid ${arg(b)}`, kind: 'malformed', error: `invalid 2D code type ${arg(b)} (0 PDF417, 1 DataMatrix, 2 QR Code)` };
      m.escZType = type;
      return { text: `2D code type: ${type}` };
    },
  },
  {
    prefix: [ESC, ch('Z')], name: 'ESC Z', summary: 'Print 2D code', length: escZ, header: 7,
    run(m, b, raw) {
      const refused = notOnModel(m, 'ESC Z');
      if (refused) return refused;
      const v = b[2], r = b[3], k = b[4];
      const text = latin1(b.subarray(7));
      const type = m.escZType;
      if (text.length === 0) return { text: `${type}: no data`, kind: 'malformed', error: `${type}: no data` };
      if (!m.doc.spend(COST.symbol)) return { text: 'Not drawn: the job is over its rendering budget' };
      let res;
      if (type === 'QR Code') {
        const options: Record<string, string | number | boolean> = { eclevel: QR_LEVEL[r] ?? 'L' };
        if (v >= 1 && v <= 40) options.version = v;
        res = renderMatrixSymbol({ bcid: 'qrcode', text, moduleSize: Math.min(16, Math.max(1, k)), options });
      } else if (type === 'PDF417') {
        const options: Record<string, string | number | boolean> = { eclevel: Math.min(8, r) };
        if (v >= 1 && v <= 30) options.columns = v;
        const module = m.modes.barcodeModule;
        res = renderMatrixSymbol({ bcid: 'pdf417', text, moduleSize: module, rowHeight: module * Math.min(5, Math.max(2, k)), options });
      } else {
        const options: Record<string, string | number | boolean> = {};
        if (v > 0 && r > 0) {
          options.rows = v;
          options.columns = r;
          if (v !== r) options.format = 'rectangle';
        }
        res = renderMatrixSymbol({ bcid: 'datamatrix', text, moduleSize: Math.min(16, Math.max(1, k)), options });
      }
      if (!res.ok) return { text: `${type}: ${res.error}`, kind: 'malformed', error: res.error };
      const bmp = res.value.bitmap;
      const desc = ['ESC Z', `Print ${type} ${bmp.width}x${bmp.height} dots`];
      if (bmp.width > m.width) return { text: `${desc[1]}: wider than the print area (not printed)`, kind: 'malformed', error: `${type} wider than the print area` };
      m.layout.placeBlock(bmp, m.src(raw, desc, b.length));
      return { text: desc[1] };
    },
  },
];
