import type { CanvasElement, DebugElement, TextElement } from '../../engines/canvas/model.ts';
import { stringFromCodes, toHex } from '../../engines/core/hex.ts';
import { COMMAND_RAW_MAX_BYTES } from './lean-document.ts';
import { DEBUG_KEYS, OTHER, TEXT_KEYS, USUAL_DEBUG, USUAL_TEXT, type ElementKind } from '../../engines/canvas/element-kinds.ts';
import { ByteReader, ByteWriter } from './compact-bytes.ts';

/**
 * The body at rest, format 2: bytes, not JSON, made to cost little next to the engine on the
 * printing path (docs/decisions.md "Compact bodies"). It holds what the lean DTO holds
 * (lean-document.ts) and nothing a reader can derive:
 * - `COMPACT_MAGIC`, then the document without its elements as JSON (the head and tail
 *   fields, each canvas's size and table of shapes), then the elements' values, then the
 *   string values (their lengths, then one UTF-8 text; UTF-16 when some string is not well
 *   formed): a value refers to a string by its index. A string is there once, but for a text
 *   run's text printed again (`runDescription`);
 * - a shape is an element's `type` and its keys in order; an element is its shape's index,
 *   then a value for each key that carries one: `type` is the shape's, and a drawn element's
 *   `commandRaw` ("") and `commandDescription` ([]) are fixed by the lean rules;
 * - a debug element's `commandRaw` is "from raw" (no bytes) when it is the hex of the raw
 *   job's bytes where the element stands (the debug elements' `lengthInBytes` summed before
 *   it, over the whole document): the reader takes it from the document's raw bytes, cut at
 *   `COMMAND_RAW_MAX_BYTES` with `commandRawTruncated` as the lean rules have it. Otherwise (a
 *   job translated before printing, a summary of elided commands) the element holds the lean
 *   `commandRaw` itself, and the shape has `commandRawTruncated` when it was cut;
 * - an image's `image` is left out and its `media` reference comes last (the lean DTO's order).
 * The reader gives back the lean DTO's JSON byte for byte (test/workers/document-builder.test.ts).
 */
export const COMPACT_MAGIC = Uint8Array.from([0x00, 0x53, 0x42, 0x02]);

/** Whether gunzipped body bytes are format 2 (JSON bodies start with `{`). */
export function isCompactBody(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0 && bytes[1] === COMPACT_MAGIC[1] && bytes[2] === COMPACT_MAGIC[2] && bytes[3] === COMPACT_MAGIC[3];
}

/** Value tags. A byte from `SMALL` up is the integer (byte - SMALL). */
const FALSE = 0, TRUE = 1, FROM_RAW = 2, NULL = 3, UINT = 4, NEG_INT = 5, FLOAT = 6, STRING = 7, STRINGS = 8, JSON_TEXT = 9, SMALL = 16;
const SMALL_MAX = 255 - SMALL;

/** String encodings of the strings' text. */
const UTF8 = 0, UTF16 = 1;

export interface CompactCanvasHead {
  widthInDots: number;
  heightInDots?: number;
  /** Each shape: the element type, then its keys in the DTO's order. */
  shapes: string[][];
  /** Elements on the canvas. */
  count: number;
}

const HEX_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  const h = i.toString(16).toUpperCase().padStart(2, '0');
  HEX_CODES[2 * i] = h.charCodeAt(0);
  HEX_CODES[2 * i + 1] = h.charCodeAt(1);
}

/** Whether `hex` is the hex of raw[at, at + length) as far as the lean DTO keeps it (its first `COMMAND_RAW_MAX_BYTES`). */
function isRawAt(hex: string, raw: Uint8Array, at: number, length: number): boolean {
  if (hex.length !== 2 * length || at + length > raw.length) return false;
  const n = Math.min(length, COMMAND_RAW_MAX_BYTES);
  for (let i = 0; i < n; i++) {
    const b = 2 * raw[at + i];
    if (hex.charCodeAt(2 * i) !== HEX_CODES[b] || hex.charCodeAt(2 * i + 1) !== HEX_CODES[b + 1]) return false;
  }
  return true;
}

