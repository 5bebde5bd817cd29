/**
 * Shared 1D / 2D symbol rasteriser for the printer engines (ESC/POS, EPL).
 *
 * The bar and module patterns come from bwip-js (`@bwip-js/generic`, the pure JS build that
 * runs in Node, workerd and the browser) through `bwipjs.raw()`, which returns exact bar and
 * space widths in modules (1D) or the module matrix (2D). The Bitmap is built here so that
 * every module is an exact integer number of printer dots, as a real printer draws it: no
 * antialiasing, no quiet zone, no human-readable text (that is returned as a string for the
 * engine to print with its own font).
 *
 * Pure TypeScript: no Node or Cloudflare imports.
 */
import * as bwipModule from '@bwip-js/generic';
import { Bitmap } from './bitmap.ts';
import { needsByteCompaction, pdf417ByteCodewords } from './pdf417-bytes.ts';

export interface LinearBarcodeRequest {
  /** A bwip-js symbology id: 'upca','upce','ean13','ean8','code39','code128','gs1-128','interleaved2of5',... */
  bcid: string;
  /** Data as the printer received it (already decoded to a string). */
  text: string;
  /** Narrow bar width in dots (integer >= 1). */
  moduleWidth: number;
  /**
   * Wide:narrow ratio for two-width symbologies (code39, itf, codabar, msi, code11, 2of5...),
   * e.g. 2, 2.5, 3. A wide element is round(ratio * moduleWidth) dots (at least
   * moduleWidth + 1). Default 3. Ignored by other symbologies.
   */
  wideRatio?: number;
  /** Bar height in dots (the full height of the symbol; stacked symbols split it between rows). */
  height: number;
  /**
   * Row-separated stacked symbols (Code 16K, Code 49, CODABLOCK F): dots per data row, the
   * separator bars one module high, instead of sharing `height` between all rows.
   */
  rowHeight?: number;
  /** Passed through to bwip (e.g. parsefnc, includecheck, includecheckintext). */
  options?: Record<string, string | number | boolean>;
}

export interface RenderedBarcode {
  bitmap: Bitmap;
  /**
   * The text a printer prints with the symbol, including computed check digits where the
   * symbology shows them (e.g. 13 digits for EAN-13 given 12). An EAN/UPC add-on is
   * separated from the main number by one space. Empty for 2D symbols.
   */
  humanReadable: string;
  /** 2D symbols: number of module columns and rows (optional extra). */
  columns?: number;
  rows?: number;
}

export type BarcodeResult = { ok: true; value: RenderedBarcode } | { ok: false; error: string };

export interface MatrixCodeRequest {
  bcid: 'qrcode' | 'pdf417' | 'datamatrix' | 'azteccode' | 'maxicode' | 'micropdf417' | string;
  /** May contain binary data as latin1 chars (each char one byte). */
  text: string;
  /**
   * Dots per module (integer >= 1); for pdf417/micropdf417 the module width (row height is
   * `rowHeight`); for maxicode the horizontal pitch of the hexagons.
   */
  moduleSize: number;
  /** pdf417 / micropdf417 row height in dots (default 3 x moduleSize, 2 x for micropdf417). */
  rowHeight?: number;
  /** eclevel, version, columns, rows, mode... passed through to bwip. */
  options?: Record<string, string | number | boolean>;
}

/** Upper bound on the pixels of one rendered symbol (protects against absurd sizes). */
const MAX_PIXELS = 1 << 25;

type RawLinear = { sbs: number[]; bhs: number[]; bbs: number[]; txt?: unknown[] };
type RawMatrix = { pixs: ArrayLike<number>; pixx: number; pixy: number; txt?: unknown[] };
type RawElem = Partial<RawLinear & RawMatrix>;

/** Symbologies built from narrow and wide elements only, where `wideRatio` applies. */
const TWO_WIDTH = new Set([
  'code39', 'code39ext', 'code32', 'hibccode39', 'pzn',
  'interleaved2of5', 'itf14', 'code2of5', 'industrial2of5', 'iata2of5', 'matrix2of5',
  'datalogic2of5', 'coop2of5', 'identcode', 'leitcode',
  'rationalizedCodabar', 'msi', 'code11',
]);

