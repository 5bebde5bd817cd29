import type { CanvasElement, DebugElement, TextElement } from '../../engines/canvas/model.ts';
import { OTHER, TEXT_KEYS, USUAL_DEBUG, USUAL_TEXT, type ElementKind } from '../../engines/canvas/element-kinds.ts';
import { COMMAND_RAW_MAX_BYTES } from './lean-document.ts';

/**
 * The RenderedDocumentDto's JSON written straight from the engine's elements, as UTF-8: byte for
 * byte what `JSON.stringify` gives for the lean DTO (lean-document.ts; test/engines/dto-json.test.ts),
 * without the lean copies or an object tree walked again:
 * - a repeated short command's debug element (the receipt engines share its hex and description
 *   array: receipt/command-text.ts) is the same JSON every time: made once per document, found
 *   again by the description array's identity, copied;
 * - a text run's debug element and text element are fixed fragments around its hex, text and
 *   numbers; a run's style (font, spacing, flags, scale, rotation) is one fragment while it
 *   repeats;
 * - a string is written as it is unless it holds what JSON escapes (control characters, `"`,
 *   `\`, a lone surrogate): only such a string goes through `JSON.stringify`.
 * Elements of other keys (images, boxes, lines, other engines' orders) are written key by key
 * as the lean rules and `JSON.stringify` have them.
 */

const NUMBERS = 2048;
const NUMBER_TEXT: readonly string[] = Array.from({ length: NUMBERS }, (_, i) => String(i));

/** A number as JSON writes it (-0 is 0; NaN and infinities are null). */
function numberJson(v: number): string {
  if (v >>> 0 === v && v < NUMBERS) return NUMBER_TEXT[v];
  return Number.isFinite(v) ? String(v) : 'null';
}

