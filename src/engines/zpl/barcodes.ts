/**
 * ZPL bar code commands (^B1 … ^BZ) mapped to bwip-js symbologies, with their Zebra
 * parameters and defaults (ZPL II Programming Guide vol. 1) and the ^BY field defaults.
 *
 * A bar code command only configures the current field; the symbol is drawn at ^FS with the
 * field data. `BarcodeSpec` is everything needed then; `prepareData` turns the field data
 * into what bwip-js encodes (Code 128 invocation codes, QR mode prefixes, MaxiCode primary
 * message, ...) and the interpretation line Zebra prints.
 */
import { Params, type Orientation } from './params.ts';
import type { Dpi } from './fonts.ts';

/** ^BY: module width (1–10), wide-to-narrow ratio (2.0–3.0), bar code height. */
export interface BarcodeDefaults {
  moduleWidth: number;
  ratio: number;
  height: number;
}

export const DEFAULT_BY: Readonly<BarcodeDefaults> = Object.freeze({ moduleWidth: 2, ratio: 3, height: 10 });

export type Interpretation = 'none' | 'below' | 'above';

interface Common {
  /** Command code, e.g. 'BC'. */
  command: string;
  name: string;
  orientation: Orientation;
  bcid: string;
  options: Record<string, string | number | boolean>;
}

export interface LinearSpec extends Common {
  kind: 'linear';
  moduleWidth: number;
  ratio: number;
  height: number;
  interpretation: Interpretation;
  /** Code 128 subset / mode, Code 39 check digit, ...: the data conversion to apply. */
  convert: Conversion;
  /** Code 49, CODABLOCK: the height of each row in dots (then `height` is not used). */
  rowHeight?: number;
}

export interface MatrixSpec extends Common {
  kind: 'matrix';
  /** Dots per module (PDF417: module width). */
  moduleSize: number;
  /** PDF417 / MicroPDF417 row height in dots. */
  rowHeight?: number;
  convert: Conversion;
}

export type BarcodeSpec = LinearSpec | MatrixSpec;

type Conversion =
  | { kind: 'plain' }
  | { kind: 'code39'; check: boolean }
  | { kind: 'code11'; checks: 1 | 2 }
  | { kind: 'code128'; mode: 'N' | 'U' | 'A' | 'D' }
  | { kind: 'codabar'; start: string; stop: string }
  | { kind: 'qr' }
  | { kind: 'maxicode'; mode: number }
  | { kind: 'upcEanExtension' }
  | { kind: 'gs1' }
  /** Digit-only symbologies: a Zebra skips what is not a digit (GLS labels send `>;` from Code 128 habits). */
  | { kind: 'digits' }
  /** ^BX: its escape character's sequences (FNC1 for GS1 data, control characters, byte values). */
  | { kind: 'dataMatrix'; escape: string };

export interface BarcodeContext {
  by: BarcodeDefaults;
  /** ^FW orientation, the default of every bar code's orientation. */
  fieldOrientation: Orientation;
  dpi: Dpi;
}

type Builder = (p: Params, c: BarcodeContext) => BarcodeSpec;

const yes = (p: Params, i: number, name: string, def: boolean): boolean => p.yes(i, name, def);

function interp(p: Params, fi: number, gi: number | null): Interpretation {
  const f = yes(p, fi, 'print interpretation line', true);
  const g = gi === null ? false : yes(p, gi, 'interpretation line above', false);
  return !f ? 'none' : g ? 'above' : 'below';
}

function linear(command: string, name: string, bcid: string, p: Params, c: BarcodeContext, o: { hi: number; fi: number; gi: number | null }, extra: Partial<LinearSpec> = {}): LinearSpec {
  const orientation = p.orientation(0, c.fieldOrientation);
  const height = p.int(o.hi, 'bar code height', c.by.height, 1, 32000);
  return {
    kind: 'linear',
    command,
    name,
    orientation,
    bcid,
    options: {},
    moduleWidth: c.by.moduleWidth,
    ratio: c.by.ratio,
    height,
    interpretation: o.fi < 0 ? 'none' : interp(p, o.fi, o.gi),
    convert: { kind: 'plain' },
    ...extra,
  };
}

