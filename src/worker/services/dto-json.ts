import type { CanvasElement, DebugElement, TextElement } from '../../engines/canvas/model.ts';
import { OTHER, USUAL_DEBUG, USUAL_TEXT, type ElementKind } from '../../engines/canvas/element-kinds.ts';
import { COMMAND_RAW_MAX_BYTES } from './lean-document.ts';

/**
 * The RenderedDocumentDto's JSON written straight from the engine's elements: byte for byte
 * what `JSON.stringify` gives for the lean DTO (lean-document.ts; test/engines/dto-json.test.ts),
 * without the lean copies, and at the cost of joining strings the job mostly already has:
 * - a repeated short command's debug element (the receipt engines share its hex and description
 *   array: receipt/command-text.ts) is the same JSON every time: made once per document, found
 *   again by the description array's identity;
 * - a text run's text is quoted once for its debug element and its text element; a run's
 *   style (font, spacing, flags, scale, rotation) is one fragment while it repeats;
 * - numbers below `NUMBERS` are strings from a table; a string is checked for characters JSON
 *   escapes, and only one that has them goes through `JSON.stringify`.
 * Elements of other keys (images, boxes, lines, text runs with optional style keys, other
 * engines' orders) are written key by key as the lean rules and `JSON.stringify` have them.
 */

const NUMBERS = 2048;
const NUMBER_TEXT: readonly string[] = Array.from({ length: NUMBERS }, (_, i) => String(i));

/** A number as JSON writes it (-0 is 0; NaN and infinities are null). */
function numberJson(v: number): string {
  if (v >>> 0 === v && v < NUMBERS) return NUMBER_TEXT[v];
  return Number.isFinite(v) ? String(v) : 'null';
}