/** A string as JSON writes it: quoted, escaped only when it holds what JSON escapes. */
function stringJson(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Control characters, `"`, `\` and surrogates (a lone one is escaped; a pair is kept, which JSON.stringify does itself).
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** `["a","b"]` of an array of strings; anything else as JSON.stringify writes it. */
function descriptionJson(v: unknown): string {
  if (Array.isArray(v)) {
    if (v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return `[${stringJson(v[0])},${stringJson(v[1])}]`;
    if (v.length === 0) return '[]';
  }
  return JSON.stringify(v);
}

/** An object key as JSON writes it, with its colon (a few keys, met again and again). */
const keyTexts = new Map<string, string>();
function keyJson(k: string): string {
  let t = keyTexts.get(k);
  if (t === undefined) {
    t = `${JSON.stringify(k)}:`;
    if (keyTexts.size < 256) keyTexts.set(k, t);
  }
  return t;
}

function isEmpty(o: unknown): boolean {
  for (const _ in o as object) return false;
  return true;
}

/** A debug element of `DEBUG_KEYS` whose values are of the model's types, parameters empty (the receipt's commands and runs). */
function isPlainDebug(el: DebugElement): boolean {
  return typeof el.debugType === 'string' && typeof el.commandRaw === 'string' && typeof el.lengthInBytes === 'number' &&
    el.parameters !== null && typeof el.parameters === 'object' && isEmpty(el.parameters);
}

/** A text element of `TEXT_KEYS` whose values are of the model's types. */
function isPlainText(el: TextElement): boolean {
  return typeof el.text === 'string' && typeof el.x === 'number' && typeof el.y === 'number' && typeof el.width === 'number' &&
    typeof el.height === 'number' && typeof el.fontName === 'string' && typeof el.charSpacing === 'number' && typeof el.isBold === 'boolean' &&
    typeof el.isUnderline === 'boolean' && typeof el.isReverse === 'boolean' && typeof el.charScaleX === 'number' &&
    typeof el.charScaleY === 'number' && typeof el.rotation === 'string' && typeof el.lengthInBytes === 'number' &&
    el.commandRaw !== undefined && el.commandDescription !== undefined;
}

/**
 * A short command's debug element JSON, by its description array (shared between the command's
 * elements): where it was first written in the output, copied from there again.
 */
interface CommandJson {
  description: unknown;
  hex: string;
  debugType: string;
  lengthInBytes: number;
  start: number;
  end: number;
}

/**
 * A text run's style fields and the JSON from `fontName` to `lengthInBytes`'s key: its text,
 * then where it was first written in the output (`start` -1 until then).
 */
interface StyleJson extends Pick<TextElement, 'fontName' | 'charSpacing' | 'isBold' | 'isUnderline' | 'isReverse' | 'charScaleX' | 'charScaleY' | 'rotation'> {
  json: string;
  start: number;
  end: number;
}

const COMMANDS_KEPT = 16;
const STYLES_KEPT = 4;
/** Commands up to this many characters of hex are remembered (receipt/command-text.ts shares up to 3 bytes). */
const SHARED_HEX_MAX = 6;

/** The UTF-8 of JSON text (a fragment made once and copied many times). */
function utf8(s: string): Uint8Array {
  const out = new Uint8Array(3 * s.length);
  return out.subarray(0, putText(out, 0, s));
}

const TEXT_START = utf8('{"type":"text","text":');
const RUN_START = utf8('{"type":"debug","debugType":"text","commandRaw":');
const RUN_DESCRIPTION = utf8(',"commandDescription":["Text",');
const RUN_LENGTH = utf8('],"lengthInBytes":');
const X = utf8(',"x":');
const Y = utf8(',"y":');
const WIDTH = utf8(',"width":');
const HEIGHT = utf8(',"height":');
/** Fragments up to this many bytes are copied by a loop, longer ones natively (`set`, `copyWithin`). */
const COPY_BY_HAND = 16;
/** Bytes left before the canvases for the head's fields, known only at `finish`. */
const HEAD_ROOM = 1024;
/** A receipt's JSON is about this many bytes an element. */
const BYTES_PER_ELEMENT = 200;

/**
 * Writes a document's DTO JSON as UTF-8, canvas by canvas (`startCanvas`, `add` each element,
 * `endCanvas`), then `finish` gives its bytes. `mediaOf` is an image's media reference (asked
 * once per picture by the caller's cache).
 *
 * Bytes, not a string: a canvas stream subscriber is sent UTF-8 (sse.ts `encodeEventUtf8`), and
 * a JS string of the JSON costs V8 a copy of every character at ~1 ns each as soon as one text
 * holds a character outside Latin-1 (a receipt's €: the string is two bytes a character), more
 * than writing the whole JSON here. Readers that want the string decode it once (`jsonText`).
 */
export class DtoJsonWriter {
  private out: Uint8Array;
  private at = HEAD_ROOM;
  /** No element written yet on this canvas. */
  private first = true;
  private canvases = 0;
  private readonly commands: (CommandJson | null)[] = new Array(COMMANDS_KEPT).fill(null);
  private nextCommand = 0;
  private readonly styles: (StyleJson | null)[] = new Array(STYLES_KEPT).fill(null);
  private nextStyle = 0;
  private readonly mediaJsons = new Map<unknown, string>();

  /** `elements`: about how many elements will be written (the buffer grows past them). */
  constructor(private readonly mediaOf: (png: Uint8Array) => unknown, elements = 0) {
    this.out = new Uint8Array(HEAD_ROOM + 4096 + elements * BYTES_PER_ELEMENT);
  }

  private room(n: number): void {
    if (this.at + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.at + n));
    grown.set(this.out.subarray(0, this.at));
    this.out = grown;
  }

  /** Output written before, [start, end), again. */
  private again(start: number, end: number): void {
    const n = end - start;
    this.room(n);
    this.at = putAgain(this.out, this.at, start, end);
  }

  private byte(c: number): void {
    this.room(1);
    this.out[this.at++] = c;
  }

  /** Text that is JSON already (a fragment, an element written by `anyDebug` or `anyDrawn`): its UTF-8. */
  private text(s: string): void {
    this.room(3 * s.length);
    this.at = putText(this.out, this.at, s);
  }

  startCanvas(widthInDots: number, heightInDots: number | null): void {
    const height = heightInDots != null ? `,"heightInDots":${numberJson(heightInDots)}` : '';
    this.text(`${this.canvases++ ? ',' : ''}{"widthInDots":${numberJson(widthInDots)}${height},"items":[`);
    this.first = true;
  }

  endCanvas(): void {
    this.text(']}');
  }

  /** `kind`: what the engine said of the element's keys (canvas/element-kinds.ts). */
  add(el: CanvasElement, kind: ElementKind = OTHER): void {
    if (this.first) this.first = false;
    else this.byte(0x2c);
    if (kind === USUAL_DEBUG && isPlainDebug(el as DebugElement)) this.debug(el as DebugElement);
    else if (kind === USUAL_TEXT && isPlainText(el as TextElement)) this.textRun(el as TextElement);
    else if (el.type === 'text' && isPlainText(el) && this.styledTextRun(el)) return;
    else this.text(el.type === 'debug' ? anyDebug(el) : this.anyDrawn(el));
  }

  /**
   * A text element of `TEXT_KEYS` followed by optional style keys (an underlined run's
   * `underlineThickness`): the usual run, then those keys. False (nothing written) for other keys.
   */
  private styledTextRun(el: TextElement): boolean {
    const src = el as unknown as Record<string, unknown>;
    let i = 0;
    let extra = '';
    for (const k in src) {
      if (i < TEXT_KEYS.length) {
        if (k !== TEXT_KEYS[i++]) return false;
        continue;
      }
      const value = valueJson(src[k]);
      if (value !== undefined) extra += `,${keyJson(k)}${value}`;
    }
    if (i < TEXT_KEYS.length) return false;
    this.textRun(el);
    // The run's closing brace goes after its optional keys.
    this.at--;
    this.text(`${extra}}`);
    return true;
  }

  /** A debug element of the usual keys, parameters empty. */
  private debug(el: DebugElement): void {
    const description = el.commandDescription;
    const hex = el.commandRaw;
    if (el.debugType === 'text' && hex.length <= COMMAND_RAW_MAX_BYTES * 2 && isRunDescription(description)) {
      // A text run's debug element: its hex, its text, its length.
      const text = description[1];
      this.room(RUN_START.length + STRING_ROOM * (hex.length + text.length) + 4 + RUN_DESCRIPTION.length + RUN_LENGTH.length + NUMBER_ROOM + 1);
      const out = this.out;
      let at = putBytes(out, this.at, RUN_START);
      at = putString(out, at, hex);
      at = putBytes(out, at, RUN_DESCRIPTION);
      at = putString(out, at, text);
      at = putBytes(out, at, RUN_LENGTH);
      at = putNumber(out, at, el.lengthInBytes);
      out[at++] = 0x7d;
      this.at = at;
      return;
    }
    const commands = this.commands;
    for (let i = 0; i < COMMANDS_KEPT; i++) {
      const c = commands[i];
      if (c !== null && c.description === description && c.hex === hex && c.debugType === el.debugType && c.lengthInBytes === el.lengthInBytes) {
        // The receipt's most repeated commands move to the front.
        if (i > 0) {
          commands[i] = commands[i - 1];
          commands[i - 1] = c;
        }
        return this.again(c.start, c.end);
      }
    }
    const truncated = hex.length > COMMAND_RAW_MAX_BYTES * 2;
    const json = `{"type":"debug","debugType":${stringJson(el.debugType)},"commandRaw":${stringJson(truncated ? hex.slice(0, COMMAND_RAW_MAX_BYTES * 2) : hex)},` +
      `"commandDescription":${descriptionJson(description)},"lengthInBytes":${numberJson(el.lengthInBytes)}${truncated ? ',"commandRawTruncated":true}' : '}'}`;
    const start = this.at;
    this.text(json);
    if (hex.length > SHARED_HEX_MAX) return;
    commands[this.nextCommand] = { description, hex, debugType: el.debugType, lengthInBytes: el.lengthInBytes, start, end: this.at };
    this.nextCommand = (this.nextCommand + 1) % COMMANDS_KEPT;
  }

  /** A text element of the usual keys (drawn: its commandRaw and description are the lean DTO's empty ones). */
  private textRun(el: TextElement): void {
    const style = this.style(el);
    const text = el.text;
    this.room(TEXT_START.length + STRING_ROOM * text.length + 2 + 4 * (HEIGHT.length + NUMBER_ROOM) + 3 * style.json.length + NUMBER_ROOM + 1);
    const out = this.out;
    let at = putBytes(out, this.at, TEXT_START);
    at = putString(out, at, text);
    at = putBytes(out, at, X);
    at = putNumber(out, at, el.x);
    at = putBytes(out, at, Y);
    at = putNumber(out, at, el.y);
    at = putBytes(out, at, WIDTH);
    at = putNumber(out, at, el.width);
    at = putBytes(out, at, HEIGHT);
    at = putNumber(out, at, el.height);
    if (style.start >= 0) at = putAgain(out, at, style.start, style.end);
    else {
      style.start = at;
      at = putText(out, at, style.json);
      style.end = at;
    }
    at = putNumber(out, at, el.lengthInBytes);
    out[at++] = 0x7d;
    this.at = at;
  }

  private style(el: TextElement): StyleJson {
    const styles = this.styles;
    for (let i = 0; i < STYLES_KEPT; i++) {
      const s = styles[i];
      if (s !== null && s.fontName === el.fontName && s.charSpacing === el.charSpacing && s.isBold === el.isBold && s.isUnderline === el.isUnderline &&
        s.isReverse === el.isReverse && s.charScaleX === el.charScaleX && s.charScaleY === el.charScaleY && s.rotation === el.rotation) return s;
    }
    const json = `,"fontName":${stringJson(el.fontName)},"charSpacing":${numberJson(el.charSpacing)},"isBold":${el.isBold},` +
      `"isUnderline":${el.isUnderline},"isReverse":${el.isReverse},"charScaleX":${numberJson(el.charScaleX)},"charScaleY":${numberJson(el.charScaleY)},` +
      `"rotation":${stringJson(el.rotation)},"commandRaw":"","commandDescription":[],"lengthInBytes":`;
    const style = {
      fontName: el.fontName, charSpacing: el.charSpacing, isBold: el.isBold, isUnderline: el.isUnderline, isReverse: el.isReverse,
      charScaleX: el.charScaleX, charScaleY: el.charScaleY, rotation: el.rotation, json, start: -1, end: -1,
    };
    styles[this.nextStyle] = style;
    this.nextStyle = (this.nextStyle + 1) % STYLES_KEPT;
    return style;
  }

  /**
   * Any drawn element, as the lean rules have it: `commandRaw` "" and `commandDescription` []
   * (in their places, else last), an image's `image` left out and its `media` last.
   */
  private anyDrawn(el: CanvasElement): string {
    const src = el as unknown as Record<string, unknown>;
    let json = '{';
    let sep = '';
    let raw = false;
    let description = false;
    const isImage = el.type === 'image';
    for (const k in src) {
      let value: string | undefined;
      if (k === 'commandRaw') {
        value = '""';
        raw = true;
      } else if (k === 'commandDescription') {
        value = '[]';
        description = true;
      } else if (isImage && k === 'image') continue;
      else value = valueJson(src[k]);
      if (value === undefined) continue;
      json += `${sep}${keyJson(k)}${value}`;
      sep = ',';
    }
    if (!raw) {
      json += `${sep}"commandRaw":""`;
      sep = ',';
    }
    if (!description) json += `${sep}"commandDescription":[]`;
    if (isImage) json += `,"media":${this.mediaJson(el.image.png)}`;
    return `${json}}`;
  }

  private mediaJson(png: Uint8Array): string {
    const ref = this.mediaOf(png);
    let json = this.mediaJsons.get(ref);
    if (json === undefined) this.mediaJsons.set(ref, (json = JSON.stringify(ref)));
    return json;
  }

  /** The document's JSON as UTF-8: `head`'s fields, the canvases written, `tail`'s fields. */
  finish(head: object, tail: object): Uint8Array {
    const h = JSON.stringify(head);
    const t = JSON.stringify(tail);
    this.text(t === '{}' ? ']}' : `],${t.slice(1)}`);
    const before = utf8(`${h === '{}' ? '{' : `${h.slice(0, -1)},`}"canvases":[`);
    if (before.length <= HEAD_ROOM) {
      this.out.set(before, HEAD_ROOM - before.length);
      return this.out.subarray(HEAD_ROOM - before.length, this.at);
    }
    const whole = new Uint8Array(before.length + this.at - HEAD_ROOM);
    whole.set(before);
    whole.set(this.out.subarray(HEAD_ROOM, this.at), before.length);
    return whole;
  }
}

/** Bytes a string may take per code unit, escaped or not (`\u0000` is six). */
const STRING_ROOM = 6;
/** Bytes a number may take (`-1.2345678901234567e+308`). */
const NUMBER_ROOM = 25;

/** Writes `bytes` into `out` at `at` (room made); the new end. */
function putBytes(out: Uint8Array, at: number, bytes: Uint8Array): number {
  const n = bytes.length;
  // A short fragment by hand: `set`'s call costs more than copying a few dozen bytes.
  if (n > COPY_BY_HAND) out.set(bytes, at);
  else for (let i = 0; i < n; i++) out[at + i] = bytes[i];
  return at + n;
}

/** Writes a number as JSON writes it (room made: `NUMBER_ROOM`); the new end. */
function putNumber(out: Uint8Array, at: number, v: number): number {
  if (v >>> 0 === v && v < 1000) {
    // Digits of a small integer (most of a receipt's numbers).
    if (v >= 100) out[at++] = 0x30 + ((v / 100) | 0);
    if (v >= 10) out[at++] = 0x30 + (((v / 10) | 0) % 10);
    out[at++] = 0x30 + (v % 10);
    return at;
  }
  return putText(out, at, numberJson(v));
}

/** Writes `out`'s bytes [start, end) again at `at` (room made); the new end. */
function putAgain(out: Uint8Array, at: number, start: number, end: number): number {
  const n = end - start;
  if (n > COPY_BY_HAND) out.copyWithin(at, start, end);
  else for (let i = 0; i < n; i++) out[at + i] = out[start + i];
  return at + n;
}

/** Writes the UTF-8 of `s`, JSON text already (room made: 3 bytes a code unit); the new end. */
function putText(out: Uint8Array, at: number, s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out[at++] = c;
      continue;
    }
    at = utf8Char(out, at, s, i, c);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && isLowSurrogate(s.charCodeAt(i + 1))) i++;
  }
  return at;
}

/**
 * Writes `s` as JSON.stringify writes it (room made: `STRING_ROOM` bytes a code unit, and the
 * quotes): quoted, its UTF-8 as it is unless it holds what JSON escapes (control characters,
 * `"`, `\`, a lone surrogate), when JSON.stringify escapes it. The new end.
 */
function putString(out: Uint8Array, at: number, s: string): number {
  const n = s.length;
  const start = at;
  out[at++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x80 && c !== 0x22 && c !== 0x5c) {
      out[at++] = c;
      continue;
    }
    if (c < 0x80) return putText(out, start, JSON.stringify(s));
    if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    } else {
      // A surrogate pair is one code point of four bytes; a lone surrogate JSON escapes.
      const d = c <= 0xdbff && i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (!isLowSurrogate(d)) return putText(out, start, JSON.stringify(s));
      const p = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      out[at++] = 0xf0 | (p >> 18);
      out[at++] = 0x80 | ((p >> 12) & 0x3f);
      out[at++] = 0x80 | ((p >> 6) & 0x3f);
      out[at++] = 0x80 | (p & 0x3f);
      i++;
    }
  }
  out[at++] = 0x22;
  return at;
}