/**
 * MaxiCode has a fixed physical size (ISO/IEC 16023: about 28 mm wide, 30 hexagons): the
 * hexagon pitch in dots per density.
 */
const maxicodePitch = (dpi: Dpi): number => (dpi >= 600 ? 22 : dpi >= 300 ? 11 : 7);

/** Default magnification of 2D symbols by print density (^BO, ^BQ): 2 at 203, 3 at 300, 6 at 600. */
const magnificationFor = (dpi: Dpi): number => (dpi >= 600 ? 6 : dpi >= 300 ? 3 : 2);

export const BARCODES: Record<string, { name: string; build: Builder }> = {
  B1: {
    name: 'Code 11',
    build: (p, c) => {
      // e: Y = one check digit (C), N = two (C and K). bwip-js picks the count by the data
      // length instead, so the check digits are computed here and encoded as data.
      const checks = yes(p, 1, 'check digit', false) ? 1 : 2;
      return linear('B1', 'Code 11', 'code11', p, c, { hi: 2, fi: 3, gi: 4 }, { convert: { kind: 'code11', checks } });
    },
  },
  B2: {
    name: 'Interleaved 2 of 5',
    build: (p, c) => {
      const check = yes(p, 4, 'mod 10 check digit', false);
      return linear('B2', 'Interleaved 2 of 5', 'interleaved2of5', p, c, { hi: 1, fi: 2, gi: 3 }, { options: check ? { includecheck: true, includecheckintext: true } : {}, convert: { kind: 'digits' } });
    },
  },
  B3: {
    name: 'Code 39',
    build: (p, c) => {
      const check = yes(p, 1, 'mod 43 check digit', false);
      return linear('B3', 'Code 39', 'code39', p, c, { hi: 2, fi: 3, gi: 4 }, { convert: { kind: 'code39', check } });
    },
  },
  B4: {
    name: 'Code 49',
    build: (p, c) => {
      // h multiplies the module width into each row's height (default the ^BY height); the
      // separator bars are one module. f: N none, A above, B below.
      const spec = linear('B4', 'Code 49', 'code49', p, c, { hi: 1, fi: -1, gi: null });
      const f = p.choice(2, 'print interpretation line', ['N', 'A', 'B'] as const, 'N');
      return { ...spec, rowHeight: spec.height * c.by.moduleWidth, interpretation: f === 'A' ? 'above' : f === 'B' ? 'below' : 'none' };
    },
  },
  B5: {
    name: 'PLANET',
    build: (p, c) => linear('B5', 'PLANET', 'planet', p, c, { hi: 1, fi: 2, gi: 3 }),
  },
  B7: {
    name: 'PDF417',
    build: (p, c) => {
      const orientation = p.orientation(0, c.fieldOrientation);
      const rowMult = p.int(1, 'row height', 0, 0, 32000);
      const security = p.int(2, 'security level', 0, 0, 8);
      const columns = p.int(3, 'data columns', 0, 0, 30);
      const rows = p.int(4, 'rows', 0, 0, 90);
      const truncate = yes(p, 5, 'truncate', false);
      const options: Record<string, string | number | boolean> = {};
      if (security > 0) options.eclevel = security;
      if (columns >= 1) options.columns = columns;
      if (rows >= 3) options.rows = rows;
      // The row height is h times the module width; h defaults to the ^BY height (the guide's
      // rule, which makes tall rows: 10 x 2 = 20 dots by default).
      const rowHeight = (rowMult > 0 ? rowMult : c.by.height) * c.by.moduleWidth;
      return { kind: 'matrix', command: 'B7', name: 'PDF417', orientation, bcid: truncate ? 'pdf417compact' : 'pdf417', options, moduleSize: c.by.moduleWidth, rowHeight, convert: { kind: 'plain' } };
    },
  },
  B8: {
    name: 'EAN-8',
    build: (p, c) => linear('B8', 'EAN-8', 'ean8', p, c, { hi: 1, fi: 2, gi: 3 }),
  },
  B9: {
    name: 'UPC-E',
    build: (p, c) => linear('B9', 'UPC-E', 'upce', p, c, { hi: 1, fi: 2, gi: 3 }),
  },
  BA: {
    name: 'Code 93',
    build: (p, c) => linear('BA', 'Code 93', 'code93', p, c, { hi: 1, fi: 2, gi: 3 }),
  },
  BB: {
    name: 'CODABLOCK',
    build: (p, c) => {
      // c: data characters per row, r: rows (bwip-js takes 4–62 columns, 2–44 rows; outside
      // that it chooses, as it does when they are not given).
      const columns = p.int(3, 'characters per row', 0, 0, 62);
      const rows = p.int(4, 'rows', 0, 0, 44);
      const options: Record<string, string | number | boolean> = {};
      if (columns >= 4) options.columns = columns;
      if (rows >= 2) options.rows = rows;
      // h given: each row is h x the module width high; without it the ^BY height is the
      // whole symbol's (the guide's two rules).
      const spec = linear('BB', 'CODABLOCK', 'codablockf', p, c, { hi: 1, fi: -1, gi: null }, { options });
      return p.has(1) ? { ...spec, rowHeight: spec.height * c.by.moduleWidth } : spec;
    },
  },
  BC: {
    name: 'Code 128',
    build: (p, c) => {
      const ucc = yes(p, 4, 'UCC check digit', false);
      const mode = p.choice(5, 'mode', ['N', 'U', 'A', 'D'] as const, 'N');
      return linear('BC', 'Code 128', mode === 'D' || mode === 'U' ? 'gs1-128' : 'code128', p, c, { hi: 1, fi: 2, gi: 3 }, {
        convert: { kind: 'code128', mode },
        options: ucc ? { includecheck: true } : {},
      });
    },
  },
  BD: {
    name: 'MaxiCode',
    build: (p, c) => {
      const mode = p.int(0, 'mode', 2, 2, 6);
      const symbol = p.int(1, 'symbol number', 1, 1, 8);
      const total = p.int(2, 'total symbols', 1, 1, 8);
      const options: Record<string, string | number | boolean> = { mode };
      if (total > 1) {
        options.sam = `${symbol}${total}`;
      }
      return { kind: 'matrix', command: 'BD', name: 'MaxiCode', orientation: 'N', bcid: 'maxicode', options, moduleSize: maxicodePitch(c.dpi), convert: { kind: 'maxicode', mode } };
    },
  },
  BE: {
    name: 'EAN-13',
    build: (p, c) => linear('BE', 'EAN-13', 'ean13', p, c, { hi: 1, fi: 2, gi: 3 }),
  },
  BF: {
    name: 'MicroPDF417',
    build: (p, c) => {
      const orientation = p.orientation(0, c.fieldOrientation);
      const rowMult = p.int(1, 'row height', 0, 0, 9999);
      p.int(2, 'mode', 0, 0, 33);
      const rowHeight = (rowMult > 0 ? rowMult : c.by.height) * c.by.moduleWidth;
      return { kind: 'matrix', command: 'BF', name: 'MicroPDF417', orientation, bcid: 'micropdf417', options: {}, moduleSize: c.by.moduleWidth, rowHeight, convert: { kind: 'plain' } };
    },
  },
  BI: {
    name: 'Industrial 2 of 5',
    build: (p, c) => linear('BI', 'Industrial 2 of 5', 'industrial2of5', p, c, { hi: 1, fi: 2, gi: 3 }, { convert: { kind: 'digits' } }),
  },
  BJ: {
    name: 'Standard 2 of 5',
    build: (p, c) => linear('BJ', 'Standard 2 of 5', 'code2of5', p, c, { hi: 1, fi: 2, gi: 3 }, { convert: { kind: 'digits' } }),
  },
  BK: {
    name: 'ANSI Codabar',
    build: (p, c) => {
      p.yes(1, 'check digit', false);
      const start = p.choice(5, 'start character', ['A', 'B', 'C', 'D'] as const, 'A');
      const stop = p.choice(6, 'stop character', ['A', 'B', 'C', 'D'] as const, 'A');
      return linear('BK', 'Codabar', 'rationalizedCodabar', p, c, { hi: 2, fi: 3, gi: 4 }, { convert: { kind: 'codabar', start, stop } });
    },
  },
  BL: {
    name: 'LOGMARS',
    build: (p, c) => linear('BL', 'LOGMARS', 'code39', p, c, { hi: 1, fi: -1, gi: null }, { interpretation: yes(p, 2, 'interpretation line above', false) ? 'above' : 'none', convert: { kind: 'code39', check: true } }),
  },
  BM: {
    name: 'MSI',
    build: (p, c) => {
      const check = p.choice(1, 'check digit', ['A', 'B', 'C', 'D'] as const, 'B');
      const checktype = check === 'A' ? null : check === 'B' ? 'mod10' : check === 'C' ? 'mod1010' : 'mod1110';
      return linear('BM', 'MSI', 'msi', p, c, { hi: 2, fi: 3, gi: 4 }, { options: checktype ? { includecheck: true, checktype, includecheckintext: yes(p, 5, 'check digit in interpretation line', false) } : {} });
    },
  },
  BO: { name: 'Aztec', build: (p, c) => aztec('BO', p, c) },
  B0: { name: 'Aztec', build: (p, c) => aztec('B0', p, c) },
  BP: {
    name: 'Plessey',
    build: (p, c) => {
      // The CRC is always encoded; e prints its two hex characters in the interpretation line.
      const printCheck = yes(p, 1, 'print check digit', false);
      return linear('BP', 'Plessey', 'plessey', p, c, { hi: 2, fi: 3, gi: 4 }, { options: printCheck ? { includecheckintext: true } : {} });
    },
  },
  BQ: {
    name: 'QR Code',
    build: (p, c) => {
      p.orientation(0, 'N');
      p.int(1, 'model', 2, 1, 2);
      const mag = p.int(2, 'magnification', magnificationFor(c.dpi), 1, 10);
      const ecc = p.choice(3, 'error correction', ['H', 'Q', 'M', 'L'] as const, 'Q');
      // The mask (0-7) is bwip-js's choice: a valid QR code either way.
      p.int(4, 'mask', 7, 0, 7);
      return { kind: 'matrix', command: 'BQ', name: 'QR Code', orientation: 'N', bcid: 'qrcode', options: { eclevel: ecc }, moduleSize: mag, convert: { kind: 'qr' } };
    },
  },
  BR: {
    name: 'GS1 DataBar',
    build: (p, c) => {
      const orientation = p.orientation(0, c.fieldOrientation);
      const type = p.int(1, 'symbology type', 1, 1, 12);
      const mag = p.int(2, 'magnification', 1, 1, 10);
      p.int(3, 'separator height', 1, 1, 2);
      const height = p.int(4, 'bar code height', 25, 1, 32000);
      const segments = p.int(5, 'segment width', 22, 2, 22);
      const bcid = ['databaromni', 'databartruncated', 'databarstacked', 'databarstackedomni', 'databarlimited', 'databarexpanded', 'upca', 'upce', 'ean13', 'ean8', 'gs1-128', 'gs1-128'][type - 1];
      const options: Record<string, string | number | boolean> = {};
      if (type === 6 && segments % 2 === 0 && segments < 22) options.segments = segments;
      return {
        kind: 'linear', command: 'BR', name: 'GS1 DataBar', orientation, bcid, options,
        moduleWidth: mag, ratio: 2, height, interpretation: 'none',
        convert: { kind: type <= 6 || type >= 11 ? 'gs1' : 'plain' },
      };
    },
  },
  BS: {
    name: 'UPC/EAN Extension',
    build: (p, c) => linear('BS', 'UPC/EAN Extension', 'ean5', p, c, { hi: 1, fi: 2, gi: 3 }, { convert: { kind: 'upcEanExtension' } }),
  },
  BU: {
    name: 'UPC-A',
    build: (p, c) => linear('BU', 'UPC-A', 'upca', p, c, { hi: 1, fi: 2, gi: 3 }),
  },
  BX: {
    name: 'Data Matrix',
    build: (p, c) => {
      const orientation = p.orientation(0, c.fieldOrientation);
      const module = p.int(1, 'element height', Math.max(1, c.by.moduleWidth), 1, 1000);
      const quality = p.int(2, 'quality level', 0, 0, 200);
      const columns = p.int(3, 'columns', 0, 0, 144);
      const rows = p.int(4, 'rows', 0, 0, 144);
      const escape = p.raw(6) || '~';
      const aspect = p.int(7, 'aspect ratio', 1, 1, 2);
      if (quality !== 200 && quality !== 0 && p.has(2)) p.problems.push(`quality level ${quality} (ECC 000–140) is printed as ECC 200`);
      const options: Record<string, string | number | boolean> = {};
      if (columns > 0) options.columns = columns;
      if (rows > 0) options.rows = rows;
      if (aspect === 2) options.format = 'rectangle';
      return { kind: 'matrix', command: 'BX', name: 'Data Matrix', orientation, bcid: 'datamatrix', options, moduleSize: module, convert: { kind: 'dataMatrix', escape: escape[0] } };
    },
  },
  BZ: {
    name: 'POSTAL',
    build: (p, c) => {
      const type = p.int(4, 'postal code type', 0, 0, 3);
      const bcid = type === 1 ? 'planet' : type === 3 ? 'onecode' : 'postnet';
      return linear('BZ', 'POSTAL', bcid, p, c, { hi: 1, fi: 2, gi: 3 });
    },
  },
};

