/**
 * Star WebPRNT: the request Star's JavaScript SDK (StarWebPrintBuilder + StarWebPrintTrader)
 * posts to `/StarWebPRNT/SendMessage`, translated into the Star commands (StarPRNT / Star Line
 * mode share them for what WebPRNT asks) that the Star engine runs, and the answer a Star
 * printer sends. Pure.
 *
 * The request is `<StarWebPrint><Request>` holding, as XML-escaped text, the `<root>`
 * document; inside it, text and barcode data write each character outside printable ASCII
 * (and space, `&`, `<`, `>`, `\`) as `\xNN` (`\\` for a backslash).
 */
import { decodeBase64, elementsOf, findElement, parseXml, textOf, type XmlElement } from '../xml/tree.ts';

export type WebPrntTranslation = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

class WebPrntError extends Error {}

const ESC = 0x1b, GS = 0x1d, RS = 0x1e, FS = 0x1c;

/** Undoes the SDK's `\xNN` / `\\` escaping: one code unit per escape. */
export function unescapeWebPrnt(s: string): string {
  return s.replace(/\\(\\|x[0-9a-fA-F]{2})/g, (_m, e: string) => (e === '\\' ? '\\' : String.fromCharCode(parseInt(e.slice(1), 16))));
}

/** Text as printer bytes: one byte per character up to U+00FF (the SDK's binary data), UTF-8 beyond. */
function bytesOf(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 0xff) out.push(cp);
    else out.push(...new TextEncoder().encode(ch));
  }
  return out;
}

function bool(el: XmlElement, attr: string): boolean | undefined {
  const v = el.attrs[attr];
  if (v === undefined) return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new WebPrntError(`<${el.name} ${attr}="${v}">: expected true or false`);
}

function int(el: XmlElement, attr: string, min: number, max: number): number | undefined {
  const v = el.attrs[attr];
  if (v === undefined) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw new WebPrntError(`<${el.name} ${attr}="${v}">: expected ${min} to ${max}`);
  return n;
}

function pick<T>(el: XmlElement, attr: string, values: Record<string, T>): T | undefined {
  const v = el.attrs[attr];
  if (v === undefined) return undefined;
  if (!Object.hasOwn(values, v)) throw new WebPrntError(`<${el.name} ${attr}="${v}">: expected one of ${Object.keys(values).join(', ')}`);
  return values[v];
}

const SYMBOLOGY: Record<string, number> = { UPCE: 0, UPCA: 1, JAN8: 2, JAN13: 3, Code39: 4, ITF: 5, Code128: 6, Code93: 7, NW7: 8 };
const BARCODE_WIDTH: Record<string, number> = {
  width2: 1, width3: 2, width4: 3,
  width_mode1: 1, width_mode2: 2, width_mode3: 3, width_mode4: 4, width_mode5: 5, width_mode6: 6, width_mode7: 7, width_mode8: 8, width_mode9: 9,
};
const LINE_DOTS: Record<string, number> = { thin: 1, medium: 2, thick: 3, double_thin: 1, double_medium: 2, double_thick: 3 };