function isLowSurrogate(d: number): boolean {
  return d >= 0xdc00 && d <= 0xdfff;
}

/** A UTF-8 JSON text as a string. */
export function jsonText(utf8: Uint8Array): string {
  return decoder.decode(utf8);
}
const decoder = new TextDecoder();

/**
 * Writes the UTF-8 of code unit `c` (not ASCII) of `s` at `i` into `out` at `at`; the new end.
 * A surrogate pair is one code point (the caller skips its second unit); a lone surrogate
 * cannot be in JSON text (JSON.stringify escapes it).
 */
function utf8Char(out: Uint8Array, at: number, s: string, i: number, c: number): number {
  if (c < 0x800) {
    out[at++] = 0xc0 | (c >> 6);
    out[at++] = 0x80 | (c & 0x3f);
    return at;
  }
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (isLowSurrogate(d)) {
      const p = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      out[at++] = 0xf0 | (p >> 18);
      out[at++] = 0x80 | ((p >> 12) & 0x3f);
      out[at++] = 0x80 | ((p >> 6) & 0x3f);
      out[at++] = 0x80 | (p & 0x3f);
      return at;
    }
  }
  out[at++] = 0xe0 | (c >> 12);
  out[at++] = 0x80 | ((c >> 6) & 0x3f);
  out[at++] = 0x80 | (c & 0x3f);
  return at;
}

