import { VERTICAL_RULE_BEGIN, VERTICAL_RULE_DOUBLE, VERTICAL_RULE_END } from '../escpos/commands/vertical-rules.ts';
import { decodeBase64, elementsOf, textOf, type XmlElement } from '../xml/tree.ts';

/**
 * Epson ePOS-Print XML (namespace http://www.epson-pos.com/schemas/2011/03/epos-print) → the
 * ESC/POS bytes a TM printer runs for it. Pure: the bytes then go through the ESC/POS engine
 * like a job received over TCP, so an ePOS document renders exactly as its ESC/POS would.
 * A document that breaks the schema (an unknown element, an attribute value out of range,
 * bad base64 or hex) is a SchemaError, as a TM printer answers it, and prints nothing.
 */

export class EposSchemaError extends Error {}

const ESC = 0x1b, GS = 0x1d, FS = 0x1c, LF = 0x0a, FF = 0x0c;

/** Bytes appended in order. */
class Out {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  bytes(...b: number[]): void {
    this.chunk(Uint8Array.from(b));
  }
  chunk(c: Uint8Array): void {
    this.parts.push(c);
    this.size += c.length;
  }
  /** `GS ( k`-style function: prefix, pL pH, body. */
  fn(prefix: number[], body: ArrayLike<number>): void {
    this.bytes(...prefix, body.length & 0xff, body.length >> 8);
    this.chunk(Uint8Array.from(body));
  }
  result(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) { out.set(p, at); at += p.length; }
    return out;
  }
}

/** What the translator keeps between elements (a TM printer's print modes). */
interface State {
  width: number;
  height: number;
  utf8: boolean;
  inPage: boolean;
}

// ---- attribute readers ---------------------------------------------------------------------

function where(el: XmlElement, attr: string): string {
  return `<${el.name} ${attr}="${el.attrs[attr]}">`;
}

function bool(el: XmlElement, attr: string): boolean | undefined {
  const v = el.attrs[attr];
  if (v === undefined) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new EposSchemaError(`${where(el, attr)}: expected true or false`);
}