function aztec(command: string, p: Params, c: BarcodeContext): MatrixSpec {
  const orientation = p.orientation(0, c.fieldOrientation);
  const mag = p.int(1, 'magnification', magnificationFor(c.dpi), 1, 10);
  p.yes(2, 'extended channel interpretation', false);
  const size = p.int(3, 'error control and symbol size', 0, 0, 300);
  const menu = p.yes(4, 'menu symbol', false);
  const options: Record<string, string | number | boolean> = {};
  if (size >= 1 && size <= 99) options.eclevel = size;
  else if (size >= 101 && size <= 104) {
    options.format = 'compact';
    options.layers = size - 100;
  } else if (size >= 201 && size <= 232) options.layers = size - 200;
  else if (size === 300) options.format = 'rune';
  if (menu) options.readerinit = true;
  return { kind: 'matrix', command, name: 'Aztec', orientation, bcid: 'azteccode', options, moduleSize: mag, convert: { kind: 'plain' } };
}

export type Prepared =
  | {
      ok: true;
      text: string;
      options: Record<string, string | number | boolean>;
      humanReadable?: string;
      /** A symbology other than the command's (Code 128 mode D data without parentheses). */
      bcid?: string;
    }
  | { ok: false; error: string };

/**
 * Code 128 in Zebra's modes. Mode N honours the invocation codes (>: subset B, >; subset C,
 * >9 subset A at the start, >5 >6 >7 switches, >8 FNC1, >< is '<', >0 is '>', >= '~'); Zebra
 * starts in subset B when the data names no start subset, so C is not used then.
 */