/** Whether a text run's description is ["Text", its text]. */
function isRunDescription(v: unknown): v is [string, string] {
  return Array.isArray(v) && v.length === 2 && v[0] === 'Text' && typeof v[1] === 'string';
}

/**
 * Any debug element, as the lean rules have it: `commandRaw` cut to `COMMAND_RAW_MAX_BYTES`
 * with `commandRawTruncated: true` (in its place if the element has the key, else last),
 * empty `parameters` left out.
 */
function anyDebug(el: DebugElement): string {
  const src = el as unknown as Record<string, unknown>;
  const raw = el.commandRaw as unknown;
  const truncated = typeof raw === 'string' && raw.length > COMMAND_RAW_MAX_BYTES * 2;
  let json = '{';
  let sep = '';
  let truncatedWritten = false;
  for (const k in src) {
    let v = src[k];
    if (k === 'parameters' && isEmpty(v)) continue;
    if (truncated && k === 'commandRaw') v = raw.slice(0, COMMAND_RAW_MAX_BYTES * 2);
    else if (truncated && k === 'commandRawTruncated') {
      v = true;
      truncatedWritten = true;
    }
    const value = valueJson(v);
    if (value === undefined) continue;
    json += `${sep}${keyJson(k)}${value}`;
    sep = ',';
  }
  if (truncated && !truncatedWritten) json += `${sep}"commandRawTruncated":true`;
  return `${json}}`;
}

/** A value of an element's key as JSON.stringify writes it (undefined: the key is left out). */
function valueJson(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return stringJson(v);
    case 'number':
      return numberJson(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (Array.isArray(v) && v.length <= 2) return descriptionJson(v);
      return JSON.stringify(v);
    default:
      return JSON.stringify(v) as string | undefined;
  }
}