/** Height-modulated postal codes: bars keep bwip's relative heights and offsets. */
const HEIGHT_MODULATED = new Set([
  'postnet', 'planet', 'japanpost', 'kix', 'royalmail', 'auspost', 'onecode', 'mailmark', 'daft',
  'pharmacode2',
]);

/** Multi-row linear symbologies: bwip returns a module matrix for them. */
const STACKED = new Set([
  'databarstacked', 'databarstackedomni', 'databarexpandedstacked', 'databartruncated',
  'code16k', 'code49', 'codablockf', 'hibccodablockf',
]);

/** EAN/UPC family: human-readable text is built from bwip's per-digit text. */
const EAN_UPC = new Set(['ean13', 'ean8', 'upca', 'upce', 'isbn', 'ismn', 'issn', 'ean5', 'ean2']);

function errorText(bcid: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  // bwip messages look like "bwipp.code39badCharacter#10180: Code 39 must contain ...".
  const cleaned = msg.replace(/^bwipp\.[A-Za-z0-9_]+#\d+:\s*/, '').replace(/^bwip-js:\s*/, '');
  if (/^bwipp\.(undefined|unknown)Encoder/.test(msg)) return `unknown symbology '${bcid}'`;
  return `${bcid}: ${cleaned}`;
}

function isPositiveInt(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1;
}

/** bwip UTF-8-encodes chars >= 0x80 unless told the text is already bytes. */
function bwipOptions(text: string, extra: Record<string, string | number | boolean> | undefined, base: Record<string, unknown>): Record<string, unknown> {
  const opts: Record<string, unknown> = { ...base, ...(extra ?? {}) };
  if (opts.binarytext === undefined && /[\u0080-\u00ff]/.test(text) && !/[\u0100-\uffff]/.test(text)) {
    opts.binarytext = true;
  }
  return opts;
}

// The default export's raw() is bwip-js's ToRaw (the named `raw` export is the "raw" symbology).
// Its typings declare `export =`, so reach the default export through the namespace.
const bwipToRaw = (bwipModule as unknown as { default: { raw(o: Record<string, unknown>): RawElem[] } }).default.raw;

function callRaw(bcid: string, text: string, opts: Record<string, unknown>): RawElem[] {
  const out = bwipToRaw({ ...opts, bcid, text });
  if (!Array.isArray(out) || out.length === 0) throw new Error('no symbol produced');
  return out;
}

/**
 * Small LRU of bwip results. bwip's encoders are deterministic but slow for some symbologies
 * (a QR code costs ~3 ms, mostly mask selection), and printers are sent the same symbol again
 * and again (a shop's URL on every receipt). Bounded: at most RAW_CACHE_ENTRIES entries, only
 * for data up to RAW_CACHE_MAX_TEXT chars, module matrices stored as bytes (QR version 40 is
 * ~31 KB), so the cache never holds more than a few MB. Bitmaps are always built fresh.
 */
const RAW_CACHE_ENTRIES = 128;
const RAW_CACHE_MAX_TEXT = 1024;
type RawOutcome = { ok: true; elem: RawElem } | { ok: false; error: string };
const rawCache = new Map<string, RawOutcome>();

function compact(elem: RawElem): RawElem {
  if (elem.pixs && Array.isArray(elem.pixs)) {
    const src = elem.pixs as number[];
    let fitsBytes = true;
    for (let i = 0; i < src.length; i++) if (src[i] > 255 || src[i] < 0) { fitsBytes = false; break; }
    return { ...elem, pixs: fitsBytes ? Uint8Array.from(src) : Uint16Array.from(src) };
  }
  return elem;
}

function rawCached(bcid: string, text: string, opts: Record<string, unknown>): RawOutcome {
  const cacheable = text.length <= RAW_CACHE_MAX_TEXT;
  let key = '';
  if (cacheable) {
    key = `${bcid}\u0000${text}\u0000${JSON.stringify(opts)}`;
    const hit = rawCache.get(key);
    if (hit) {
      rawCache.delete(key);
      rawCache.set(key, hit);
      return hit;
    }
  }
  let outcome: RawOutcome;
  try {
    outcome = { ok: true, elem: compact(callRaw(bcid, text, opts)[0]) };
  } catch (e) {
    outcome = { ok: false, error: errorText(bcid, e) };
  }
  if (cacheable) {
    if (rawCache.size >= RAW_CACHE_ENTRIES) {
      const oldest = rawCache.keys().next().value;
      if (oldest !== undefined) rawCache.delete(oldest);
    }
    rawCache.set(key, outcome);
  }
  return outcome;
}

function humanReadableFrom(bcid: string, text: string, elem: RawElem): string {
  if (bcid === 'code39ext') return `*${text}*`;
  if (bcid === 'code93ext') return text;
  const txt = elem.txt;
  if (!Array.isArray(txt) || txt.length === 0) return text;
  let out = '';
  let lastY: number | null = null;
  for (const t of txt) {
    if (!Array.isArray(t) || typeof t[0] !== 'string') continue;
    const y = typeof t[2] === 'number' ? t[2] : 0;
    // EAN/UPC add-on digits sit on a different baseline: separate them with a space.
    if (EAN_UPC.has(bcid) && lastY !== null && Math.abs(y - lastY) > 1) out += ' ';
    lastY = y;
    out += t[0];
  }
  return out || text;
}

export function renderLinearBarcode(req: LinearBarcodeRequest): BarcodeResult {
  try {
    const { bcid, text } = req;
    if (typeof bcid !== 'string' || bcid === '') return { ok: false, error: 'missing symbology' };
    if (typeof text !== 'string' || text.length === 0) return { ok: false, error: `${bcid}: no data` };
    if (!isPositiveInt(req.moduleWidth)) return { ok: false, error: `${bcid}: module width must be an integer >= 1 (got ${req.moduleWidth})` };
    if (!isPositiveInt(req.height)) return { ok: false, error: `${bcid}: height must be an integer >= 1 (got ${req.height})` };
    if (req.rowHeight !== undefined && !isPositiveInt(req.rowHeight)) return { ok: false, error: `${bcid}: row height must be an integer >= 1 (got ${req.rowHeight})` };
    const ratio = req.wideRatio ?? 3;
    if (!(typeof ratio === 'number' && Number.isFinite(ratio) && ratio > 0)) return { ok: false, error: `${bcid}: invalid wide ratio ${req.wideRatio}` };

    // Code 93's two check characters are mandatory (printers always add them); bwip adds them
    // only on request.
    const base: Record<string, unknown> = { includetext: true };
    if (bcid === 'code93' || bcid === 'code93ext') base.includecheck = true;
    // EAN/UPC add-on: 9 modules between the main symbol and the add-on (ISO/IEC 15420 allows
    // 7-12; bwip's 12 is at the edge and some scanners miss the add-on then).
    if (EAN_UPC.has(bcid)) base.addongap = 9;
    const opts = bwipOptions(text, req.options, base);
    const raw = rawCached(bcid, text, opts);
    if (!raw.ok) return raw;
    const elem = raw.elem;
    const humanReadable = humanReadableFrom(bcid, text, elem);

    if (elem.pixs && typeof elem.pixx === 'number' && STACKED.has(bcid)) {
      // A stacked linear symbol (databarstacked, code16k, codablockf...): rows of modules.
      const bmp = renderStacked(bcid, elem as RawMatrix, req.moduleWidth, req.height, req.rowHeight);
      if (!bmp.ok) return bmp;
      return { ok: true, value: { bitmap: bmp.bitmap, humanReadable } };
    }
    if (!Array.isArray(elem.sbs) || elem.sbs.length === 0) return { ok: false, error: `${bcid}: not a linear symbology` };
    const bitmap = drawBars(bcid, elem as RawLinear, req.moduleWidth, ratio, req.height);
    if (!bitmap) return { ok: false, error: `${bcid}: symbol too large` };
    return { ok: true, value: { bitmap, humanReadable } };
  } catch (e) {
    return { ok: false, error: errorText(req?.bcid ?? '?', e) };
  }
}

/** Bar/space widths in dots from bwip's widths in modules. */
function elementWidths(bcid: string, sbs: number[], mw: number, ratio: number): Int32Array {
  const n = sbs.length;
  const out = new Int32Array(n);
  let min = Infinity, max = 0, allInt = true, distinct2 = true, wideVal = 0;
  for (let i = 0; i < n; i++) {
    const v = sbs[i];
    if (v > 0 && v < min) min = v;
    if (v > max) max = v;
    if (!Number.isInteger(v)) allInt = false;
    if (v !== 1) {
      if (wideVal === 0) wideVal = v;
      else if (v !== wideVal) distinct2 = false;
    }
  }
  if (TWO_WIDTH.has(bcid) && allInt && distinct2 && wideVal > 1) {
    const wide = Math.max(mw + 1, Math.round(ratio * mw));
    for (let i = 0; i < n; i++) out[i] = sbs[i] === 1 ? mw : sbs[i] === 0 ? 0 : wide;
  } else if (allInt) {
    for (let i = 0; i < n; i++) out[i] = sbs[i] * mw;
  } else {
    // Postal codes give widths in points (e.g. bar 1.44, space 1.872): the narrowest is one module.
    for (let i = 0; i < n; i++) out[i] = sbs[i] <= 0 ? 0 : Math.max(1, Math.round((sbs[i] / min) * mw));
  }
  return out;
}

function drawBars(bcid: string, raw: RawLinear, mw: number, ratio: number, height: number): Bitmap | null {
  const { sbs, bhs, bbs } = raw;
  const widths = elementWidths(bcid, sbs, mw, ratio);
  // No quiet zone: drop a trailing space (bwip ends Code 39 with an intercharacter gap).
  let count = widths.length;
  while (count > 0 && (count & 1) === 0) count--;
  let width = 0;
  for (let i = 0; i < count; i++) width += widths[i];
  if (width <= 0 || width * height > MAX_PIXELS) return null;
  const bmp = new Bitmap(width, height);
  const px = bmp.pixels;

  if (HEIGHT_MODULATED.has(bcid) && Array.isArray(bhs) && Array.isArray(bbs) && bhs.length > 0) {
    // Bar i (element 2i) spans [bbs, bbs + bhs] in bwip units (y up). Map the overall span onto
    // the requested height.
    let top = -Infinity, bottom = Infinity;
    for (let b = 0; b < bhs.length; b++) {
      top = Math.max(top, (bbs[b] ?? 0) + bhs[b]);
      bottom = Math.min(bottom, bbs[b] ?? 0);
    }
    const span = top - bottom || 1;
    let x = 0;
    for (let i = 0; i < count; i++) {
      const w = widths[i];
      if ((i & 1) === 0 && w > 0) {
        const b = i >> 1;
        const hb = bhs[b] ?? span, bb = bbs[b] ?? bottom;
        const y0 = Math.round(((top - (bb + hb)) / span) * height);
        const y1 = Math.round(((top - bb) / span) * height);
        for (let y = y0; y < y1; y++) px.fill(1, y * width + x, y * width + x + w);
      }
      x += w;
    }
    return bmp;
  }

  // Full-height bars: draw the first row, then copy it down.
  let x = 0;
  for (let i = 0; i < count; i++) {
    const w = widths[i];
    if ((i & 1) === 0 && w > 0) px.fill(1, x, x + w);
    x += w;
  }
  for (let y = 1; y < height; y++) px.copyWithin(y * width, 0, width);
  return bmp;
}

/** Relative row heights of stacked linear symbols (bwip's rowmult, not returned by raw()). */
function stackedRowWeights(bcid: string, rows: number, pixs: ArrayLike<number>, pixx: number): number[] {
  const weights: number[] = [];
  if (bcid === 'databarstacked' && rows === 3) return [5, 1, 7];
  if (bcid === 'databarstackedomni' || bcid === 'databarexpandedstacked') {
    // Data rows are tall (34 / 33 modules), separator rows are 1 module.
    for (let r = 0; r < rows; r++) weights.push(isSeparatorRow(pixs, pixx, r) ? 1 : 33);
    return weights;
  }
  for (let r = 0; r < rows; r++) weights.push(1);
  return weights;
}

/** DataBar separator rows alternate single modules: they have many short runs and no long bars. */
function isSeparatorRow(pixs: ArrayLike<number>, pixx: number, r: number): boolean {
  let runs = 0, longest = 0, run = 0, prev = -1;
  for (let c = 0; c < pixx; c++) {
    const v = pixs[r * pixx + c];
    if (v === prev) run++;
    else { if (run > longest) longest = run; run = 1; runs++; prev = v; }
  }
  if (run > longest) longest = run;
  // Data rows contain finder patterns with runs of 5+ modules of one colour and start/end guards.
  return longest <= 4 && runs > pixx / 3;
}

/** Stacked symbols whose rows are divided by separator bars (bwip gives each a module row). */
const ROW_SEPARATED = new Set(['code16k', 'code49', 'codablockf', 'hibccodablockf']);

/** A separator bar row: a solid bar (between the start and stop patterns): few elements. */
function isSeparatorBar(pixs: ArrayLike<number>, pixx: number, r: number): boolean {
  let runs = 1;
  for (let c = 1; c < pixx; c++) if (pixs[r * pixx + c] !== pixs[r * pixx + c - 1]) runs++;
  return runs < pixx / 5;
}

function renderStacked(bcid: string, raw: RawMatrix, mw: number, height: number, rowHeight?: number): { ok: true; bitmap: Bitmap } | { ok: false; error: string } {
  const { pixs, pixx } = raw;
  const rows = Math.floor(pixs.length / pixx);
  if (rows <= 0) return { ok: false, error: `${bcid}: empty symbol` };
  if (rowHeight !== undefined && ROW_SEPARATED.has(bcid)) {
    const heights = Array.from({ length: rows }, (_, r) => (isSeparatorBar(pixs, pixx, r) ? mw : rowHeight));
    const bitmap = drawModuleRows(pixs, pixx, rows, mw, heights);
    return bitmap ? { ok: true, bitmap } : { ok: false, error: `${bcid}: symbol too large` };
  }
  const weights = stackedRowWeights(bcid, rows, pixs, pixx);
  const total = weights.reduce((a, b) => a + b, 0);
  const rowHeights: number[] = [];
  let acc = 0, prevEdge = 0;
  for (let r = 0; r < rows; r++) {
    acc += weights[r];
    const edge = Math.round((acc / total) * height);
    rowHeights.push(Math.max(1, edge - prevEdge));
    prevEdge = Math.max(edge, prevEdge + 1);
  }
  const bitmap = drawModuleRows(pixs, pixx, rows, mw, rowHeights);
  if (!bitmap) return { ok: false, error: `${bcid}: symbol too large` };
  return { ok: true, bitmap };
}

/** Draw a module matrix: each column `mw` dots wide, each row `rowHeights[r]` dots tall. */
function drawModuleRows(pixs: ArrayLike<number>, pixx: number, rows: number, mw: number, rowHeights: number[] | number): Bitmap | null {
  const width = pixx * mw;
  let height = 0;
  for (let r = 0; r < rows; r++) height += typeof rowHeights === 'number' ? rowHeights : rowHeights[r];
  if (width <= 0 || height <= 0 || width * height > MAX_PIXELS) return null;
  const bmp = new Bitmap(width, height);
  const px = bmp.pixels;
  let y = 0;
  for (let r = 0; r < rows; r++) {
    const h = typeof rowHeights === 'number' ? rowHeights : rowHeights[r];
    const rowStart = y * width;
    const src = r * pixx;
    for (let c = 0; c < pixx; c++) {
      if (pixs[src + c]) px.fill(1, rowStart + c * mw, rowStart + c * mw + mw);
    }
    for (let k = 1; k < h; k++) px.copyWithin(rowStart + k * width, rowStart, rowStart + width);
    y += h;
  }
  return bmp;
}

export function renderMatrixCode(req: MatrixCodeRequest): BarcodeResult {
  try {
    const { bcid, text } = req;
    if (typeof bcid !== 'string' || bcid === '') return { ok: false, error: 'missing symbology' };
    if (typeof text !== 'string' || text.length === 0) return { ok: false, error: `${bcid}: no data` };
    if (!isPositiveInt(req.moduleSize)) return { ok: false, error: `${bcid}: module size must be an integer >= 1 (got ${req.moduleSize})` };
    if (req.rowHeight !== undefined && !isPositiveInt(req.rowHeight)) {
      return { ok: false, error: `${bcid}: row height must be an integer >= 1 (got ${req.rowHeight})` };
    }
    const bytesAsCodewords = (bcid === 'pdf417' || bcid === 'pdf417compact') && needsByteCompaction(text) && !req.options?.raw;
    const opts = bytesAsCodewords ? { ...req.options, raw: true } : bwipOptions(text, req.options, {});
    const raw = rawCached(bcid, bytesAsCodewords ? pdf417ByteCodewords(text) : text, opts);
    if (!raw.ok) return raw;
    const elem = raw.elem;
    if (!elem.pixs) return { ok: false, error: `${bcid}: not a 2D symbology` };

    if (bcid === 'maxicode') {
      const bitmap = renderMaxiCode(elem.pixs, req.moduleSize);
      if (!bitmap) return { ok: false, error: `${bcid}: symbol too large` };
      return { ok: true, value: { bitmap, humanReadable: '', columns: 30, rows: 33 } };
    }
    if (typeof elem.pixx !== 'number' || elem.pixx <= 0) return { ok: false, error: `${bcid}: not a 2D symbology` };
    const pixx = elem.pixx;
    // pdf417's pixy counts rows times bwip's row multiplier; the matrix itself has one entry per row.
    const rows = Math.floor(elem.pixs.length / pixx);
    const ms = req.moduleSize;
    const isPdf = bcid === 'pdf417' || bcid === 'pdf417compact' || bcid === 'micropdf417' || bcid === 'hibcpdf417' || bcid === 'hibcmicropdf417';
    const rowHeight = isPdf ? (req.rowHeight ?? (bcid.includes('micro') ? 2 : 3) * ms) : ms;
    const bitmap = drawModuleRows(elem.pixs, pixx, rows, ms, rowHeight);
    if (!bitmap) return { ok: false, error: `${bcid}: symbol too large` };
    return { ok: true, value: { bitmap, humanReadable: '', columns: pixx, rows } };
  } catch (e) {
    return { ok: false, error: errorText(req?.bcid ?? '?', e) };
  }
}

// ---------------------------------------------------------------------------------------------
// MaxiCode
//
// bwip's raw() gives the indices (row * 30 + col) of the dark hexagons on the 33 x 30 grid; the
// bullseye is drawn by its renderer, not listed. Geometry used here (ISO/IEC 16023 layout, as
// bwip-js draws it): pointy-top regular hexagons of width W = moduleSize dots, rows V = W*sqrt(3)/2
// apart, odd rows shifted right by W/2; hexagon (r, c) is centred at ((c + 0.5 + (r & 1)/2) W,
// H/2 + r V) with H = 2W/sqrt(3) its height. Odd rows never use column 29, so the symbol is 30W
// wide and 32V + H tall. Each dot belongs to the hexagon whose centre is nearest (the exact
// hexagonal tiling, so dark hexagons touch like on a thermal print). The bullseye is centred on
// hexagon (16, 14) with bwip's ring radii (dark rings between 0.583/1.349, 2.126/2.892,
// 3.658/4.423 W; the centre is light).
//
// Per module size, the dot -> cell map is computed once and kept in a small bounded cache, so a
// render is one pass over the dots.
// ---------------------------------------------------------------------------------------------

const MAXI_ROWS = 33, MAXI_COLS = 30;
const SQRT3 = Math.sqrt(3);
const RING_SCALE = 3.5 / ((1.04 * 100) / 30); // bwip radii are in units of tsx; a module is ~3.467 tsx
const RINGS = [0.5774, 1.3359, 2.1058, 2.8644, 3.6229, 4.3814].map((r) => r * RING_SCALE);
const MAXI_CELL_BULLSEYE_DARK = -1;
const MAXI_CELL_LIGHT = -2;

interface MaxiLayout { width: number; height: number; cells: Int16Array; }
const maxiLayouts = new Map<number, MaxiLayout>();
const MAXI_CACHE_LIMIT = 4;
const MAXI_MAX_MODULE = 256;

function maxiLayout(W: number): MaxiLayout {
  const hit = maxiLayouts.get(W);
  if (hit) return hit;
  const V = (W * SQRT3) / 2;
  const H = (2 * W) / SQRT3;
  const width = MAXI_COLS * W;
  const height = Math.ceil(32 * V + H);
  const cells = new Int16Array(width * height);
  const bx = 14.5 * W, by = H / 2 + 16 * V;
  const r2 = RINGS.map((r) => (r * W) * (r * W));
  for (let y = 0; y < height; y++) {
    const py = y + 0.5;
    // Candidate rows: the two whose centres bracket py (hexagonal Voronoi needs only these).
    const rf = (py - H / 2) / V;
    const r0 = Math.floor(rf);
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      const dxb = px - bx, dyb = py - by;
      const db = dxb * dxb + dyb * dyb;
      if (db < r2[5]) {
        // Inside the bullseye: rings decide (the data grid leaves this area empty).
        let ring = 0;
        while (ring < 6 && db >= r2[ring]) ring++;
        // ring 0: centre (light); 1: dark; 2: light; 3: dark; 4: light; 5: dark.
        cells[y * width + x] = ring & 1 ? MAXI_CELL_BULLSEYE_DARK : MAXI_CELL_LIGHT;
        continue;
      }
      let best = MAXI_CELL_LIGHT, bestD = Infinity, bdx = 0, bdy = 0;
      for (let r = r0; r <= r0 + 1; r++) {
        if (r < 0 || r >= MAXI_ROWS) continue;
        const cy = H / 2 + r * V;
        const off = (r & 1) ? W : W / 2;
        const c = Math.round((px - off) / W);
        if (c < 0 || c >= MAXI_COLS) continue;
        const cx = c * W + off;
        const d = (px - cx) * (px - cx) + (py - cy) * (py - cy);
        if (d < bestD) { bestD = d; best = r * MAXI_COLS + c; bdx = Math.abs(px - cx); bdy = Math.abs(py - cy); }
      }
      // Outside the grid's outline (beyond the outermost hexagons' edges) stays light.
      if (best >= 0 && (bdx > W / 2 + 1e-9 || bdy > H / 2 - bdx / SQRT3 + 1e-9)) best = MAXI_CELL_LIGHT;
      cells[y * width + x] = best;
    }
  }
  const layout = { width, height, cells };
  if (maxiLayouts.size >= MAXI_CACHE_LIMIT) {
    const first = maxiLayouts.keys().next().value;
    if (first !== undefined) maxiLayouts.delete(first);
  }
  maxiLayouts.set(W, layout);
  return layout;
}

const maxiOn = new Uint8Array(MAXI_ROWS * MAXI_COLS);

function renderMaxiCode(pixs: ArrayLike<number>, W: number): Bitmap | null {
  if (W > MAXI_MAX_MODULE) return null;
  const { width, height, cells } = maxiLayout(W);
  maxiOn.fill(0);
  for (let i = 0; i < pixs.length; i++) {
    const p = pixs[i];
    if (p >= 0 && p < maxiOn.length) maxiOn[p] = 1;
  }
  const bmp = new Bitmap(width, height);
  const px = bmp.pixels;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    px[i] = c >= 0 ? maxiOn[c] : c === MAXI_CELL_BULLSEYE_DARK ? 1 : 0;
  }
  return bmp;
}