function element(el: XmlElement, out: number[]): void {
  const data = () => bytesOf(unescapeWebPrnt(textOf(el)));
  switch (el.name) {
    case 'initialization':
      if (bool(el, 'reset') !== false) out.push(ESC, 0x40);
      return;
    case 'alignment':
      out.push(ESC, GS, 0x61, pick(el, 'position', { left: 0, center: 1, right: 2 }) ?? 0);
      return;
    case 'text': {
      const em = bool(el, 'emphasis');
      if (em !== undefined) out.push(ESC, em ? 0x45 : 0x46);
      const inv = bool(el, 'invert');
      if (inv !== undefined) out.push(ESC, inv ? 0x34 : 0x35);
      const ul = bool(el, 'underline');
      if (ul !== undefined) out.push(ESC, 0x2d, ul ? 1 : 0);
      const ls = pick(el, 'linespace', { 24: 0, 32: 1 });
      if (ls !== undefined) out.push(ESC, 0x7a, ls);
      const font = pick(el, 'font', { font_a: 0, font_b: 1 });
      if (font !== undefined) out.push(ESC, RS, 0x46, font);
      const cs = int(el, 'characterspace', 0, 7);
      if (cs !== undefined) out.push(ESC, 0x20, cs);
      const w = int(el, 'width', 1, 6), h = int(el, 'height', 1, 6);
      if (w !== undefined || h !== undefined) out.push(ESC, 0x69, (h ?? 1) - 1, (w ?? 1) - 1);
      out.push(...data());
      return;
    }
    case 'feed': {
      const line = int(el, 'line', 1, 255), unit = int(el, 'unit', 1, 255);
      if (line !== undefined) out.push(ESC, 0x61, line);
      else if (unit !== undefined) out.push(ESC, 0x4a, unit);
      else out.push(0x0a);
      return;
    }
    case 'cutpaper': {
      const partial = pick(el, 'type', { full: false, partial: true }) ?? false;
      const feed = bool(el, 'feed') ?? true;
      out.push(ESC, 0x64, (partial ? 1 : 0) + (feed ? 2 : 0));
      return;
    }
    case 'peripheral': {
      const channel = int(el, 'channel', 1, 2) ?? 1;
      const on = int(el, 'on', 1, 65535) ?? 200, off = int(el, 'off', 1, 65535) ?? 200;
      out.push(ESC, 0x07, Math.min(255, Math.round(on / 10)), Math.min(255, Math.round(off / 10)), channel === 1 ? 0x07 : 0x1a);
      return;
    }
    case 'sound':
      int(el, 'channel', 1, 2); int(el, 'repeat', 1, 20);
      return; // the buzzer makes no mark on the paper
    case 'rawdata': {
      const bytes = decodeBase64(textOf(el));
      if (!bytes) throw new WebPrntError('<rawdata>: its content is not base64');
      out.push(...bytes);
      return;
    }
    case 'bitimage': {
      const width = int(el, 'width', 0, 65535) ?? 0, height = int(el, 'height', 0, 65535) ?? 0;
      const bytes = decodeBase64(textOf(el));
      const row = Math.ceil(width / 8);
      if (!bytes || bytes.length !== row * height) throw new WebPrntError(`<bitimage>: expected base64 of ${row * height} bytes for ${width}x${height} dots`);
      out.push(ESC, GS, 0x53, 1, row & 0xff, row >> 8, height & 0xff, height >> 8, 0, ...bytes);
      return;
    }
    case 'ruledline': {
      const t = pick(el, 'thickness', LINE_DOTS) ?? 1;
      const double = (el.attrs.thickness ?? '').startsWith('double');
      const width = int(el, 'width', 1, 65535) ?? 576;
      const row = Math.ceil(width / 8);
      const rows = double ? 3 * t : t;
      const bytes: number[] = [];
      for (let y = 0; y < rows; y++) {
        const ink = !double || y < t || y >= 2 * t;
        for (let x = 0; x < row; x++) bytes.push(ink ? (x === row - 1 && width % 8 ? (0xff << (8 - (width % 8))) & 0xff : 0xff) : 0);
      }
      out.push(ESC, GS, 0x53, 1, row & 0xff, row >> 8, rows & 0xff, rows >> 8, 0, ...bytes);
      return;
    }
    case 'barcode': {
      const symbology = pick(el, 'symbology', SYMBOLOGY);
      if (symbology === undefined) throw new WebPrntError('<barcode>: symbology is required');
      const hri = bool(el, 'hri') ?? true;
      const width = pick(el, 'width', BARCODE_WIDTH) ?? 2;
      const height = int(el, 'height', 1, 255) ?? 40;
      out.push(ESC, 0x62, symbology, hri ? 2 : 1, width, height, ...data(), RS);
      return;
    }
    case 'qrcode': {
      const model = pick(el, 'model', { model1: 1, model2: 2 }) ?? 2;
      const level = pick(el, 'level', { level_l: 0, level_m: 1, level_q: 2, level_h: 3 }) ?? 0;
      const cell = int(el, 'cell', 1, 8) ?? 3;
      const d = data();
      out.push(ESC, GS, 0x79, 0x53, 0x30, model, ESC, GS, 0x79, 0x53, 0x31, level, ESC, GS, 0x79, 0x53, 0x32, cell);
      out.push(ESC, GS, 0x79, 0x44, 0x31, 0, d.length & 0xff, d.length >> 8, ...d, ESC, GS, 0x79, 0x50);
      return;
    }
    case 'pdf417': {
      const level = pick(el, 'level', Object.fromEntries([...Array(9).keys()].map((i) => [`level${i}`, i]))) ?? 1;
      const line = int(el, 'line', 3, 90) ?? 0, column = int(el, 'column', 0, 30) ?? 0;
      const module = int(el, 'module', 1, 8) ?? 2, aspect = int(el, 'aspect', 1, 8) ?? 3;
      const d = data();
      out.push(ESC, GS, 0x78, 0x53, 0x30, 0, line, column, ESC, GS, 0x78, 0x53, 0x31, level, ESC, GS, 0x78, 0x53, 0x32, module, ESC, GS, 0x78, 0x53, 0x33, aspect);
      out.push(ESC, GS, 0x78, 0x44, d.length & 0xff, d.length >> 8, ...d, ESC, GS, 0x78, 0x50);
      return;
    }
    case 'logo': {
      const number = int(el, 'number', 1, 255) ?? 1;
      const w = pick(el, 'width', { single: 0, double: 1 }) ?? 0, h = pick(el, 'height', { single: 0, double: 2 }) ?? 0;
      out.push(ESC, FS, 0x70, number, w | h);
      return;
    }
    case 'holdprint':
      pick(el, 'type', { valid: 0, invalid: 1, default: 2 });
      return;
    default:
      throw new WebPrntError(`<${el.name}> is not a WebPRNT element`);
  }
}

/** A WebPRNT request body → Star command bytes. */
export function translateWebPrnt(body: string): WebPrntTranslation {
  const outer = parseXml(body);
  if (!outer.ok) return { ok: false, error: `The WebPRNT request is not well-formed XML: ${outer.error}` };
  const request = findElement(outer.root, 'Request');
  if (!request) return { ok: false, error: 'The WebPRNT request has no <Request>' };
  const inner = parseXml(textOf(request).trim());
  if (!inner.ok) return { ok: false, error: `The WebPRNT <Request> is not well-formed XML: ${inner.error}` };
  if (inner.root.name !== 'root') return { ok: false, error: `The WebPRNT <Request> holds <${inner.root.name}>, not <root>` };
  const out: number[] = [];
  try {
    for (const el of elementsOf(inner.root)) element(el, out);
  } catch (e) {
    if (e instanceof WebPrntError) return { ok: false, error: `WebPRNT request error: ${e.message}` };
    throw e;
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

/**
 * The answer of a Star printer: `<Response>` holding, as text, success, code and the ASB
 * (9 bytes, two hex digits each, the SDK reads them by position: `isCoverOpen` is byte 3).
 */
export function webPrntResponse(success: boolean, code: string, asb: Uint8Array): string {
  const hex = [...asb].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
  const inner = `<root><success>${success}</success><code>${code}</code><status>${hex}</status></root>`;
  const escaped = inner.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?><StarWebPrint xmlns="http://www.star-m.jp" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Response>${escaped}</Response></StarWebPrint>`;
}