function code128(data: string, mode: 'N' | 'U' | 'A' | 'D'): Prepared {
  if (mode === 'D') {
    // GS1-128: "(AI)data…" is checked and encoded as GS1; data without parentheses is sent as
    // Zebra does, a leading FNC1 and >8 as FNC1 between variable-length fields (USPS IMpb).
    if (data.includes('(')) return { ok: true, text: data, options: {}, humanReadable: data };
    const text = `^FNC1${escapeCaret(data).replace(/>8/g, '^FNC1')}`;
    return { ok: true, text, options: { parsefnc: true }, humanReadable: data.replace(/>8/g, ''), bcid: 'code128' };
  }
  if (mode === 'U') {
    // UCC case mode: 19 digits (padded or cut) plus a mod 10 check digit, SSCC-style.
    const digits = data.replace(/\D/g, '').padEnd(19, '0').slice(0, 19);
    const check = mod10(digits);
    const text = `(${digits.slice(0, 2)})${digits.slice(2)}${check}`;
    return { ok: true, text, options: {}, humanReadable: text };
  }
  if (mode === 'A') return { ok: true, text: escapeCaret(data), options: { parsefnc: true }, humanReadable: data };
  let out = '';
  let hr = '';
  let usesC = false;
  for (let i = 0; i < data.length; i++) {
    const ch = data[i];
    if (ch === '>' && i + 1 < data.length) {
      const code = data[i + 1];
      i++;
      switch (code) {
        case ';': case '5': usesC = true; break;
        case ':': case '6': case '9': case '7': break;
        case '8': out += '^FNC1'; break;
        case '<': out += '<'; hr += '<'; break;
        case '0': out += '>'; hr += '>'; break;
        case '=': out += '~'; hr += '~'; break;
        case '1': out += '^FNC1'; break;
        case '2': out += '^FNC2'; break;
        case '3': out += '^FNC3'; break;
        case '4': out += '^FNC4'; break;
        default: out += `>${code}`; hr += `>${code}`;
      }
      continue;
    }
    out += ch === '^' ? '^094' : ch;
    hr += ch;
  }
  const options: Record<string, string | number | boolean> = { parsefnc: true };
  if (!usesC) {
    // bwip-js honours suppressc in its newer encoder only.
    options.suppressc = true;
    options.newencoder = true;
  }
  return { ok: true, text: out, options, humanReadable: hr };
}