/** Whether `el`'s own keys are `keys`, in that order, each with a value. */
function hasKeys(el: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in el) {
    if (keys[i] !== k || (el as Record<string, unknown>)[k] === undefined) return false;
    i++;
  }
  return i === keys.length;
}

/** A debug element of `DEBUG_KEYS` has a value for each. */
function hasDebugValues(el: DebugElement): boolean {
  return el.debugType !== undefined && el.parameters !== undefined && el.commandRaw !== undefined && el.commandDescription !== undefined &&
    el.lengthInBytes !== undefined;
}

/** A text element of `TEXT_KEYS` has a value for each. */
function hasTextValues(el: TextElement): boolean {
  return el.text !== undefined && el.x !== undefined && el.y !== undefined && el.width !== undefined && el.height !== undefined &&
    el.fontName !== undefined && el.charSpacing !== undefined && el.isBold !== undefined && el.isUnderline !== undefined &&
    el.isReverse !== undefined && el.charScaleX !== undefined && el.charScaleY !== undefined && el.rotation !== undefined &&
    el.commandRaw !== undefined && el.commandDescription !== undefined && el.lengthInBytes !== undefined;
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/**
 * A string table's ids of the strings a field held lately, by identity (the engines pass the
 * same string objects again and again: a debug element's type, a text run's font and rotation,
 * a command's mnemonic), checked before the table: comparing a few strings costs less than a
 * table lookup. `size` strings, the oldest replaced.
 */
class RecentStrings {
  private readonly values: (string | null)[];
  private readonly ids: number[];
  private next = 0;

  constructor(size: number) {
    this.values = new Array<string | null>(size).fill(null);
    this.ids = new Array<number>(size).fill(0);
  }

  /** The id of `s`, or -1. */
  find(s: string): number {
    const values = this.values;
    for (let i = 0; i < values.length; i++) if (values[i] === s) return this.ids[i];
    return -1;
  }

  remember(s: string, id: number): void {
    const i = this.next;
    this.next = (i + 1) % this.values.length;
    this.values[i] = s;
    this.ids[i] = id;
  }
}

/**
 * Description arrays seen lately, by identity, with their two strings' ids: the receipt
 * engines share one array between the debug elements of a repeated short command
 * (receipt/command-text.ts), so a receipt's LF, ESC E 1 and ESC E 0 take a few comparisons
 * instead of two table lookups each. Only arrays of two strings are kept.
 */
class RecentPairs {
  private static readonly SIZE = 8;
  private readonly arrays: (readonly unknown[] | null)[] = new Array(RecentPairs.SIZE).fill(null);
  private readonly first = new Array<number>(RecentPairs.SIZE).fill(0);
  private readonly second = new Array<number>(RecentPairs.SIZE).fill(0);
  private next = 0;

  /** The slot holding `a`, or -1. */
  find(a: readonly unknown[]): number {
    const arrays = this.arrays;
    for (let i = 0; i < arrays.length; i++) if (arrays[i] === a) return i;
    return -1;
  }

  firstId(slot: number): number {
    return this.first[slot];
  }

  secondId(slot: number): number {
    return this.second[slot];
  }

  remember(a: readonly unknown[], first: number, second: number): void {
    const i = this.next;
    this.next = (i + 1) % RecentPairs.SIZE;
    this.arrays[i] = a;
    this.first[i] = first;
    this.second[i] = second;
  }
}

/**
 * One values buffer reused by the writers that do not overlap (a receipt's body is written
 * without an await between start and finish); a writer finding it taken makes its own.
 */
let spareValues: ByteWriter | null = null;
/** A long job's values buffer is not kept for the next (memory held between documents). */
const SPARE_VALUES_MAX = 65_536;

/**
 * Writes a document's elements canvas by canvas (`startCanvas`, then `add` each element),
 * then `finish` gives the body's bytes. `mediaOf` is an image's media reference.
 */
export class CompactBodyWriter {
  /** About the bytes of a receipt's elements: the buffer doubles for a longer job. Given back (`spareValues`) by `finish`. */
  private readonly values: ByteWriter;
  /** The strings, each once but for a text run's text printed again (a receipt repeats "LF", "Print and line feed"...). */
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly canvases: CompactCanvasHead[] = [];
  private canvas: CompactCanvasHead | null = null;
  private byType = new Map<string, number[]>();
  private readonly keys: string[] = [];
  /** Where the next debug element's bytes start in the raw job. */
  private rawAt = 0;
  /** This canvas's shapes of the usual debug elements (with parameters: +1, commandRaw cut: +2) and text elements; -1 until met. */
  private readonly debugShapes = [-1, -1, -1, -1];
  private textShape = -1;
  /** Lately written: debug types; fonts and rotations; a description's first string (a mnemonic, "Text"); texts new to the table (a text run's, met again in its debug element's description). */
  private readonly debugTypes = new RecentStrings(2);
  private readonly styles = new RecentStrings(4);
  private readonly mnemonics = new RecentStrings(4);
  private readonly texts = new RecentStrings(4);
  private readonly descriptions = new RecentPairs();

  constructor(private raw: Uint8Array, private readonly mediaOf: (png: Uint8Array) => unknown) {
    this.values = spareValues ?? new ByteWriter(16_384);
    spareValues = null;
  }

  startCanvas(widthInDots: number, heightInDots: number | null): void {
    this.canvas = { widthInDots, ...(heightInDots != null && { heightInDots }), shapes: [], count: 0 };
    this.canvases.push(this.canvas);
    this.byType = new Map();
    this.debugShapes.fill(-1);
    this.textShape = -1;
  }

  /** The raw job as far as it has come (a streamed job's bytes grow while its elements are written). */
  setRaw(raw: Uint8Array): void {
    this.raw = raw;
  }

  /** The height of the canvas being written, once known after its elements (streamed: document-stream.ts). */
  setCanvasHeight(heightInDots: number | null): void {
    const c = this.canvas!;
    const head: CompactCanvasHead = { widthInDots: c.widthInDots, ...(heightInDots != null && { heightInDots }), shapes: c.shapes, count: c.count };
    this.canvases[this.canvases.length - 1] = this.canvas = head;
  }

  /**
   * `kind`: what the engine said of the element's keys (canvas/element-kinds.ts); the debug
   * elements and text runs of those keys are written field by field, without asking each key
   * what it is, once each field is known to hold a value.
   */
  add(el: CanvasElement, kind: ElementKind = OTHER): void {
    if (kind === USUAL_DEBUG ? hasDebugValues(el as DebugElement) : el.type === 'debug' && hasKeys(el, DEBUG_KEYS)) this.addDebug(el as DebugElement);
    else if (kind === USUAL_TEXT ? hasTextValues(el as TextElement) : el.type === 'text' && hasKeys(el, TEXT_KEYS)) this.addText(el as TextElement);
    else this.addAny(el);
    this.canvas!.count++;
  }

  /** A debug element of the usual keys: what `addAny` writes for it, without asking each key. */
  private addDebug(el: DebugElement): void {
    const w = this.values;
    const at = w.reserve();
    const withParameters = !isEmpty(el.parameters);
    this.recent(el.debugType, this.debugTypes);
    if (withParameters) this.value(el.parameters);
    const truncated = this.commandRaw(el);
    if (el.debugType === 'text') this.runDescription(el.commandDescription);
    else this.description(el.commandDescription);
    this.number(el.lengthInBytes);
    this.rawAt += el.lengthInBytes;
    const variant = (withParameters ? 1 : 0) + (truncated ? 2 : 0);
    let shape = this.debugShapes[variant];
    if (shape < 0) {
      const keys = DEBUG_KEYS.filter((k) => withParameters || k !== 'parameters');
      if (truncated) keys.push('commandRawTruncated');
      shape = this.debugShapes[variant] = this.shapeOf('debug', keys, keys.length);
    }
    w.fill(at, shape);
  }

  /** A text element of the usual keys (a drawn element: its source is the debug element's). */
  private addText(el: TextElement): void {
    const w = this.values;
    const at = w.reserve();
    this.recent(el.text, this.texts);
    this.number(el.x);
    this.number(el.y);
    this.number(el.width);
    this.number(el.height);
    this.recent(el.fontName, this.styles);
    this.number(el.charSpacing);
    this.boolean(el.isBold);
    this.boolean(el.isUnderline);
    this.boolean(el.isReverse);
    this.number(el.charScaleX);
    this.number(el.charScaleY);
    this.recent(el.rotation, this.styles);
    this.number(el.lengthInBytes);
    if (this.textShape < 0) this.textShape = this.shapeOf('text', TEXT_KEYS, TEXT_KEYS.length);
    w.fill(at, this.textShape);
  }

  /** Any element: its keys as they come. */
  private addAny(el: CanvasElement): void {
    const keys = this.keys;
    const src = el as unknown as Record<string, unknown>;
    let n = 0;
    // The shape's index goes before the values; it is known once the keys are.
    const at = this.values.reserve();
    if (el.type === 'debug') {
      let truncated = false;
      for (const k in src) {
        const v = src[k];
        if (v === undefined || (k === 'parameters' && isEmpty(v as object))) continue;
        keys[n++] = k;
        if (k === 'type') continue;
        if (k !== 'commandRaw') this.value(v);
        else truncated = this.commandRaw(el);
      }
      if (truncated) keys[n++] = 'commandRawTruncated';
      this.rawAt += el.lengthInBytes;
    } else {
      for (const k in src) {
        const v = src[k];
        if (v === undefined || k === 'image') continue;
        keys[n++] = k;
        if (k !== 'type' && k !== 'commandRaw' && k !== 'commandDescription') this.value(v);
      }
      if (el.type === 'image') {
        keys[n++] = 'media';
        this.value(this.mediaOf(el.image.png));
      }
    }
    this.values.fill(at, this.shapeOf(el.type, keys, n));
  }

  /**
   * A debug element's `commandRaw`: "from raw", or the lean DTO's hex. True when that is cut
   * (the shape then ends with `commandRawTruncated`).
   */
  private commandRaw(el: DebugElement): boolean {
    const hex = el.commandRaw;
    if (typeof hex === 'string' && isRawAt(hex, this.raw, this.rawAt, el.lengthInBytes)) {
      this.values.byte(FROM_RAW);
      return false;
    }
    if (typeof hex !== 'string' || hex.length <= COMMAND_RAW_MAX_BYTES * 2) {
      this.value(hex);
      return false;
    }
    this.string(hex.slice(0, COMMAND_RAW_MAX_BYTES * 2));
    return true;
  }

  private number(v: number): void {
    const w = this.values;
    // A uint32 (a number: `>>>` makes any other value something it is not equal to); -0 is written 0, as JSON has it.
    if (v >>> 0 === v) {
      if (v <= SMALL_MAX) w.byte(SMALL + v);
      else w.tagUint(UINT, v);
    } else if (typeof v !== 'number') this.value(v);
    else if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) {
      // Not a uint32: at least 2^32, or negative.
      if (v >= 0) w.tagUint(UINT, v);
      else w.tagUint(NEG_INT, -v);
    } else w.float(FLOAT, v);
  }

  private string(v: string): void {
    if (typeof v === 'string') this.values.tagUint(STRING, this.stringId(v));
    else this.value(v);
  }

  /** A string that `recent` may hold. */
  private recent(v: string, recent: RecentStrings): void {
    if (typeof v !== 'string') return this.value(v);
    this.values.tagUint(STRING, this.recentId(v, recent));
  }

  private recentId(v: string, recent: RecentStrings): number {
    let id = recent.find(v);
    if (id < 0) {
      id = this.stringId(v);
      recent.remember(v, id);
    }
    return id;
  }

  /**
   * A debug element's description: as `value` writes it. An array of two strings is looked up
   * by identity first; one whose second string is new to the document (a text run's) is not
   * remembered (it is not met again), its second string is (the text element has it).
   */
  private description(v: string[]): void {
    if (!Array.isArray(v) || v.length !== 2) return this.value(v);
    const recent = this.descriptions;
    const slot = recent.find(v);
    let first: number, second: number;
    if (slot >= 0) {
      first = recent.firstId(slot);
      second = recent.secondId(slot);
    } else {
      if (!allStrings(v)) return this.value(v);
      first = this.recentId(v[0], this.mnemonics);
      const known = this.strings.length;
      second = this.stringId(v[1]);
      if (second < known) recent.remember(v, first, second);
      else this.texts.remember(v[1], second);
    }
    const w = this.values;
    w.tagUint(STRINGS, 2);
    w.uint(first);
    w.uint(second);
  }

  /**
   * A text run's description (["Text", the run's text]): the text is new to the document but
   * for a line printed again, so it is added to the strings without a lookup (hashing every
   * run's text cost more than the few repeats save, which gzip finds anyway) and remembered
   * for the text element that draws it.
   */
  private runDescription(v: string[]): void {
    if (!Array.isArray(v) || v.length !== 2 || !allStrings(v)) return this.value(v);
    const first = this.recentId(v[0], this.mnemonics);
    const second = this.strings.length;
    this.strings.push(v[1]);
    this.texts.remember(v[1], second);
    const w = this.values;
    w.tagUint(STRINGS, 2);
    w.uint(first);
    w.uint(second);
  }

  private boolean(v: boolean): void {
    if (typeof v === 'boolean') this.values.byte(v ? TRUE : FALSE);
    else this.value(v);
  }

  private value(v: unknown): void {
    const w = this.values;
    switch (typeof v) {
      case 'number':
        return this.number(v);
      case 'string':
        return this.string(v);
      case 'boolean':
        return this.boolean(v);
      case 'object':
        if (v === null) return w.byte(NULL);
        if (Array.isArray(v) && allStrings(v)) {
          w.tagUint(STRINGS, v.length);
          for (let i = 0; i < v.length; i++) w.uint(this.stringId(v[i] as string));
          return;
        }
    }
    w.tagUint(JSON_TEXT, this.stringId(JSON.stringify(v)));
  }

  private stringId(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.stringIds.set(s, id);
      this.strings.push(s);
    }
    return id;
  }

  private shapeOf(type: string, keys: readonly string[], n: number): number {
    const shapes = this.canvas!.shapes;
    let candidates = this.byType.get(type);
    if (!candidates) this.byType.set(type, (candidates = []));
    outer: for (const id of candidates) {
      const s = shapes[id];
      if (s.length !== n + 1) continue;
      for (let i = 0; i < n; i++) if (s[i + 1] !== keys[i]) continue outer;
      return id;
    }
    const id = shapes.length;
    shapes.push([type, ...keys.slice(0, n)]);
    candidates.push(id);
    return id;
  }

  /** The body: the document's `head` and `tail` fields around the canvases written. */
  finish(head: object, tail: object): Uint8Array {
    const text = this.strings.join('');
    const wellFormed = (text as string & { isWellFormed(): boolean }).isWellFormed();
    const doc = encoder.encode(JSON.stringify({ ...head, canvases: this.canvases, ...tail }));
    const values = this.values.view();
    const chars = wellFormed ? encoder.encode(text) : utf16(text);
    // Room for every part with its length prefixes (at most 8 bytes each).
    const out = new ByteWriter(COMPACT_MAGIC.length + doc.length + values.length + chars.length + 8 * (this.strings.length + 4));
    out.bytes(COMPACT_MAGIC);
    out.bytes(doc, true);
    out.bytes(values, true);
    out.uint(this.strings.length);
    for (const s of this.strings) out.uint(s.length);
    out.byte(wellFormed ? UTF8 : UTF16);
    out.bytes(chars);
    if (this.values.capacity <= SPARE_VALUES_MAX) spareValues = this.values.clear();
    return out.view();
  }
}