/** A string as JSON writes it: quoted, escaped only when it holds what JSON escapes. */
export function stringJson(s: string): string {
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

/** A short command's debug element JSON, by its description array (shared between the command's elements). */
interface CommandJson {
  description: unknown;
  hex: string;
  debugType: string;
  lengthInBytes: number;
  json: string;
}

/** A text run's style fields and the JSON from `fontName` to `lengthInBytes`'s key. */
interface StyleJson {
  fontName: string;
  charSpacing: number;
  isBold: boolean;
  isUnderline: boolean;
  isReverse: boolean;
  charScaleX: number;
  charScaleY: number;
  rotation: string;
  json: string;
}

const COMMANDS_KEPT = 16;
const STYLES_KEPT = 4;
const TEXTS_KEPT = 4;
/** Commands up to this many characters of hex are remembered (receipt/command-text.ts shares up to 3 bytes). */
const SHARED_HEX_MAX = 6;

/**
 * Writes a document's DTO JSON canvas by canvas (`startCanvas`, `add` each element, `endCanvas`),
 * `flush` after a step of elements, then `finish` gives the JSON. `mediaOf` is an image's media
 * reference (asked once per picture by the caller's cache).
 *
 * The JSON grows as a rope of the pieces (V8 joins them without copying) and is made one flat
 * string per step (`flush`) and at the end: a long job holds a flat string a step, not millions
 * of rope nodes, and the JSON handed on is flat, its copy paid here.
 */
export class DtoJsonWriter {
  /** Flat JSON of the steps written, then the rope of the step being written. */
  private readonly parts: string[] = [];
  private out = '';
  /** No element written yet on this canvas. */
  private first = true;
  private canvases = 0;
  private readonly commands: (CommandJson | null)[] = new Array(COMMANDS_KEPT).fill(null);
  private nextCommand = 0;
  private readonly styles: (StyleJson | null)[] = new Array(STYLES_KEPT).fill(null);
  private nextStyle = 0;
  /** The text of the last text run written and its JSON (its text element follows soon after, often next). */
  private readonly texts: string[] = new Array(TEXTS_KEPT).fill('');
  private readonly textJsons: string[] = new Array(TEXTS_KEPT).fill('""');
  private nextText = 0;
  private readonly mediaJsons = new Map<unknown, string>();

  constructor(private readonly mediaOf: (png: Uint8Array) => unknown) {}

  startCanvas(widthInDots: number, heightInDots: number | null): void {
    const height = heightInDots != null ? `,"heightInDots":${numberJson(heightInDots)}` : '';
    this.out += `${this.canvases++ ? ',' : ''}{"widthInDots":${numberJson(widthInDots)}${height},"items":[`;
    this.first = true;
  }

  endCanvas(): void {
    this.out += ']}';
  }

  /** `kind`: what the engine said of the element's keys (canvas/element-kinds.ts). */
  add(el: CanvasElement, kind: ElementKind = OTHER): void {
    const sep = this.first ? '' : ',';
    this.first = false;
    if (kind === USUAL_DEBUG && isPlainDebug(el as DebugElement)) this.out += sep + this.debug(el as DebugElement);
    else if (kind === USUAL_TEXT && isPlainText(el as TextElement)) this.out += sep + this.text(el as TextElement);
    else this.out += sep + (el.type === 'debug' ? anyDebug(el) : this.anyDrawn(el));
  }

  /** A debug element of the usual keys, parameters empty. */
  private debug(el: DebugElement): string {
    const description = el.commandDescription;
    const hex = el.commandRaw;
    if (el.debugType === 'text' && hex.length <= COMMAND_RAW_MAX_BYTES * 2 && isRunDescription(description)) {
      return `{"type":"debug","debugType":"text","commandRaw":${stringJson(hex)},"commandDescription":["Text",${this.textJson(description[1])}],` +
        `"lengthInBytes":${numberJson(el.lengthInBytes)}}`;
    }
    const commands = this.commands;
    for (let i = 0; i < COMMANDS_KEPT; i++) {
      const c = commands[i];
      if (c !== null && c.description === description && c.hex === hex && c.debugType === el.debugType && c.lengthInBytes === el.lengthInBytes) return c.json;
    }
    const truncated = hex.length > COMMAND_RAW_MAX_BYTES * 2;
    const json = `{"type":"debug","debugType":${stringJson(el.debugType)},"commandRaw":${stringJson(truncated ? hex.slice(0, COMMAND_RAW_MAX_BYTES * 2) : hex)},` +
      `"commandDescription":${descriptionJson(description)},"lengthInBytes":${numberJson(el.lengthInBytes)}${truncated ? ',"commandRawTruncated":true}' : '}'}`;
    if (hex.length <= SHARED_HEX_MAX) {
      commands[this.nextCommand] = { description, hex, debugType: el.debugType, lengthInBytes: el.lengthInBytes, json: flat(json) };
      this.nextCommand = (this.nextCommand + 1) % COMMANDS_KEPT;
    }
    return json;
  }

  private textJson(s: string): string {
    const texts = this.texts;
    for (let i = 0; i < TEXTS_KEPT; i++) if (texts[i] === s) return this.textJsons[i];
    const json = stringJson(s);
    const at = this.nextText;
    texts[at] = s;
    this.textJsons[at] = json;
    this.nextText = (at + 1) % TEXTS_KEPT;
    return json;
  }

  /** A text element of the usual keys (drawn: its commandRaw and description are the lean DTO's empty ones). */
  private text(el: TextElement): string {
    return `{"type":"text","text":${this.textJson(el.text)},"x":${numberJson(el.x)},"y":${numberJson(el.y)},"width":${numberJson(el.width)},` +
      `"height":${numberJson(el.height)}${this.style(el)}${numberJson(el.lengthInBytes)}}`;
  }

  private style(el: TextElement): string {
    const styles = this.styles;
    for (let i = 0; i < STYLES_KEPT; i++) {
      const s = styles[i];
      if (s !== null && s.fontName === el.fontName && s.charSpacing === el.charSpacing && s.isBold === el.isBold && s.isUnderline === el.isUnderline &&
        s.isReverse === el.isReverse && s.charScaleX === el.charScaleX && s.charScaleY === el.charScaleY && s.rotation === el.rotation) return s.json;
    }
    const json = flat(`,"fontName":${stringJson(el.fontName)},"charSpacing":${numberJson(el.charSpacing)},"isBold":${el.isBold},` +
      `"isUnderline":${el.isUnderline},"isReverse":${el.isReverse},"charScaleX":${numberJson(el.charScaleX)},"charScaleY":${numberJson(el.charScaleY)},` +
      `"rotation":${stringJson(el.rotation)},"commandRaw":"","commandDescription":[],"lengthInBytes":`);
    styles[this.nextStyle] = {
      fontName: el.fontName, charSpacing: el.charSpacing, isBold: el.isBold, isUnderline: el.isUnderline, isReverse: el.isReverse,
      charScaleX: el.charScaleX, charScaleY: el.charScaleY, rotation: el.rotation, json,
    };
    this.nextStyle = (this.nextStyle + 1) % STYLES_KEPT;
    return json;
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

  /** The elements written so far made one flat string (a step's worth: the rope stays short). */
  flush(): void {
    if (this.out.length === 0) return;
    this.parts.push(flat(this.out));
    this.out = '';
  }

  /** The document's JSON, one flat string: `head`'s fields, the canvases written, `tail`'s fields. */
  finish(head: object, tail: object): string {
    const h = JSON.stringify(head);
    const t = JSON.stringify(tail);
    const before = `${h === '{}' ? '{' : `${h.slice(0, -1)},`}"canvases":[`;
    const after = t === '{}' ? ']}' : `],${t.slice(1)}`;
    // One copy: a receipt's rope at once, a long job's flat steps joined.
    if (this.parts.length === 0) return flat(before + this.out + after);
    this.flush();
    return [before, ...this.parts, after].join('');
  }
}

/** Read by `flat`, so that the compiler cannot drop the read that flattens. */
let flattened = 0;

/** `s` as one flat string: reading a character of a rope makes V8 copy it into one. */
function flat(s: string): string {
  flattened ^= s.charCodeAt(0);
  return s;
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