function int(el: XmlElement, attr: string, min: number, max: number): number | undefined {
  const v = el.attrs[attr];
  if (v === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw new EposSchemaError(`${where(el, attr)}: expected an integer from ${min} to ${max}`);
  return n;
}

function oneOf<T extends string>(el: XmlElement, attr: string, values: Readonly<Record<T, number>>): number | undefined {
  const v = el.attrs[attr];
  if (v === undefined) return undefined;
  if (!Object.hasOwn(values, v)) throw new EposSchemaError(`${where(el, attr)}: expected one of ${Object.keys(values).join(', ')}`);
  return values[v as T];
}

function required<T>(el: XmlElement, attr: string, v: T | undefined): T {
  if (v === undefined) throw new EposSchemaError(`<${el.name}>: attribute ${attr} is required`);
  return v;
}

function allowOnly(el: XmlElement, attrs: readonly string[]): void {
  for (const a of Object.keys(el.attrs)) {
    if (!attrs.includes(a)) throw new EposSchemaError(`<${el.name}>: unknown attribute ${a}`);
  }
}

function base64(el: XmlElement): Uint8Array {
  const bytes = decodeBase64(textOf(el));
  if (!bytes) throw new EposSchemaError(`<${el.name}>: its content is not base64`);
  return bytes;
}

const u16 = (n: number): [number, number] => [n & 0xff, (n >> 8) & 0xff];

// ---- value tables (ePOS-Print XML reference) -----------------------------------------------

const ALIGN = { left: 0, center: 1, right: 2 } as const;
const FONT = { font_a: 0, font_b: 1, font_c: 2, font_d: 3, font_e: 4, special_a: 97, special_b: 98 } as const;
const COLOR = { none: 0, color_1: 0, color_2: 1, color_3: 2, color_4: 3 } as const;
const LANG = { en: 0, ja: 1, 'ja-jp': 1, ko: 2, 'ko-kr': 2, 'zh-cn': 3, 'zh-hans': 3, 'zh-tw': 4, 'zh-hant': 4, th: 5, vi: 6, multi: 7, de: 0, fr: 0, es: 0, it: 0 } as const;
const BARCODE = {
  upc_a: 65, upc_e: 66, ean13: 67, jan13: 67, ean8: 68, jan8: 68, code39: 69, itf: 70, codabar: 71, code93: 72,
  code128: 73, gs1_128: 74, gs1_databar_omnidirectional: 75, gs1_databar_truncated: 76, gs1_databar_limited: 77,
  gs1_databar_expanded: 78, code128_auto: 79,
} as const;
const HRI = { none: 0, above: 1, below: 2, both: 3 } as const;
/** `cut type` → GS V's function bytes (partial cuts; `_fullcut` the full ones). */
const CUT: Readonly<Record<string, readonly number[]>> = {
  no_feed: [49], feed: [66, 0], reserve: [104, 0], no_feed_fullcut: [48], feed_fullcut: [65, 0], reserve_fullcut: [103, 0],
};
const CUT_INDEX = Object.fromEntries(Object.keys(CUT).map((k, i) => [k, i]));
const DRAWER = { drawer_1: 0, drawer_2: 1 } as const;
const PULSE = { pulse_100: 100, pulse_200: 200, pulse_300: 300, pulse_400: 400, pulse_500: 500 } as const;
const DIRECTION = { left_to_right: 0, bottom_to_top: 1, right_to_left: 2, top_to_bottom: 3 } as const;
const LINE_STYLE = { thin: 1, medium: 2, thick: 3, thin_double: 1, medium_double: 2, thick_double: 3 } as const;
const DOUBLE_STYLES = new Set(['thin_double', 'medium_double', 'thick_double']);
const MODE = { mono: 0, gray16: 1 } as const;
const SOUND = {
  none: 0, pattern_a: 1, pattern_b: 2, pattern_c: 3, pattern_d: 4, pattern_e: 5, error: 6, paper_end: 7,
  pattern_0: 0, pattern_1: 1, pattern_2: 2, pattern_3: 3, pattern_4: 4, pattern_5: 5, pattern_6: 6, pattern_7: 7, pattern_8: 8, pattern_9: 9, pattern_10: 10,
} as const;
const SYMBOL = {
  pdf417_standard: 0, pdf417_truncated: 1, qrcode_model_1: 2, qrcode_model_2: 3, qrcode_micro: 4,
  maxicode_mode_2: 5, maxicode_mode_3: 6, maxicode_mode_4: 7, maxicode_mode_5: 8, maxicode_mode_6: 9,
  gs1_databar_stacked: 10, gs1_databar_stacked_omnidirectional: 11, gs1_databar_expanded_stacked: 12,
  azteccode_fullrange: 13, azteccode_compact: 14, datamatrix_square: 15, datamatrix_rectangle_8: 16,
  datamatrix_rectangle_12: 17, datamatrix_rectangle_16: 18,
} as const;
const SYMBOL_TYPES = Object.keys(SYMBOL) as (keyof typeof SYMBOL)[];

// ---- elements ------------------------------------------------------------------------------

const TEXT_ATTRS = ['lang', 'font', 'smooth', 'dw', 'dh', 'width', 'height', 'reverse', 'ul', 'em', 'color', 'align', 'linespc', 'rotate', 'x', 'y'];

function text(el: XmlElement, o: Out, s: State): void {
  allowOnly(el, TEXT_ATTRS);
  oneOf(el, 'lang', LANG); // the language picks the printer's fonts; UTF-8 carries every language
  const font = oneOf(el, 'font', FONT);
  if (font !== undefined) o.bytes(ESC, 0x4d, font);
  const smooth = bool(el, 'smooth');
  if (smooth !== undefined) o.bytes(GS, 0x62, smooth ? 1 : 0);
  const dw = bool(el, 'dw'), dh = bool(el, 'dh');
  const width = int(el, 'width', 1, 8), height = int(el, 'height', 1, 8);
  if (dw !== undefined) s.width = dw ? 2 : 1;
  if (dh !== undefined) s.height = dh ? 2 : 1;
  if (width !== undefined) s.width = width;
  if (height !== undefined) s.height = height;
  if (dw !== undefined || dh !== undefined || width !== undefined || height !== undefined) o.bytes(GS, 0x21, ((s.width - 1) << 4) | (s.height - 1));
  const reverse = bool(el, 'reverse'), ul = bool(el, 'ul'), em = bool(el, 'em');
  if (reverse !== undefined) o.bytes(GS, 0x42, reverse ? 1 : 0);
  if (ul !== undefined) o.bytes(ESC, 0x2d, ul ? 1 : 0);
  if (em !== undefined) o.bytes(ESC, 0x45, em ? 1 : 0);
  const color = oneOf(el, 'color', COLOR);
  if (color !== undefined) o.bytes(ESC, 0x72, color);
  const align = oneOf(el, 'align', ALIGN);
  if (align !== undefined) o.bytes(ESC, 0x61, align);
  const linespc = int(el, 'linespc', 0, 255);
  if (linespc !== undefined) o.bytes(ESC, 0x33, linespc);
  const rotate = bool(el, 'rotate');
  if (rotate !== undefined) o.bytes(ESC, 0x7b, rotate ? 1 : 0);
  const x = int(el, 'x', 0, 65535);
  if (x !== undefined) o.bytes(ESC, 0x24, ...u16(x));
  const y = int(el, 'y', 0, 65535);
  if (y !== undefined) {
    if (!s.inPage) throw new EposSchemaError('<text y>: only inside <page>');
    o.bytes(GS, 0x24, ...u16(y));
  }
  for (const c of el.children) {
    if (typeof c !== 'string') throw new EposSchemaError(`<text>: unexpected element <${c.name}>`);
    textRun(c, o, s);
  }
}

/** Text as the printer's characters: ASCII as is, anything else through UTF-8 mode (FS ( C). */
function textRun(t: string, o: Out, s: State): void {
  if (!t) return;
  // eslint-disable-next-line no-control-regex
  if (!s.utf8 && /[^\x00-\x7f]/.test(t)) {
    o.fn([FS, 0x28, 0x43], [48, 2]);
    s.utf8 = true;
  }
  o.chunk(new TextEncoder().encode(t.replace(/\r\n?/g, '\n')));
}

function feed(el: XmlElement, o: Out): void {
  allowOnly(el, ['unit', 'line', 'linespc', 'pos']);
  const linespc = int(el, 'linespc', 0, 255);
  if (linespc !== undefined) o.bytes(ESC, 0x33, linespc);
  const unit = int(el, 'unit', 0, 255), line = int(el, 'line', 0, 255);
  const pos = oneOf(el, 'pos', { peeling: 0, cutting: 1, current_tof: 2, next_tof: 3 });
  if (unit !== undefined) o.bytes(ESC, 0x4a, unit);
  else if (line !== undefined) o.bytes(ESC, 0x64, line);
  else if (pos !== undefined) o.fn([FS, 0x28, 0x4c], [0x41 + Math.min(pos, 2), 48]);
  else if (linespc === undefined) o.bytes(LF);
}

/** A 1-bit raster (rows of ceil(width/8) bytes, MSB first) as GS v 0. */
function raster(o: Out, width: number, height: number, data: Uint8Array): void {
  o.bytes(GS, 0x76, 0x30, 0, ...u16(Math.ceil(width / 8)), ...u16(height));
  o.chunk(data);
}

function image(el: XmlElement, o: Out): void {
  allowOnly(el, ['width', 'height', 'color', 'mode', 'align']);
  const width = required(el, 'width', int(el, 'width', 1, 65535));
  const height = required(el, 'height', int(el, 'height', 1, 65535));
  oneOf(el, 'color', COLOR);
  const align = oneOf(el, 'align', ALIGN);
  if (align !== undefined) o.bytes(ESC, 0x61, align);
  const mode = oneOf(el, 'mode', MODE) ?? MODE.mono;
  const data = base64(el);
  const row = Math.ceil(width / 8);
  if (mode === MODE.mono) {
    if (data.length !== row * height) throw new EposSchemaError(`<image>: ${data.length} bytes of raster data for ${width}x${height} dots (expected ${row * height})`);
    raster(o, width, height, data);
    return;
  }
  // 16 tones, 4 bits a dot (0 = black, 15 = white): printed as dots darker than the middle tone.
  const grayRow = Math.ceil(width / 2);
  if (data.length !== grayRow * height) throw new EposSchemaError(`<image mode="gray16">: ${data.length} bytes of raster data for ${width}x${height} dots (expected ${grayRow * height})`);
  const mono = new Uint8Array(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const b = data[y * grayRow + (x >> 1)];
      const tone = x & 1 ? b & 0x0f : b >> 4;
      if (tone < 8) mono[y * row + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  raster(o, width, height, mono);
}

function logo(el: XmlElement, o: Out): void {
  allowOnly(el, ['key1', 'key2', 'align']);
  const key1 = required(el, 'key1', int(el, 'key1', 0, 255));
  const key2 = required(el, 'key2', int(el, 'key2', 0, 255));
  const align = oneOf(el, 'align', ALIGN);
  if (align !== undefined) o.bytes(ESC, 0x61, align);
  o.fn([GS, 0x28, 0x4c], [48, 69, key1, key2, 1, 1]);
}

function barcode(el: XmlElement, o: Out): void {
  allowOnly(el, ['type', 'hri', 'font', 'width', 'height', 'rotate', 'align']);
  const type = required(el, 'type', oneOf(el, 'type', BARCODE));
  const hri = oneOf(el, 'hri', HRI);
  if (hri !== undefined) o.bytes(GS, 0x48, hri);
  const font = oneOf(el, 'font', FONT);
  if (font !== undefined) o.bytes(GS, 0x66, font);
  const width = int(el, 'width', 2, 6);
  if (width !== undefined) o.bytes(GS, 0x77, width);
  const height = int(el, 'height', 1, 255);
  if (height !== undefined) o.bytes(GS, 0x68, height);
  bool(el, 'rotate');
  const align = oneOf(el, 'align', ALIGN);
  if (align !== undefined) o.bytes(ESC, 0x61, align);
  let data = new TextEncoder().encode(textOf(el));
  // CODE128 data starts with its code set ({A, {B or {C); ePOS clients may leave it to the printer.
  if ((type === 73 || type === 74) && data[0] !== 0x7b) data = Uint8Array.from([0x7b, 0x42, ...data]);
  if (data.length === 0 || data.length > 255) throw new EposSchemaError(`<barcode>: ${data.length} bytes of data (1 to 255)`);
  o.bytes(GS, 0x6b, type, data.length);
  o.chunk(data);
}

function symbol(el: XmlElement, o: Out): void {
  allowOnly(el, ['type', 'level', 'width', 'height', 'size', 'align']);
  const type = SYMBOL_TYPES[required(el, 'type', oneOf(el, 'type', SYMBOL))];
  const level = el.attrs.level;
  const width = int(el, 'width', 0, 255), height = int(el, 'height', 0, 255), size = int(el, 'size', 0, 65535);
  const align = oneOf(el, 'align', ALIGN);
  if (align !== undefined) o.bytes(ESC, 0x61, align);
  const data = new TextEncoder().encode(textOf(el));
  const k = (cn: number, fn: number, ...p: number[]) => o.fn([GS, 0x28, 0x6b], [cn, fn, ...p]);
  const store = (cn: number, m: number) => o.fn([GS, 0x28, 0x6b], [cn, 80, m, ...data]);
  const badLevel = () => new EposSchemaError(`<symbol type="${type}" level="${level}">: not a level of this symbol`);
  if (type.startsWith('qrcode')) {
    k(49, 65, type === 'qrcode_model_1' ? 49 : type === 'qrcode_model_2' ? 50 : 51, 0);
    if (width !== undefined) k(49, 67, Math.min(16, Math.max(1, width)));
    if (level !== undefined && level !== 'default') {
      const ec = ({ level_l: 48, level_m: 49, level_q: 50, level_h: 51 } as Record<string, number>)[level];
      if (ec === undefined) throw badLevel();
      k(49, 69, ec);
    }
    store(49, 48);
    k(49, 81, 48);
  } else if (type.startsWith('pdf417')) {
    if (size !== undefined) k(48, 65, Math.min(30, size));
    if (width !== undefined) k(48, 67, Math.min(8, Math.max(2, width)));
    if (height !== undefined) k(48, 68, Math.min(8, Math.max(2, height)));
    if (level !== undefined && level !== 'default') {
      const m = /^level_([0-8])$/.exec(level);
      if (!m) throw badLevel();
      k(48, 69, 48, 48 + Number(m[1]));
    }
    k(48, 70, type === 'pdf417_truncated' ? 1 : 0);
    store(48, 48);
    k(48, 81, 48);
  } else if (type.startsWith('maxicode')) {
    k(50, 65, 48 + Number(type.slice(-1)));
    store(50, 48);
    k(50, 81, 48);
  } else if (type.startsWith('gs1_databar')) {
    if (width !== undefined) k(51, 67, Math.min(8, Math.max(2, width)));
    if (size !== undefined) k(51, 71, ...u16(Math.min(65535, size)));
    const n = type === 'gs1_databar_stacked' ? 72 : type === 'gs1_databar_stacked_omnidirectional' ? 73 : 76;
    o.fn([GS, 0x28, 0x6b], [51, 80, 48, n, ...data]);
    k(51, 81, 48);
  } else if (type.startsWith('azteccode')) {
    k(53, 50, type === 'azteccode_compact' ? 1 : 0, 0);
    if (width !== undefined) k(53, 51, Math.min(16, Math.max(2, width)));
    if (level !== undefined && level !== 'default') {
      const m = /^level_(\d+)$/.exec(level);
      if (!m || Number(m[1]) < 5 || Number(m[1]) > 95) throw badLevel();
      k(53, 53, Number(m[1]));
    }
    store(53, 48);
    k(53, 81, 48);
  } else {
    const rect = type !== 'datamatrix_square';
    k(54, 66, rect ? 1 : 0, rect ? Number(type.slice(-2).replace('_', '')) : 0, 0);
    if (width !== undefined) k(54, 67, Math.min(16, Math.max(2, width)));
    store(54, 48);
    k(54, 81, 48);
  }
}

/** A ruled line as raster dots: `thickness` rows (two lines for the double styles). */
function ruledLine(o: Out, x1: number, x2: number, style: string, thickness: number): void {
  const left = Math.min(x1, x2), width = Math.abs(x2 - x1);
  if (width === 0) return;
  const total = left + width;
  const row = Math.ceil(total / 8);
  const rows = DOUBLE_STYLES.has(style) ? thickness * 3 : thickness;
  const data = new Uint8Array(row * rows);
  for (let y = 0; y < rows; y++) {
    if (DOUBLE_STYLES.has(style) && y >= thickness && y < 2 * thickness) continue;
    for (let x = left; x < total; x++) data[y * row + (x >> 3)] |= 0x80 >> (x & 7);
  }
  raster(o, total, rows, data);
}

function lineStyle(el: XmlElement): [string, number] {
  const style = el.attrs.style ?? 'thin';
  const t = oneOf(el, 'style', LINE_STYLE) ?? 1;
  return [style, t];
}

function hline(el: XmlElement, o: Out): void {
  allowOnly(el, ['x1', 'x2', 'style']);
  const x1 = required(el, 'x1', int(el, 'x1', 0, 65535));
  const x2 = required(el, 'x2', int(el, 'x2', 0, 65535));
  const [style, t] = lineStyle(el);
  o.bytes(ESC, 0x61, 0);
  ruledLine(o, x1, x2, style, t);
}

/**
 * A vertical line running down the receipt from `vline-begin` to the `vline-end` of the same
 * `x`, beside whatever prints between: sent as GS ( Q's vertical-rule functions, which the
 * receipt machine draws as the paper feeds (escpos/commands/vertical-rules.ts).
 */
function vline(el: XmlElement, o: Out): void {
  allowOnly(el, ['x', 'style']);
  const x = required(el, 'x', int(el, 'x', 0, 65535));
  const [style, t] = lineStyle(el);
  const fn = el.name === 'vline-begin' ? VERTICAL_RULE_BEGIN : VERTICAL_RULE_END;
  o.fn([GS, 0x28, 0x51], [fn, ...u16(x), t | (DOUBLE_STYLES.has(style) ? VERTICAL_RULE_DOUBLE : 0)]);
}

function cut(el: XmlElement, o: Out): void {
  allowOnly(el, ['type']);
  const idx = oneOf(el, 'type', CUT_INDEX) ?? CUT_INDEX.feed;
  o.bytes(GS, 0x56, ...Object.values(CUT)[idx]);
}

function pulse(el: XmlElement, o: Out): void {
  allowOnly(el, ['drawer', 'time']);
  const drawer = oneOf(el, 'drawer', DRAWER) ?? 0;
  const ms = oneOf(el, 'time', PULSE) ?? 100;
  o.bytes(ESC, 0x70, drawer, ms / 2, ms / 2);
}

function sound(el: XmlElement, o: Out): void {
  allowOnly(el, ['pattern', 'repeat', 'cycle']);
  const pattern = oneOf(el, 'pattern', SOUND) ?? 1;
  const repeat = int(el, 'repeat', 0, 255) ?? 1;
  const cycle = int(el, 'cycle', 1000, 25500) ?? 1000;
  o.fn([ESC, 0x28, 0x41], [48, pattern, repeat, Math.round(cycle / 100)]);
}

function command(el: XmlElement, o: Out, s: State): void {
  allowOnly(el, []);
  const hex = textOf(el).replace(/\s+/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new EposSchemaError('<command>: its content is not hexadecimal bytes');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  o.chunk(out);
  s.utf8 = false; // the raw bytes may have changed the encoding: select it again when needed
}

function layout(el: XmlElement): void {
  allowOnly(el, ['type', 'width', 'height', 'margin-top', 'margin-bottom', 'offset-cut', 'offset-label']);
  oneOf(el, 'type', { receipt: 0, receipt_bm: 1, label: 2, label_bm: 3 });
  for (const a of ['width', 'height', 'margin-top', 'margin-bottom', 'offset-cut', 'offset-label']) {
    const v = el.attrs[a];
    if (v !== undefined && !/^-?\d+$/.test(v)) throw new EposSchemaError(`${where(el, a)}: expected an integer`);
  }
}

// ---- page mode -----------------------------------------------------------------------------

function page(el: XmlElement, o: Out, s: State): void {
  allowOnly(el, []);
  o.bytes(ESC, 0x4c);
  s.inPage = true;
  for (const c of elementsOf(el)) {
    switch (c.name) {
      case 'area': {
        allowOnly(c, ['x', 'y', 'width', 'height']);
        const x = required(c, 'x', int(c, 'x', 0, 65535)), y = required(c, 'y', int(c, 'y', 0, 65535));
        const w = required(c, 'width', int(c, 'width', 1, 65535)), h = required(c, 'height', int(c, 'height', 1, 65535));
        o.bytes(ESC, 0x57, ...u16(x), ...u16(y), ...u16(w), ...u16(h));
        break;
      }
      case 'direction':
        allowOnly(c, ['dir']);
        o.bytes(ESC, 0x54, required(c, 'dir', oneOf(c, 'dir', DIRECTION)));
        break;
      case 'position': {
        allowOnly(c, ['x', 'y']);
        const x = int(c, 'x', 0, 65535), y = int(c, 'y', 0, 65535);
        if (x !== undefined) o.bytes(ESC, 0x24, ...u16(x));
        if (y !== undefined) o.bytes(GS, 0x24, ...u16(y));
        break;
      }
      case 'line': case 'rectangle': {
        allowOnly(c, ['x1', 'y1', 'x2', 'y2', 'style']);
        const x1 = required(c, 'x1', int(c, 'x1', 0, 65535)), y1 = required(c, 'y1', int(c, 'y1', 0, 65535));
        const x2 = required(c, 'x2', int(c, 'x2', 0, 65535)), y2 = required(c, 'y2', int(c, 'y2', 0, 65535));
        const [, t] = lineStyle(c);
        pageShape(o, c.name, x1, y1, x2, y2, t);
        break;
      }
      default:
        element(c, o, s, true);
    }
  }
  o.bytes(FF);
  s.inPage = false;
}

/** A line or rectangle in page mode, drawn as a raster image at its top-left corner. */
function pageShape(o: Out, kind: string, x1: number, y1: number, x2: number, y2: number, t: number): void {
  const left = Math.min(x1, x2), top = Math.min(y1, y2);
  const w = Math.abs(x2 - x1) + t, h = Math.abs(y2 - y1) + t;
  const row = Math.ceil(w / 8);
  const data = new Uint8Array(row * h);
  const dot = (x: number, y: number) => { data[y * row + (x >> 3)] |= 0x80 >> (x & 7); };
  if (kind === 'rectangle') {
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (x < t || y < t || x >= w - t || y >= h - t) dot(x, y);
  } else {
    // from (x1, y1) to (x2, y2), `t` dots wide
    const steps = Math.max(w - t, h - t, 1);
    for (let i = 0; i <= steps; i++) {
      const x = Math.round(((x1 <= x2 ? i : steps - i) / steps) * (w - t));
      const y = Math.round(((y1 <= y2 ? i : steps - i) / steps) * (h - t));
      for (let dy = 0; dy < t; dy++) for (let dx = 0; dx < t; dx++) dot(x + dx, y + dy);
    }
  }
  o.bytes(ESC, 0x24, ...u16(left), GS, 0x24, ...u16(top + h));
  raster(o, w, h, data);
}

// ---- document ------------------------------------------------------------------------------

function element(el: XmlElement, o: Out, s: State, inPage: boolean): void {
  switch (el.name) {
    case 'text': return text(el, o, s);
    case 'feed': return feed(el, o);
    case 'image': return image(el, o);
    case 'logo': return logo(el, o);
    case 'barcode': return barcode(el, o);
    case 'symbol': return symbol(el, o);
    case 'command': return command(el, o, s);
    case 'layout': if (!inPage) return layout(el); break;
    case 'hline': if (!inPage) return hline(el, o); break;
    case 'vline-begin': case 'vline-end': if (!inPage) return vline(el, o); break;
    case 'page': if (!inPage) return page(el, o, s); break;
    case 'cut': if (!inPage) return cut(el, o); break;
    case 'pulse': if (!inPage) return pulse(el, o); break;
    case 'sound': if (!inPage) return sound(el, o); break;
    case 'recovery': if (!inPage) { allowOnly(el, []); return; } break;
    // 90° clockwise text between rotate-begin and rotate-end (ESC V).
    case 'rotate-begin': case 'rotate-end':
      if (!inPage) {
        allowOnly(el, []);
        o.bytes(ESC, 0x56, el.name === 'rotate-begin' ? 1 : 0);
        return;
      }
      break;
    case 'reset':
      if (!inPage) {
        allowOnly(el, []);
        o.bytes(ESC, 0x40);
        s.width = s.height = 1;
        s.utf8 = false;
        return;
      }
      break;
  }
  throw new EposSchemaError(`<${el.name}> is not an element of ePOS-Print${inPage ? ' page mode' : ''}`);
}

/** The ESC/POS bytes of an `<epos-print>` element; throws EposSchemaError. */
export function eposElementToEscPos(root: XmlElement): Uint8Array {
  if (root.name !== 'epos-print') throw new EposSchemaError(`expected <epos-print>, found <${root.name}>`);
  const o = new Out();
  const s: State = { width: 1, height: 1, utf8: false, inPage: false };
  for (const c of root.children) {
    if (typeof c === 'string') {
      if (c.trim()) throw new EposSchemaError('<epos-print>: text outside an element');
      continue;
    }
    element(c, o, s, false);
  }
  return o.result();
}