function utf16(text: string): Uint8Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return new Uint8Array(units.buffer);
}

const encoder = new TextEncoder();

const NO_DESCRIPTION: readonly string[] = Object.freeze([]);

/**
 * The RenderedDocumentDto JSON of a format-2 body. `raw` gives the document's raw bytes (asked
 * for only when some debug element's commandRaw is taken from them).
 */
export async function compactBodyJson(body: Uint8Array, raw: () => Promise<Uint8Array | null>): Promise<string> {
  return compactBodyJsonWith(body, null) ?? compactBodyJsonWith(body, (await raw()) ?? new Uint8Array(0))!;
}

/**
 * The RenderedDocumentDto JSON of a format-2 body whose raw bytes are in hand; with `raw` null,
 * null as soon as some debug element's commandRaw is to be taken from them.
 */
export function compactBodyJsonWith(body: Uint8Array, raw: Uint8Array | null): string | null {
  const parts: string[] = [];
  const pieces = compactBodyJsonParts(body, raw);
  for (let next = pieces.next(); ; next = pieces.next()) {
    if (next.done) return next.value ? parts.join('') : null;
    parts.push(next.value);
  }
}

/**
 * The same JSON in pieces, in order, each made when asked for (a canvas's head, an element,
 * the closing brackets): a long document's JSON can be sent while it is made, its elements dying
 * young. Done with false, when `raw` is null and some commandRaw is to be taken from it.
 */
