/**
 * Bar code adapters shared by every engine (ESC/POS, EPL, Star, ZPL): what sits between a
 * protocol's own parameters and the bwip-js rasteriser (barcode.ts). Engines keep only the
 * translation of their command's numbers and options; the symbology names, the data rules
 * every symbology has whatever protocol sends it, the request building with its cache, and
 * where the human-readable text goes are here, once.
 */
import { renderLinearBarcode, renderMatrixCode, type BarcodeResult, type MatrixCodeRequest } from './barcode.ts';
import { SymbolCache } from './symbol-cache.ts';

/**
 * The bwip-js ids of the linear symbologies the engines print (a typo is a compile error).
 * Extend the list when an engine prints another one.
 */
export type LinearBcid =
  | 'upca' | 'upce' | 'ean13' | 'ean8'
  | 'code39' | 'code39ext' | 'code93' | 'code93ext' | 'code128' | 'gs1-128'
  | 'interleaved2of5' | 'itf14' | 'matrix2of5' | 'identcode' | 'leitcode'
  | 'rationalizedCodabar' | 'plessey' | 'msi'
  | 'postnet' | 'planet' | 'japanpost'
  | 'databaromni' | 'databartruncated' | 'databarlimited' | 'databarstacked' | 'databarstackedomni' | 'databarexpanded' | 'databarexpandedstacked';

/** The bwip-js ids of the 2D symbologies the engines print. */
export type MatrixBcid = 'qrcode' | 'microqrcode' | 'pdf417' | 'pdf417compact' | 'maxicode' | 'datamatrix' | 'azteccode';

/**
 * A linear symbol as an engine's command describes it, before the printer's dot sizes: the
 * symbology, the data as bwip-js takes it, bwip options, and the text printed with it when it
 * differs from what bwip-js derives (e.g. "(00) " spacing, Codabar without start/stop).
 */
export interface LinearSymbol {
  bcid: LinearBcid;
  text: string;
  options?: Record<string, string | number | boolean>;
  /** Human-readable text, when the protocol prints something else than bwip-js's. */
  humanReadable?: string;
}

// ------------------------------------------------------------------------------------------
// Data rules

/** The characters of Code 39 without the extended (full ASCII) set. */
const CODE39_BASIC = /^[0-9A-Z\-. $/+%]*$/;

/** True when `s` prints as standard Code 39 (else it needs Code 39 extended). */
export const isCode39Basic = (s: string): boolean => CODE39_BASIC.test(s);

export const isDigits = (s: string): boolean => /^\d+$/.test(s);

/** GS1 mod 10 check digit of a digit string (weights 3,1 from the right): GTIN, SSCC, EAN/UPC. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * The 14-digit GTIN a GS1 DataBar symbol carries: 12 to 14 digits, with or without AI "(01)" /
 * "01", spaces or dashes; 12 digits get a leading 0, 13 digits their check digit. Null when the
 * data is no GTIN.
 */
export function gtin14(data: string): string | null {
  let d = data.replace(/[\s()-]/g, '');
  if (d.startsWith('01') && (d.length === 15 || d.length === 16)) d = d.slice(2);
  if (!isDigits(d) || d.length < 12 || d.length > 14) return null;
  if (d.length === 12) d = '0' + d;
  return d.length === 13 ? d + gs1CheckDigit(d) : d;
}

/** bwip-js `parse` escape for one data byte: ^NNN for control characters, the caret and bytes >= 0x7f. */
export function bwipEscape(byte: number): string {
  if (byte < 0x20 || byte === 0x5e || byte >= 0x7f) return '^' + String(byte).padStart(3, '0');
  return String.fromCharCode(byte);
}

// ------------------------------------------------------------------------------------------
// Rendering (one bounded cache for every engine: copies of a label, a receipt printed again,
// the same QR code on every receipt reuse the bitmap and, through png.ts's memo, its PNG)

const symbols = new SymbolCache<BarcodeResult>((r) => (r.ok ? r.value.bitmap.pixels.byteLength : 0));

/**
 * The bars of `symbol`, `moduleWidth` dots per narrow element, `height` dots tall; `wideRatio`
 * for two-width symbologies. The result's human-readable text is the symbol's own when given.
 */
export function renderLinearSymbol(symbol: LinearSymbol, moduleWidth: number, height: number, wideRatio?: number): BarcodeResult {
  const key = `L\u0000${symbol.bcid}\u0000${moduleWidth}\u0000${height}\u0000${wideRatio ?? ''}\u0000${JSON.stringify(symbol.options ?? null)}\u0000${symbol.humanReadable ?? ''}\u0000${symbol.text}`;
  return symbols.get(key, () => {
    const r = renderLinearBarcode({ bcid: symbol.bcid, text: symbol.text, moduleWidth, wideRatio, height, options: symbol.options });
    if (!r.ok || symbol.humanReadable === undefined) return r;
    return { ok: true, value: { ...r.value, humanReadable: symbol.humanReadable } };
  });
}

/** A 2D symbol (cached like linear ones). */
export function renderMatrixSymbol(req: MatrixCodeRequest & { bcid: MatrixBcid }): BarcodeResult {
  const key = `M\u0000${req.bcid}\u0000${req.moduleSize}\u0000${req.rowHeight ?? ''}\u0000${JSON.stringify(req.options ?? null)}\u0000${req.text}`;
  return symbols.get(key, () => renderMatrixCode(req));
}

// ------------------------------------------------------------------------------------------
// Human-readable text

/**
 * Where a label printer puts the human-readable line under a symbol (EPL B, ZPL interpretation
 * line): centred under the bars (never left of them), `gap` dots below. Offsets from the
 * symbol's top-left corner, in the symbol's own orientation.
 */
export function humanReadableBelow(symbol: { width: number; height: number }, textWidth: number, gap: number): { x: number; y: number } {
  return { x: Math.max(0, Math.round((symbol.width - textWidth) / 2)), y: symbol.height + gap };
}