/**
 * Code 11 check characters (USS Code 11): C is the sum of the characters weighted 1 to 10 from
 * the right, mod 11; K the same over the data and C with weights 1 to 9. The dash counts 10
 * and a value of 10 prints as a dash.
 */
export function code11CheckDigits(data: string, count: 1 | 2): string {
  const value = (ch: string): number => (ch === '-' ? 10 : ch.charCodeAt(0) - 48);
  const weighted = (s: string, maxWeight: number): number => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += (((s.length - 1 - i) % maxWeight) + 1) * value(s[i]);
    return sum % 11;
  };
  const char = (v: number): string => (v === 10 ? '-' : String(v));
  const c = char(weighted(data, 10));
  return count === 1 ? c : c + char(weighted(data + c, 9));
}

const escapeCaret = (s: string): string => s.replace(/\^/g, '^094');

function mod10(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * ^BQ field data: `<ecc><input mode>,<data>`: ecc H/Q/M/L, input mode A (automatic) or M
 * (manual: a character mode N, A, B with a four-digit byte count, or K, then the data).
 */
export function qrData(data: string, defaultEcc: string): Prepared {
  const m = /^([HQML])?([AM])?,([\s\S]*)$/i.exec(data);
  if (!m) return { ok: false, error: 'QR field data must start with the error correction and input mode, e.g. "QA,data"' };
  const ecc = (m[1] ?? defaultEcc).toUpperCase();
  let text = m[3];
  if ((m[2] ?? 'A').toUpperCase() === 'M') {
    const mode = text[0]?.toUpperCase();
    if (mode === 'B') text = text.slice(5);
    else if (mode === 'N' || mode === 'A' || mode === 'K') text = text.slice(1);
  }
  if (text.length === 0) return { ok: false, error: 'QR code has no data' };
  return { ok: true, text, options: { eclevel: ecc } };
}

/**
 * ^BD field data. Modes 2 and 3 start with the high priority message: class of service (3
 * digits), country code (3 digits), then the postal code: 9 digits in mode 2 (zip + 4), 6
 * letters or digits in mode 3. The low priority message follows; when it starts with the ANSI
 * header `[)>` RS `01` GS `yy`, the primary fields go after that header as the carrier format
 * says. Modes 4–6: the message as is.
 */
export function maxicodeData(data: string, mode: number): Prepared {
  if (mode >= 4) return { ok: true, text: data, options: { mode } };
  const postalLength = mode === 2 ? 9 : 6;
  const hpm = 6 + postalLength;
  if (data.length < hpm) return { ok: false, error: `MaxiCode mode ${mode} needs a ${hpm}-character high priority message (class, country, postal code); got ${data.length} characters` };
  const cls = data.slice(0, 3), country = data.slice(3, 6);
  const postal = data.slice(6, hpm).trim();
  const rest = data.slice(hpm);
  if (!/^\d{3}$/.test(cls) || !/^\d{3}$/.test(country)) return { ok: false, error: 'MaxiCode class of service and country code must be 3 digits each' };
  if (mode === 2 && !/^\d+$/.test(postal)) return { ok: false, error: 'MaxiCode mode 2 needs a numeric postal code (use mode 3 for letters)' };
  const GS = '\u001d';
  const header = /^\[\)>\u001e01\u001d\d\d/.exec(rest);
  const primary = `${postal}${GS}${country}${GS}${cls}${GS}`;
  const text = header ? `${header[0]}${primary}${rest.slice(header[0].length)}` : `${primary}${rest}`;
  return { ok: true, text, options: { mode } };
}

/** Field data to what bwip-js encodes, with the interpretation line text. */
export function prepareData(spec: BarcodeSpec, data: string): Prepared {
  const c = spec.convert;
  switch (c.kind) {
    case 'plain':
      return { ok: true, text: data, options: {} };
    case 'code39': {
      const text = data.toUpperCase();
      return { ok: true, text, options: c.check ? { includecheck: true, includecheckintext: true } : {}, humanReadable: `*${text}*` };
    }
    case 'code11':
      if (!/^[0-9-]+$/.test(data)) return { ok: false, error: 'Code 11 encodes only digits and the dash' };
      return { ok: true, text: data + code11CheckDigits(data, c.checks), options: {}, humanReadable: data };
    case 'code128':
      return code128(data, c.mode);
    case 'codabar':
      return { ok: true, text: `${c.start}${data}${c.stop}`, options: {}, humanReadable: `${c.start}${data}${c.stop}` };
    case 'qr':
      return qrData(data, String(spec.options.eclevel ?? 'Q'));
    case 'maxicode':
      return maxicodeData(data, c.mode);
    case 'upcEanExtension':
      return { ok: true, text: data, options: {}, humanReadable: data };
    case 'gs1': {
      const text = data.includes('(') ? data : `(01)${data}`;
      return { ok: true, text, options: {} };
    }
    case 'dataMatrix':
      return dataMatrixData(data, c.escape);
    case 'digits': {
      const text = data.replace(/\D/g, '');
      if (text.length === 0) return { ok: false, error: `${spec.name} has no digits to encode` };
      return { ok: true, text, options: {} };
    }
  }
}

/**
 * ^BX field data with its escape character e (ZPL guide, ^BX parameter g): e1 / e2 / e3 are
 * FNC1 (GS1 data when first) to FNC3, eX a control character (e@ NUL … e_ US), edNNN the byte
 * NNN, e5NNN code page NNN (an ECI), ee the escape character itself. To bwip-js with FNC
 * parsing, so a caret is escaped.
 */
export function dataMatrixData(data: string, e: string): Prepared {
  if (!data.includes(e)) return { ok: true, text: data, options: {} };
  let text = '';
  let fnc = false;
  for (let i = 0; i < data.length; i++) {
    const ch = data[i];
    if (ch !== e || i + 1 >= data.length) { text += ch === '^' ? '^094' : ch; continue; }
    const code = data[++i];
    if (code === e) text += e === '^' ? '^094' : e;
    else if (code === '1' || code === '2' || code === '3') {
      if (code !== '2') { text += `^FNC${code}`; fnc = true; }
    } else if ((code === 'd' || code === '5') && /^\d{3}$/.test(data.slice(i + 1, i + 4))) {
      const n = Number(data.slice(i + 1, i + 4));
      i += 3;
      if (code === '5') { text += `^ECI${String(n).padStart(6, '0')}`; fnc = true; } else text += n === 94 ? '^094' : String.fromCharCode(n);
    } else if (code >= '@' && code <= '_') text += String.fromCharCode(code.charCodeAt(0) - 64);
    else text += code === '^' ? '^094' : code;
  }
  return { ok: true, text, options: fnc || text.includes('^094') ? { parsefnc: true } : {} };
}

/** ^BS chooses EAN-2 or EAN-5 by the data length. */
export function extensionBcid(data: string): string {
  return data.replace(/\D/g, '').length <= 2 ? 'ean2' : 'ean5';
}