export function* compactBodyJsonParts(body: Uint8Array, raw: Uint8Array | null): Generator<string, boolean> {
  const r = new ByteReader(body, COMPACT_MAGIC.length);
  const doc = JSON.parse(new TextDecoder().decode(r.sized())) as Record<string, unknown> & { canvases: CompactCanvasHead[] };
  const values = new ByteReader(r.sized(), 0);
  const lengths = Array.from({ length: r.uint() }, () => r.uint());
  const encoding = r.byte();
  const rest = r.rest();
  // ignoreBOM: a string that starts with U+FEFF keeps it.
  const text = encoding === UTF8 ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(rest) : stringFromCodes(new Uint16Array(rest.slice().buffer));
  let textAt = 0;
  const strings = lengths.map((n) => text.slice(textAt, (textAt += n)));
  const str = (id: number) => strings[id];
  let rawAt = 0;
  // The document's and each canvas's own keys as JSON.stringify orders them, elements between.
  const shell = JSON.stringify({ ...doc, canvases: 0 });
  const canvasesAt = shell.indexOf(CANVASES_KEY);
  yield `${shell.slice(0, canvasesAt)}"canvases":[`;
  for (let ci = 0; ci < doc.canvases.length; ci++) {
    const c = doc.canvases[ci];
    const { shapes: _, count: __, ...size } = c;
    // `{…,"items":0}` less its `0}`.
    yield `${ci > 0 ? ',' : ''}${JSON.stringify({ ...size, items: 0 }).slice(0, -2)}[`;
    for (let e = 0; e < c.count; e++) {
      const shape = c.shapes[values.reserved()];
      const type = shape[0];
      const isDebug = type === 'debug';
      const el: Record<string, unknown> = {};
      let fromRaw = false;
      for (let k = 1; k < shape.length; k++) {
        const key = shape[k];
        if (key === 'type') el.type = type;
        else if (isDebug && key === 'commandRawTruncated') el.commandRawTruncated = true;
        else if (!isDebug && key === 'commandRaw') el.commandRaw = '';
        else if (!isDebug && key === 'commandDescription') el.commandDescription = NO_DESCRIPTION;
        else {
          const tag = values.byte();
          if (tag >= SMALL) el[key] = tag - SMALL;
          else if (tag === FROM_RAW) {
            fromRaw = true;
            el[key] = '';
          } else el[key] = readValue(tag, values, str);
        }
      }
      if (isDebug) {
        const length = el.lengthInBytes as number;
        if (fromRaw) {
          if (raw === null) return false;
          el.commandRaw = toHex(raw, rawAt, Math.min(raw.length, rawAt + Math.min(length, COMMAND_RAW_MAX_BYTES)));
          if (length > COMMAND_RAW_MAX_BYTES) el.commandRawTruncated = true;
        }
        rawAt += length;
      }
      yield e > 0 ? `,${JSON.stringify(el)}` : JSON.stringify(el);
    }
    yield ']}';
  }
  yield `]${shell.slice(canvasesAt + CANVASES_KEY.length)}`;
  return true;
}

/** Where the document's head, stringified with `canvases: 0`, takes its canvases. */
const CANVASES_KEY = '"canvases":0';

function readValue(tag: number, r: ByteReader, str: (id: number) => string): unknown {
  switch (tag) {
    case FALSE: return false;
    case TRUE: return true;
    case NULL: return null;
    case UINT: return r.uint();
    case NEG_INT: return -r.uint();
    case FLOAT: return r.float();
    case STRING: return str(r.uint());
    case STRINGS: return Array.from({ length: r.uint() }, () => str(r.uint()));
    case JSON_TEXT: return JSON.parse(str(r.uint()));
    default: throw new Error(`compact body: unknown value tag ${tag}`);
  }
}

function allStrings(v: unknown[]): boolean {
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}
