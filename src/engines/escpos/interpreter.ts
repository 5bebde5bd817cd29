import { toHex } from '../canvas/hex.ts';
import type { RenderedJob } from '../canvas/model.ts';
import type { EngineEvent, PrinterContext, PushResult } from '../canvas/printer-context.ts';
import { Bitmap } from '../raster/bitmap.ts';
import {
  SYMBOL_NAMES, initialSymbolSettings, linearFromEscPos, renderLinear, renderStoredSymbol, symbologyName,
  type SymbolSettings,
} from './barcodes.ts';
import {
  CODE_PAGES, INTERNATIONAL_SETS, decodeMultiByte, isWide, multiByteLength, singleByteTable, type MultiByteSystem,
} from './codepages.ts';
import { ESC, GS, FS, DLE, mnemonic, type CommandSpec } from './commands.ts';
import { CUT_NAMES, FS_PAREN_NAMES, GS_PAREN_NAMES, fontName, onOff, printModeText } from './descriptions.ts';
import { JobDocument, type Source } from './document.ts';
import {
  cropWidth, escStarImage, fsQImages, graphicsImage, gsQ0Image, gsStarImage, gsV0Image, scaleMode, tooLarge,
} from './images.ts';
import { Layout } from './layout.ts';
import type { FrameSink } from './parser.ts';
import { initialModes, FONTS, type PrintModes } from './state.ts';
import { asb, dleEot, gsI, gsRDrawer, gsRPaper } from './status.ts';

const HEX2: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));
const HEX_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  HEX_CODES[2 * i] = HEX2[i].charCodeAt(0);
  HEX_CODES[2 * i + 1] = HEX2[i].charCodeAt(1);
}

type HexBuffer = { from(a: ArrayBufferLike, o: number, l: number): { toString(enc: 'hex'): string } };
/** Node's and workerd's (nodejs_compat) Buffer when present: native hex encoding. */
const NativeBuffer = (globalThis as unknown as { Buffer?: HexBuffer }).Buffer;

/** Uppercase hex of chunk[start, end) without per-byte string concatenation. */
function hexSlice(chunk: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 24) {
    let s = '';
    for (let i = start; i < end; i++) s += HEX2[chunk[i]];
    return s;
  }
  if (NativeBuffer) return NativeBuffer.from(chunk.buffer, chunk.byteOffset + start, n).toString('hex').toUpperCase();
  const codes = new Uint16Array(n * 2);
  for (let i = 0; i < n; i++) {
    const b = chunk[start + i] * 2;
    codes[2 * i] = HEX_CODES[b];
    codes[2 * i + 1] = HEX_CODES[b + 1];
  }
  return fromCodes(codes);
}

function fromCodes(codes: Uint16Array): string {
  const CH = 8192;
  if (codes.length <= CH) return String.fromCharCode.apply(null, codes as unknown as number[]);
  let s = '';
  for (let i = 0; i < codes.length; i += CH) s += String.fromCharCode.apply(null, codes.subarray(i, i + CH) as unknown as number[]);
  return s;
}

const codesCache = new WeakMap<string[], Uint16Array>();
/** UTF-16 code of each table entry (single-byte tables are all BMP characters). */
function codesOf(table: string[]): Uint16Array {
  let c = codesCache.get(table);
  if (!c) {
    c = new Uint16Array(256);
    for (let i = 0; i < 256; i++) c[i] = table[i].charCodeAt(0);
    codesCache.set(table, c);
  }
  return c;
}

const ascii = new TextDecoder('utf-8');

function decodeSlice(chunk: Uint8Array, start: number, end: number, codes: Uint16Array, asciiIdentity: boolean): string {
  const n = end - start;
  if (n === 1) return String.fromCharCode(codes[chunk[start]]);
  if (asciiIdentity) {
    let hi = false;
    for (let i = start; i < end; i++) if (chunk[i] >= 0x7f) { hi = true; break; }
    if (!hi) return ascii.decode(chunk.subarray(start, end));
  }
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = codes[chunk[start + i]];
  return fromCodes(out);
}

/** Outcome of one command handler. */
interface Outcome {
  text: string;
  kind?: 'command' | 'malformed' | 'unknown';
  error?: string;
  params?: Record<string, string>;
}

/**
 * NV graphics key codes (GS ( L, two printable bytes) map onto the printer's NV image slots
 * 1..255: two ASCII digits "01".."99" are that slot; any other key hashes into 100..255.
 */
export function nvKeyToSlot(kc1: number, kc2: number): number {
  if (kc1 >= 0x30 && kc1 <= 0x39 && kc2 >= 0x30 && kc2 <= 0x39) {
    const v = (kc1 - 0x30) * 10 + (kc2 - 0x30);
    if (v >= 1) return v;
  }
  return 100 + ((kc1 * 95 + kc2) % 156);
}

/**
 * The ESC/POS interpreter: receives framed text and commands, keeps the printer modes,
 * drives the layout and produces replies and events.
 */
export class Interpreter implements FrameSink {
  private modes: PrintModes;
  private readonly doc: JobDocument;
  private readonly layout: Layout;
  private symbols: SymbolSettings = initialSymbolSettings();
  private readonly width: number;
  private readonly kanjiDefault: boolean;
  private table: string[];
  private codes: Uint16Array;
  private tableKey = '';

  // text run
  private runHex = '';
  private runText = '';
  private runBytes = 0;
  private mbPending: number[] = [];

  // user-defined characters per font (index into FONTS), by character code
  private userChars: Map<number, Bitmap>[] = [new Map(), new Map(), new Map()];
  private downloadedImage: Bitmap | null = null;
  private bufferGraphics: Bitmap | null = null;
  private downloadGraphics = new Map<string, Bitmap>();
  /** NV images defined or deleted in this session (null = deleted), over the context's. */
  private nvOverlay = new Map<number, Bitmap | null>();

  private replies: Uint8Array[] = [];
  private events: EngineEvent[] = [];
  private asbMask = 0;
  private lastAsb: Uint8Array | null = null;
  private pendingCut: number | null = null;
  private offset = 0;

  constructor(private readonly getContext: () => PrinterContext) {
    const ctx = getContext();
    this.width = Math.max(1, Math.floor(ctx.widthInDots) || 576);
    this.kanjiDefault = ctx.kanjiEncoding !== undefined;
    this.modes = initialModes(this.kanjiDefault);
    this.doc = new JobDocument(this.width);
    this.layout = new Layout(this.doc, () => this.modes, this.width);
    this.table = singleByteTable(0, 0);
    this.codes = codesOf(this.table);
  }

  // ---------------------------------------------------------------- output plumbing

  takeOutput(): PushResult {
    if (this.replies.length === 0 && this.events.length === 0) return { replies: [], events: [] };
    const out = { replies: this.replies, events: this.events };
    this.replies = [];
    this.events = [];
    return out;
  }

  contextChanged(): PushResult {
    if (this.asbMask !== 0) {
      const now = asb(this.getContext());
      if (!this.lastAsb || now.some((v, i) => v !== this.lastAsb![i])) {
        this.replies.push(now);
        this.lastAsb = now;
      }
    }
    return this.takeOutput();
  }

  finish(): RenderedJob {
    if (this.layout.pageMode) {
      this.doc.error('Job ended in page mode: the page was printed as if FF had been sent');
      this.layout.printPage();
      this.layout.leavePageMode();
    }
    if (this.layout.hasPendingData) this.layout.printLine(0);
    return this.doc.finish();
  }

  private src(raw: string, description: string[], length: number): Source {
    return { commandRaw: raw, commandDescription: description, lengthInBytes: length };
  }

  private bumpStyle(): void {
    this.layout.styleVersion++;
  }

  private refreshTable(): void {
    const key = `${this.modes.codePage}/${this.modes.intlSet}`;
    if (key !== this.tableKey) {
      this.table = singleByteTable(this.modes.codePage, this.modes.intlSet);
      this.codes = codesOf(this.table);
      this.tableKey = key;
    }
  }

  private get multiByte(): MultiByteSystem | null {
    if (this.modes.utf8) return 'utf-8';
    // Epson: with the Shift JIS code system selected (FS C 1/2), Kanji first bytes are
    // recognised whether or not Kanji mode (FS &) is on.
    if (this.modes.kanjiSystem === 'shift_jis') return 'shift_jis';
    if (!this.modes.kanjiMode) return null;
    if (this.modes.kanjiSystem === 'jis') return 'jis';
    return this.getContext().kanjiEncoding ?? 'shift_jis';
  }

  // ---------------------------------------------------------------- text

  text(chunk: Uint8Array, start: number, end: number): void {
    this.refreshTable();
    const hex = hexSlice(chunk, start, end);
    this.runHex += hex;
    this.runBytes += end - start;
    const mb = this.multiByte;
    const udc = this.modes.userCharsOn && this.userChars[this.fontIndex()].size > 0;
    if (mb === null && !udc) {
      const decoded = decodeSlice(chunk, start, end, this.codes, this.modes.intlSet === 0);
      this.runText += decoded;
      this.layout.addString(decoded, hex);
      return;
    }
    for (let i = start; i < end; i++) this.slowChar(chunk[i], mb, udc);
  }

  private fontIndex(): number {
    return this.modes.font < FONTS.length ? this.modes.font : 0;
  }

  private slowChar(b: number, mb: MultiByteSystem | null, udc: boolean): void {
    if (mb !== null) {
      const pend = this.mbPending;
      if (pend.length === 0) {
        const need = multiByteLength(mb, b, -1);
        if (need === 1) {
          const ch = b < 0x80 || mb === 'utf-8' || mb === 'jis' ? (b < 0x80 ? this.table[b] : '\ufffd') : decodeMultiByte(mb, [b]);
          this.runText += ch;
          this.layout.addChars([ch], [HEX2[b]], [1], false);
          return;
        }
        pend.push(b);
        return;
      }
      pend.push(b);
      let need = multiByteLength(mb, pend[0], pend[1]);
      if (mb === 'utf-8' && (b & 0xc0) !== 0x80) {
        // invalid continuation: flush the lead byte as a replacement and restart
        pend.pop();
        this.flushPending();
        this.slowChar(b, mb, udc);
        return;
      }
      if (need === 0) need = 2;
      if (pend.length < need) return;
      const bytes = pend.splice(0, pend.length);
      const ch = decodeMultiByte(mb, bytes);
      const cp = ch.codePointAt(0) ?? 0xfffd;
      const wide = mb === 'utf-8' ? isWide(cp) : true;
      this.runText += ch;
      this.layout.addChars([ch], [bytes.map((x) => HEX2[x]).join('')], [bytes.length], wide);
      return;
    }
    if (udc) {
      const glyph = this.userChars[this.fontIndex()].get(b);
      if (glyph) {
        this.runText += this.table[b];
        const m = this.modes;
        const bmp = glyph.scale(m.scaleX, m.scaleY);
        this.layout.addInlineImage(bmp, this.src(HEX2[b], ['User-defined character', `0x${HEX2[b]}`], 1), false);
        return;
      }
    }
    const ch = this.table[b];
    this.runText += ch;
    this.layout.addChars([ch], [HEX2[b]], [1], false);
  }

  private flushPending(): void {
    if (this.mbPending.length === 0) return;
    const bytes = this.mbPending.splice(0, this.mbPending.length);
    this.runText += '\ufffd';
    this.layout.addChars(['\ufffd'], [bytes.map((x) => HEX2[x]).join('')], [bytes.length], false);
  }

  endText(): void {
    this.flushPending();
    if (this.runBytes === 0) return;
    this.doc.debug('text', this.runHex, ['Text', this.runText], this.runBytes);
    this.offset += this.runBytes;
    this.runHex = '';
    this.runText = '';
    this.runBytes = 0;
  }

  // ---------------------------------------------------------------- commands

  command(spec: CommandSpec, bytes: Uint8Array, malformed: boolean): void {
    const raw = bytes.length <= 8 ? toHex(bytes) : hexSlice(bytes, 0, bytes.length);
    let out: Outcome;
    if (malformed) {
      out = { text: 'Data not terminated within the length limit', kind: 'malformed', error: 'not terminated' };
    } else {
      try {
        out = this.execute(spec, bytes, raw);
      } catch (e) {
        out = { text: 'Command could not be processed', kind: 'malformed', error: e instanceof Error ? e.message : String(e) };
      }
    }
    const head = this.headerLength(spec, bytes);
    const mn = mnemonic(bytes, head);
    const kind = out.kind ?? 'command';
    this.doc.debug(kind, raw, [mn, out.text], bytes.length, out.params);
    if (kind !== 'command' || out.error) {
      const what = kind === 'unknown' ? 'Unknown command' : kind === 'malformed' ? 'Malformed command' : 'Command not executed';
      this.doc.error(`${what} ${mn} at byte ${this.offset}: ${out.error ?? out.text}`);
    }
    this.offset += bytes.length;
    if (this.pendingCut !== null) {
      this.doc.feed(this.pendingCut);
      this.pendingCut = null;
      this.doc.cut();
    }
  }

  truncated(spec: CommandSpec | null, bytes: Uint8Array): void {
    const mn = mnemonic(bytes, Math.min(bytes.length, 8));
    const text = spec && spec.id !== 'unknown' ? `${spec.id}: command cut off at the end of the data` : 'Command cut off at the end of the data';
    this.doc.debug('truncated', toHex(bytes), [mn, text], bytes.length);
    this.doc.error(`Truncated command ${mn} at byte ${this.offset}: ${bytes.length} bytes received, more expected`);
    this.offset += bytes.length;
  }

  /** How many leading bytes to show in the mnemonic (header, not image data). */
  private headerLength(spec: CommandSpec, b: Uint8Array): number {
    switch (spec.id) {
      case 'ESC *': return 5;
      case 'GS v': return 8;
      case 'GS Q': return 8;
      case 'GS *': return 4;
      case 'GS (': case 'ESC (': case 'FS (': return Math.min(b.length, 9);
      case 'GS 8': return Math.min(b.length, 11);
      case 'GS k': return 3;
      case 'FS q': return 3;
      case 'ESC &': return 5;
      case 'FS 2': return 4;
      case 'ESC D': return Math.min(b.length, 12);
      default: return Math.min(b.length, 12);
    }
  }

  private execute(spec: CommandSpec, b: Uint8Array, raw: string): Outcome {
    const m = this.modes;
    const n = b.length > 2 ? b[2] : 0;
    switch (spec.id) {
      // ---- single-byte controls
      case 'LF':
        this.layout.pageMode ? this.layout.printLine(m.lineSpacing) : this.layout.printLine(m.lineSpacing);
        return { text: 'Print and line feed' };
      case 'CR':
        return { text: 'Carriage return (ignored: no auto line feed)' };
      case 'HT':
        this.layout.tab();
        return { text: 'Horizontal tab' };
      case 'FF':
        if (this.layout.pageMode) {
          this.layout.printPage();
          this.layout.leavePageMode();
          return { text: 'Print page and return to standard mode' };
        }
        if (this.layout.hasPendingData) this.layout.printLine(0);
        return { text: 'Form feed (print buffer)' };
      case 'CAN':
        if (this.layout.pageMode) {
          this.layout.cancelPage();
          return { text: 'Cancel print data in page mode' };
        }
        return { text: 'Cancel (ignored in standard mode)' };
      case 'BEL':
        this.events.push({ type: 'drawerKick', drawer: 1 });
        return { text: 'Buzzer / drive peripheral device 1 (drawer 1)' };
      case 'BS':
        return { text: 'Backspace (ignored)' };
      case 'unknown': {
        if (b.length === 1) {
          return { text: `Unknown control byte 0x${HEX2[b[0]]}`, kind: 'unknown', error: `unknown control byte 0x${HEX2[b[0]]}` };
        }
        const prefix = b[0] === ESC ? 'ESC' : b[0] === GS ? 'GS' : b[0] === FS ? 'FS' : b[0] === DLE ? 'DLE' : '?';
        return { text: `Unknown command ${prefix} 0x${HEX2[b[1]]}`, kind: 'unknown' };
      }

      // ---- ESC
      case 'ESC FF':
        if (this.layout.pageMode) {
          this.layout.printPage();
          return { text: 'Print data in page mode' };
        }
        return { text: 'Print data in page mode (ignored in standard mode)' };
      case 'ESC SP':
        m.rightSpacing = n;
        this.bumpStyle();
        return { text: `Right-side character spacing ${n} dots` };
      case 'ESC !':
        m.font = n & 1;
        m.bold = (n & 0x08) !== 0;
        m.scaleY = n & 0x10 ? 2 : 1;
        m.scaleX = n & 0x20 ? 2 : 1;
        m.underline = n & 0x80 ? 1 : 0;
        this.bumpStyle();
        return { text: `Print mode: ${printModeText(n)}` };
      case 'ESC $': {
        const pos = b[2] + b[3] * 256;
        const ok = this.layout.setX(pos);
        return ok ? { text: `Absolute print position ${pos}` } : { text: `Absolute print position ${pos} outside the print area (ignored)` };
      }
      case 'ESC %':
        m.userCharsOn = (n & 1) === 1;
        this.bumpStyle();
        return { text: `User-defined character set ${onOff(n)}` };
      case 'ESC &':
        return this.defineUserChars(b);
      case 'ESC ?': {
        for (const map of this.userChars) map.delete(n);
        return { text: `Cancel user-defined character 0x${HEX2[n]}` };
      }
      case 'ESC (':
        return this.escParen(b);
      case 'ESC *': {
        const img = escStarImage(b);
        if (!img) return { text: `Bit image: invalid mode ${b[2]}`, kind: 'malformed', error: `invalid bit image mode ${b[2]}` };
        const desc = ['ESC *', `Bit image, ${img.mode}, ${img.bitmap.width}x${img.bitmap.height} dots`];
        this.layout.addInlineImage(img.bitmap, this.src(raw, desc, b.length), true);
        return { text: desc[1] };
      }
      case 'ESC -': {
        const v = n === 1 || n === 49 ? 1 : n === 2 || n === 50 ? 2 : n === 0 || n === 48 ? 0 : -1;
        if (v < 0) return { text: `Underline: invalid ${n}`, kind: 'malformed', error: `invalid underline mode ${n}` };
        m.underline = v;
        this.bumpStyle();
        return { text: v === 0 ? 'Underline off' : `Underline on (${v} dot${v > 1 ? 's' : ''})` };
      }
      case 'ESC 2':
        m.lineSpacing = 30;
        return { text: 'Default line spacing (30 dots)' };
      case 'ESC 3':
        m.lineSpacing = n;
        return { text: `Line spacing ${n} dots` };
      case 'ESC <':
        return { text: 'Return home (ignored)' };
      case 'ESC =':
        return { text: `Select peripheral device ${n}` };
      case 'ESC @': {
        const discarded = this.layout.pageMode ? this.layout.leavePageMode() : this.layout.clearLine();
        this.modes = initialModes(this.kanjiDefault);
        this.symbols = initialSymbolSettings();
        this.mbPending = [];
        this.bumpStyle();
        return { text: discarded > 0 ? `Initialize printer (${discarded} unprinted characters discarded)` : 'Initialize printer' };
      }
      case 'ESC D': {
        const stops: number[] = [];
        const cw = this.layout.cellWidth();
        let last = 0;
        let bad = false;
        for (let i = 2; i < b.length && b[i] !== 0; i++) {
          if (b[i] <= last) { bad = true; break; }
          last = b[i];
          stops.push(b[i] * cw);
        }
        if (b[b.length - 1] !== 0 && b.length > 2) bad = true;
        m.tabStops = stops;
        return bad
          ? { text: `Tab stops set (${stops.length}); list not ascending or not terminated`, kind: 'malformed', error: 'tab stop list not ascending or not NUL-terminated' }
          : { text: stops.length ? `Tab stops at columns ${stops.map((s) => s / cw).join(', ')}` : 'Tab stops cleared' };
      }
      case 'ESC E':
        m.bold = (n & 1) === 1;
        this.bumpStyle();
        return { text: `Emphasized ${onOff(n)}` };
      case 'ESC G':
        m.doubleStrike = (n & 1) === 1;
        this.bumpStyle();
        return { text: `Double-strike ${onOff(n)}` };
      case 'ESC J':
        if (this.layout.pageMode) this.layout.printLine(n);
        else this.layout.printLine(n);
        return { text: `Print and feed ${n} dots` };
      case 'ESC K':
        return { text: `Print and reverse feed ${n} dots (not emulated)` };
      case 'ESC L':
        if (this.layout.pageMode) return { text: 'Select page mode (already in page mode)' };
        this.layout.enterPageMode();
        return { text: 'Select page mode' };
      case 'ESC M': {
        const f = n === 0 || n === 48 || n === 97 ? 0 : n === 1 || n === 49 || n === 98 ? 1 : n === 2 || n === 50 ? 2 : -1;
        if (f < 0) return { text: `Character font: invalid ${n}`, kind: 'malformed', error: `invalid font ${n}` };
        m.font = f;
        this.bumpStyle();
        return { text: `Character font: ${fontName(n)}` };
      }
      case 'ESC R': {
        const set = INTERNATIONAL_SETS.get(n);
        if (!set) return { text: `International character set ${n} unknown`, kind: 'malformed', error: `unknown international character set ${n}` };
        m.intlSet = n;
        return { text: `International character set: ${set.name}` };
      }
      case 'ESC S':
        if (!this.layout.pageMode) return { text: 'Select standard mode' };
        this.layout.leavePageMode();
        return { text: 'Select standard mode (page data discarded)' };
      case 'ESC T':
        if (n > 3 && (n < 48 || n > 51)) return { text: `Print direction: invalid ${n}`, kind: 'malformed', error: `invalid direction ${n}` };
        this.layout.setPageDirection(n & 3);
        return { text: `Page mode print direction ${['left to right', 'bottom to top', 'right to left', 'top to bottom'][n & 3]}` };
      case 'ESC U':
        return { text: `Unidirectional printing ${onOff(n)}` };
      case 'ESC V': {
        if (n > 2 && (n < 48 || n > 50)) return { text: `90° rotation: invalid ${n}`, kind: 'malformed', error: `invalid rotation mode ${n}` };
        m.rotate90 = (n & 3) !== 0;
        this.bumpStyle();
        return { text: `90° clockwise rotation ${m.rotate90 ? 'on' : 'off'}` };
      }
      case 'ESC W': {
        const x = b[2] + b[3] * 256, y = b[4] + b[5] * 256, dx = b[6] + b[7] * 256, dy = b[8] + b[9] * 256;
        if (dx === 0 || dy === 0) return { text: 'Page mode print area: zero size', kind: 'malformed', error: 'zero-sized print area' };
        this.layout.setPageArea(x, y, dx, dy);
        return { text: `Page mode print area x=${x} y=${y} width=${dx} height=${dy}` };
      }
      case 'ESC \\': {
        let d = b[2] + b[3] * 256;
        if (d >= 0x8000) d -= 0x10000;
        const ok = this.layout.moveX(d);
        return ok ? { text: `Relative print position ${d}` } : { text: `Relative print position ${d} outside the print area (ignored)` };
      }
      case 'ESC a': {
        const j = n === 0 || n === 48 ? 'left' : n === 1 || n === 49 ? 'center' : n === 2 || n === 50 ? 'right' : null;
        if (!j) return { text: `Justification: invalid ${n}`, kind: 'malformed', error: `invalid justification ${n}` };
        m.justify = j;
        return { text: `Justification ${j}` };
      }
      case 'ESC c':
        return { text: b.length === 4 ? `Paper sensor / panel setting ESC c ${String.fromCharCode(b[2])} ${b[3]}` : 'ESC c (unsupported function)' };
      case 'ESC d': {
        this.layout.printLine(n * m.lineSpacing);
        return { text: `Print and feed ${n} lines` };
      }
      case 'ESC e':
        return { text: `Print and reverse feed ${n} lines (not emulated)` };
      case 'ESC i':
        this.cut(0);
        return { text: 'Partial cut (one point left)' };
      case 'ESC m':
        this.cut(0);
        return { text: 'Partial cut (three points left)' };
      case 'ESC p': {
        const pin = b[2];
        const drawer = pin === 0 || pin === 48 ? 1 : pin === 1 || pin === 49 ? 2 : 0;
        if (!drawer) return { text: `Drawer pulse: invalid pin ${pin}`, kind: 'malformed', error: `invalid connector pin ${pin}` };
        this.events.push({ type: 'drawerKick', drawer });
        return { text: `Generate pulse: drawer ${drawer} (pin ${drawer === 1 ? 2 : 5}), on ${b[3] * 2} ms, off ${b[4] * 2} ms` };
      }
      case 'ESC r':
        return { text: `Print color ${n & 1 ? 'red' : 'black'}` };
      case 'ESC t': {
        const page = CODE_PAGES.get(n);
        if (!page) return { text: `Character code table ${n} unknown`, kind: 'malformed', error: `unknown character code table ${n}` };
        m.codePage = n;
        return { text: `Character code table: ${page.name}${page.approximate ? ' (approximated)' : ''}` };
      }
      case 'ESC u':
        this.replies.push(Uint8Array.of(this.getContext().drawer1State === 'Closed' ? 0x01 : 0x00));
        return { text: 'Transmit peripheral device status' };
      case 'ESC v':
        this.replies.push(Uint8Array.of(this.getContext().flags.isPaperOut ? 0x0c : this.getContext().flags.isPaperNearEnd ? 0x03 : 0));
        return { text: 'Transmit paper sensor status' };
      case 'ESC {':
        m.upsideDown = (n & 1) === 1;
        this.bumpStyle();
        return { text: `Upside-down printing ${onOff(n)}` };

      // ---- GS
      case 'GS !': {
        const w = ((n >> 4) & 7) + 1, h = (n & 7) + 1;
        if (n & 0x88) return { text: `Character size: invalid ${n}`, kind: 'malformed', error: `invalid character size ${n}` };
        m.scaleX = w;
        m.scaleY = h;
        this.bumpStyle();
        return { text: `Character size: width x${w}, height x${h}` };
      }
      case 'GS $': {
        const v = b[2] + b[3] * 256;
        if (!this.layout.pageMode) return { text: `Absolute vertical position ${v} (page mode only, ignored)` };
        this.layout.setPageY(v);
        return { text: `Absolute vertical position ${v}` };
      }
      case 'GS \\': {
        let d = b[2] + b[3] * 256;
        if (d >= 0x8000) d -= 0x10000;
        if (!this.layout.pageMode) return { text: `Relative vertical position ${d} (page mode only, ignored)` };
        this.layout.movePageY(d);
        return { text: `Relative vertical position ${d}` };
      }
      case 'GS (':
        return this.gsParen(b, raw);
      case 'GS 8':
        if (b[2] !== 0x4c) return { text: `GS 8 ${b[2]} not supported`, kind: 'unknown' };
        return this.graphics(b, 7, raw);
      case 'GS *': {
        if (b[2] === 0 || b[3] === 0) return { text: 'Define downloaded bit image: zero size', kind: 'malformed', error: 'zero-sized bit image' };
        this.downloadedImage = gsStarImage(b);
        return { text: `Define downloaded bit image ${this.downloadedImage.width}x${this.downloadedImage.height} dots` };
      }
      case 'GS /': {
        if (!this.downloadedImage) return { text: 'Print downloaded bit image: none defined', kind: 'malformed', error: 'no downloaded bit image defined' };
        const [sx, sy, scale] = scaleMode(n);
        const bmp = this.downloadedImage.scale(sx, sy);
        const desc = ['GS /', `Print downloaded bit image (${scale})`];
        this.layout.placeBlock(cropWidth(bmp, this.width), this.src(raw, desc, b.length));
        return { text: desc[1] };
      }
      case 'GS :':
        return { text: 'Start/end of macro definition (not emulated)' };
      case 'GS B':
        m.reverse = (n & 1) === 1;
        this.bumpStyle();
        return { text: `White/black reverse ${onOff(n)}` };
      case 'GS C':
        return { text: 'Counter printing (not emulated)' };
      case 'GS H':
        m.hriPosition = n & 3;
        if (n > 3 && (n < 48 || n > 51)) return { text: `HRI position: invalid ${n}`, kind: 'malformed', error: `invalid HRI position ${n}` };
        return { text: `HRI position: ${['not printed', 'above', 'below', 'above and below'][n & 3]}` };
      case 'GS I': {
        const reply = gsI(n, this.getContext());
        if (!reply) return { text: `Transmit printer ID ${n} (not supported)`, kind: 'malformed', error: `unsupported printer ID request ${n}` };
        this.replies.push(reply);
        return { text: `Transmit printer ID ${n}` };
      }
      case 'GS L': {
        const v = b[2] + b[3] * 256;
        if (!this.layout.isLineEmpty) return { text: `Left margin ${v} (ignored: not at the beginning of a line)` };
        m.leftMargin = Math.min(v, this.width - 1);
        return { text: `Left margin ${v} dots` };
      }
      case 'GS P':
        return { text: `Motion units x=${b[2]} y=${b[3]} (dots are used)` };
      case 'GS Q': {
        const img = gsQ0Image(b);
        if (!img) return { text: 'Variable vertical size bit image: invalid', kind: 'malformed', error: 'invalid GS Q 0 image' };
        const desc = ['GS Q 0', `Variable vertical size bit image ${img.bitmap.width}x${img.bitmap.height} (${img.scale})`];
        this.layout.placeBlock(cropWidth(img.bitmap, this.width), this.src(raw, desc, b.length));
        return { text: desc[1] };
      }
      case 'GS T':
        return { text: 'Set print position to the beginning of print line' };
      case 'GS V':
        return this.gsV(b);
      case 'GS W': {
        const v = b[2] + b[3] * 256;
        if (!this.layout.isLineEmpty) return { text: `Print area width ${v} (ignored: not at the beginning of a line)` };
        m.areaWidth = v === 0 ? 1 : v;
        return { text: `Print area width ${v} dots` };
      }
      case 'GS ^':
        return { text: 'Execute macro (not emulated)' };
      case 'GS a': {
        this.asbMask = n;
        if (n !== 0) {
          const now = asb(this.getContext());
          this.replies.push(now);
          this.lastAsb = now;
        } else {
          this.lastAsb = null;
        }
        return { text: n ? `Automatic Status Back enabled (mask 0x${HEX2[n]})` : 'Automatic Status Back disabled' };
      }
      case 'GS b':
        m.smoothing = (n & 1) === 1;
        return { text: `Smoothing ${onOff(n)}` };
      case 'GS c':
        return { text: 'Print counter (not emulated)' };
      case 'GS f':
        m.hriFont = n === 1 || n === 49 ? 1 : 0;
        return { text: `HRI font: ${fontName(n)}` };
      case 'GS g':
        return { text: 'Maintenance counter (not emulated)' };
      case 'GS h':
        m.barcodeHeight = n === 0 ? 1 : n;
        return { text: `Barcode height ${n} dots` };
      case 'GS j':
        return { text: `Automatic Status Back for ink ${n ? 'enabled' : 'disabled'}` };
      case 'GS k':
        return this.gsK(b, raw);
      case 'GS r': {
        const ctx = this.getContext();
        if (n === 1 || n === 49) this.replies.push(Uint8Array.of(gsRPaper(ctx)));
        else if (n === 2 || n === 50) this.replies.push(Uint8Array.of(gsRDrawer(ctx)));
        else if (n === 4 || n === 52) this.replies.push(Uint8Array.of(0));
        else return { text: `Transmit status ${n} (unknown)`, kind: 'malformed', error: `unknown status request ${n}` };
        return { text: `Transmit status: ${n === 1 || n === 49 ? 'paper sensor' : n === 2 || n === 50 ? 'drawer kick-out connector' : 'ink'}` };
      }
      case 'GS v': {
        if (b.length < 8) return { text: `Raster bit image: invalid function ${b[2]}`, kind: 'malformed', error: `GS v ${b[2]} not supported` };
        const img = gsV0Image(b);
        if (!img) return { text: `Raster bit image: invalid mode ${b[3]}`, kind: 'malformed', error: `invalid raster mode ${b[3]}` };
        const desc = ['GS v 0', `Raster bit image ${img.bitmap.width}x${img.bitmap.height} dots (${img.scale})`];
        this.layout.placeBlock(cropWidth(img.bitmap, this.width), this.src(raw, desc, b.length));
        return { text: desc[1] };
      }
      case 'GS w': {
        const valid = (n >= 1 && n <= 6) || (n >= 68 && n <= 76);
        if (!valid) return { text: `Barcode module width: invalid ${n}`, kind: 'malformed', error: `invalid barcode width ${n}` };
        m.barcodeModule = n >= 68 ? n - 67 : n;
        return { text: `Barcode module width ${m.barcodeModule} dots` };
      }
      case 'GS z':
        return { text: 'Set online recovery wait time' };

      // ---- FS
      case 'FS !':
        m.kanjiDoubleWidth = (n & 0x04) !== 0;
        m.kanjiDoubleHeight = (n & 0x08) !== 0;
        m.kanjiUnderline = n & 0x80 ? 1 : 0;
        this.bumpStyle();
        return { text: `Kanji print mode 0x${HEX2[n]}` };
      case 'FS &':
        m.kanjiMode = true;
        return { text: `Kanji character mode on (${this.multiByte})` };
      case 'FS .':
        m.kanjiMode = false;
        this.mbPending = [];
        return { text: 'Kanji character mode off' };
      case 'FS -':
        m.kanjiUnderline = n === 1 || n === 49 ? 1 : n === 2 || n === 50 ? 2 : 0;
        this.bumpStyle();
        return { text: `Kanji underline ${m.kanjiUnderline ? m.kanjiUnderline + ' dot' : 'off'}` };
      case 'FS 2':
        return { text: `Define user-defined Kanji character ${HEX2[b[2]]}${HEX2[b[3]]} (not drawn)` };
      case 'FS ?':
        return { text: 'Cancel user-defined Kanji character' };
      case 'FS C': {
        if (n === 0 || n === 48) m.kanjiSystem = 'jis';
        else if (n === 1 || n === 49 || n === 2 || n === 50) m.kanjiSystem = 'shift_jis';
        else return { text: `Kanji code system: invalid ${n}`, kind: 'malformed', error: `invalid Kanji code system ${n}` };
        return { text: `Kanji code system: ${m.kanjiSystem === 'jis' ? 'JIS' : 'Shift JIS'}` };
      }
      case 'FS S':
        m.kanjiLeftSpacing = b[2];
        m.kanjiRightSpacing = b[3];
        this.bumpStyle();
        return { text: `Kanji spacing left ${b[2]}, right ${b[3]}` };
      case 'FS W':
        m.kanjiDoubleWidth = (n & 1) === 1;
        m.kanjiDoubleHeight = (n & 1) === 1;
        this.bumpStyle();
        return { text: `Kanji quadruple-size ${onOff(n)}` };
      case 'FS (':
        return this.fsParen(b);
      case 'FS p':
        return this.fsP(b, raw);
      case 'FS q':
        return this.fsQ(b);

      // ---- DLE
      case 'DLE EOT': {
        const q = b[2];
        const v = dleEot(q, this.getContext());
        if (v === null) {
          if (q === 7 || q === 8) {
            this.replies.push(Uint8Array.of(0x12));
            return { text: `Transmit real-time status ${q} ${b[3]}` };
          }
          return { text: `Real-time status: invalid ${q}`, kind: 'malformed', error: `invalid real-time status request ${q}` };
        }
        this.replies.push(Uint8Array.of(v));
        const names = ['', 'printer', 'offline cause', 'error cause', 'roll paper sensor'];
        return { text: `Transmit real-time status: ${names[q]} (0x${HEX2[v]})` };
      }
      case 'DLE ENQ':
        return { text: `Real-time request to printer ${n}` };
      case 'DLE DC4': {
        switch (b[2]) {
          case 1: {
            const drawer = b[3] === 0 ? 1 : b[3] === 1 ? 2 : 0;
            if (!drawer) return { text: `Real-time pulse: invalid pin ${b[3]}`, kind: 'malformed', error: `invalid connector pin ${b[3]}` };
            this.events.push({ type: 'drawerKick', drawer });
            return { text: `Generate pulse in real time: drawer ${drawer}, ${b[4] * 100} ms` };
          }
          case 2: return { text: 'Execute power-off sequence (ignored)' };
          case 3: return { text: 'Sound buzzer (not emulated)' };
          case 7: {
            this.replies.push(asb(this.getContext()));
            return { text: `Transmit specified status ${b[3]}` };
          }
          case 8: {
            if (this.layout.pageMode) this.layout.cancelPage();
            const discarded = this.layout.clearLine();
            this.replies.push(Uint8Array.of(0x37, 0x25, 0x00));
            return { text: `Clear buffers (${discarded} unprinted characters discarded)` };
          }
          default:
            return { text: `DLE DC4 function ${b[2]} unknown`, kind: 'unknown' };
        }
      }
      default:
        return { text: `Command ${spec.id} not emulated` };
    }
  }

  private cut(feed: number): void {
    if (this.layout.pageMode) {
      this.layout.printPage();
      this.layout.leavePageMode();
    }
    if (this.layout.hasPendingData) this.layout.printLine(this.modes.lineSpacing);
    this.pendingCut = feed;
  }

  private gsV(b: Uint8Array): Outcome {
    const m = b[2];
    const name = CUT_NAMES[m];
    if (!name) return { text: `Cut: invalid mode ${m}`, kind: 'malformed', error: `invalid cut mode ${m}` };
    const n = b.length > 3 ? b[3] : 0;
    if (m === 103 || m === 104) {
      this.cut(n);
      return { text: `${name} after feeding ${n} dots` };
    }
    this.cut(b.length > 3 ? n : 0);
    return { text: b.length > 3 ? `${name} (feed ${n} dots)` : name };
  }

  private defineUserChars(b: Uint8Array): Outcome {
    const y = b[2], c1 = b[3], c2 = b[4];
    if (y < 1 || y > 3 || c1 < 32 || c2 > 126 || c2 < c1) {
      return { text: `Define user-defined characters: invalid parameters y=${y} c1=${c1} c2=${c2}`, kind: 'malformed', error: 'invalid user-defined character parameters' };
    }
    const font = y === 3 ? 0 : 1;
    const height = y === 3 ? 24 : 17;
    let pos = 5;
    for (let c = c1; c <= c2; c++) {
      const x = b[pos];
      const glyph = Bitmap.fromColumns(x, y, b.subarray(0, pos + 1 + x * y), pos + 1);
      const out = new Bitmap(x, height);
      out.blit(glyph, 0, 0, 'copy');
      this.userChars[font].set(c, out);
      if (font === 1) this.userChars[2].set(c, out);
      pos += 1 + x * y;
    }
    return { text: `Define user-defined characters 0x${HEX2[c1]}..0x${HEX2[c2]} (${y * 8} dots high)` };
  }

  private escParen(b: Uint8Array): Outcome {
    const f = String.fromCharCode(b[2]);
    if (f === 'A') return { text: 'Beeper (not emulated)' };
    if (f === 'Y') return { text: 'Specify batch print' };
    return { text: `ESC ( ${f} (not emulated)` };
  }

  private fsParen(b: Uint8Array): Outcome {
    const f = String.fromCharCode(b[2]);
    const fn = b.length > 5 ? b[5] : -1;
    if (f === 'C' && fn === 48 && b.length > 6) {
      const v = b[6];
      if (v === 1 || v === 49) { this.modes.utf8 = false; return { text: 'Character encoding: 1-byte code page' }; }
      if (v === 2 || v === 50) { this.modes.utf8 = true; return { text: 'Character encoding: UTF-8' }; }
      return { text: `Character encoding: invalid ${v}`, kind: 'malformed', error: `invalid character encoding ${v}` };
    }
    return { text: `${FS_PAREN_NAMES[f] ?? 'FS ( ' + f} (not emulated)` };
  }

  // ---------------------------------------------------------------- GS ( x

  private gsParen(b: Uint8Array, raw: string): Outcome {
    const f = String.fromCharCode(b[2]);
    switch (f) {
      case 'L':
        return this.graphics(b, 5, raw);
      case 'k':
        return this.symbol(b, raw);
      case 'H': {
        if (b.length >= 11 && b[5] === 48) {
          this.replies.push(Uint8Array.of(0x37, 0x22, b[7], b[8], b[9], b[10], 0x00));
          return { text: 'Request transmission of process ID response' };
        }
        return { text: 'Request transmission of response or status (unsupported function)' };
      }
      default:
        return { text: `${GS_PAREN_NAMES[f] ?? 'GS ( ' + f} (not emulated)` };
    }
  }

  private nvLookup(slot: number): Bitmap | undefined {
    if (this.nvOverlay.has(slot)) return this.nvOverlay.get(slot) ?? undefined;
    return this.getContext().nvImages.get(slot);
  }

  private nvDefine(slot: number, bmp: Bitmap): void {
    this.nvOverlay.set(slot, bmp);
    this.events.push({ type: 'nvImageDefined', slot, bitmap: bmp });
  }

  private nvDelete(slot: number): void {
    this.nvOverlay.set(slot, null);
    this.events.push({ type: 'nvImageDeleted', slot });
  }

  /** GS ( L / GS 8 L: `base` is the index of m. */
  private graphics(b: Uint8Array, base: number, raw: string): Outcome {
    const end = b.length;
    if (end < base + 2) return { text: 'Graphics: missing function', kind: 'malformed', error: 'missing graphics function' };
    const fn = b[base + 1];
    const p = base + 2;
    const digits = (code: number, v: number): Uint8Array => {
      const s = String(v);
      const out = new Uint8Array(s.length + 3);
      out[0] = 0x37; out[1] = code;
      for (let i = 0; i < s.length; i++) out[2 + i] = s.charCodeAt(i);
      return out;
    };
    switch (fn) {
      case 0: case 48:
        this.replies.push(digits(0x30, 1 << 20));
        return { text: 'Transmit NV graphics memory capacity' };
      case 1: case 49:
        return { text: 'Set reference dot density for graphics' };
      case 2: case 50: {
        if (!this.bufferGraphics) return { text: 'Print graphics in print buffer: none stored', kind: 'malformed', error: 'no graphics data stored' };
        const desc = ['GS ( L', `Print graphics data ${this.bufferGraphics.width}x${this.bufferGraphics.height} dots`];
        this.layout.placeBlock(cropWidth(this.bufferGraphics, this.width), this.src(raw, desc, b.length));
        this.bufferGraphics = null;
        return { text: desc[1] };
      }
      case 3: case 51:
        this.replies.push(digits(0x31, 1 << 20));
        return { text: 'Transmit remaining NV graphics capacity' };
      case 4: case 52:
        this.replies.push(digits(0x32, 1 << 20));
        return { text: 'Transmit remaining print buffer graphics capacity' };
      case 64:
        this.replies.push(Uint8Array.of(0x37, 0x72, 0x40, 0x00));
        return { text: 'Transmit NV graphics key code list' };
      case 65: {
        const ctx = this.getContext();
        const slots = new Set<number>([...ctx.nvImages.keys()]);
        for (const [s, v] of this.nvOverlay) if (v) slots.add(s); else slots.delete(s);
        for (const s of slots) this.nvDelete(s);
        return { text: `Delete all NV graphics (${slots.size})` };
      }
      case 66: {
        if (end < p + 2) return { text: 'Delete NV graphics: missing key', kind: 'malformed', error: 'missing key code' };
        const slot = nvKeyToSlot(b[p], b[p + 1]);
        this.nvDelete(slot);
        return { text: `Delete NV graphics key "${String.fromCharCode(b[p], b[p + 1])}" (slot ${slot})` };
      }
      case 67: case 68: case 83: case 84: {
        // a kc1 kc2 b xL xH yL yH [c d...]
        if (end < p + 9) return { text: 'Define graphics: header too short', kind: 'malformed', error: 'graphics header too short' };
        const kc1 = b[p + 1], kc2 = b[p + 2];
        const w = b[p + 4] + b[p + 5] * 256, h = b[p + 6] + b[p + 7] * 256;
        if (w === 0 || h === 0 || tooLarge(w, h)) return { text: `Define graphics: invalid size ${w}x${h}`, kind: 'malformed', error: `invalid graphics size ${w}x${h}` };
        const column = fn === 68 || fn === 84;
        const data = b.subarray(0, end);
        let bmp = column ? Bitmap.fromColumns(w, Math.ceil(h / 8), data, p + 9) : Bitmap.fromPackedRows(Math.ceil(w / 8), h, data, p + 9);
        if (bmp.width !== w) bmp = cropWidth(bmp, w);
        if (bmp.height !== h) bmp = new Bitmap(bmp.width, h, bmp.pixels.slice(0, bmp.width * h));
        const key = String.fromCharCode(kc1, kc2);
        if (fn === 67 || fn === 68) {
          const slot = nvKeyToSlot(kc1, kc2);
          this.nvDefine(slot, bmp);
          return { text: `Define NV graphics key "${key}" (slot ${slot}) ${w}x${h} dots` };
        }
        this.downloadGraphics.set(key, bmp);
        return { text: `Define download graphics key "${key}" ${w}x${h} dots` };
      }
      case 69: case 85: {
        if (end < p + 4) return { text: 'Print graphics: missing parameters', kind: 'malformed', error: 'missing parameters' };
        const kc1 = b[p], kc2 = b[p + 1], sx = b[p + 2], sy = b[p + 3];
        const key = String.fromCharCode(kc1, kc2);
        const bmp = fn === 69 ? this.nvLookup(nvKeyToSlot(kc1, kc2)) : this.downloadGraphics.get(key);
        if (!bmp) return { text: `Print graphics key "${key}": not defined`, kind: 'malformed', error: `graphics key "${key}" not defined` };
        if ((sx !== 1 && sx !== 2) || (sy !== 1 && sy !== 2)) return { text: 'Print graphics: invalid scale', kind: 'malformed', error: 'invalid scale' };
        const desc = ['GS ( L', `Print ${fn === 69 ? 'NV' : 'download'} graphics key "${key}" x${sx} y${sy}`];
        this.layout.placeBlock(cropWidth(bmp.scale(sx, sy), this.width), this.src(raw, desc, b.length));
        return { text: desc[1] };
      }
      case 80:
        this.replies.push(digits(0x33, 1 << 20));
        return { text: 'Transmit remaining download graphics capacity' };
      case 81:
        this.downloadGraphics.clear();
        return { text: 'Delete all download graphics' };
      case 82: {
        if (end >= p + 2) this.downloadGraphics.delete(String.fromCharCode(b[p], b[p + 1]));
        return { text: 'Delete download graphics' };
      }
      case 112: case 113: {
        const img = graphicsImage(b, p, end, fn === 113, true);
        if (!img) return { text: 'Store graphics data: invalid parameters', kind: 'malformed', error: 'invalid graphics parameters' };
        this.bufferGraphics = img.bitmap;
        return { text: `Store graphics data in print buffer ${img.bitmap.width}x${img.bitmap.height} dots (${fn === 112 ? 'raster' : 'column'})` };
      }
      default:
        return { text: `Graphics function ${fn} (not emulated)` };
    }
  }

  // ---------------------------------------------------------------- 2D symbols

  private symbol(b: Uint8Array, raw: string): Outcome {
    if (b.length < 7) return { text: '2D code: missing function', kind: 'malformed', error: 'missing 2D code function' };
    const cn = b[5], fn = b[6];
    const s = this.symbols;
    const name = SYMBOL_NAMES[cn] ?? `symbol ${cn}`;
    const p = (i: number): number => (b.length > 7 + i ? b[7 + i] : 0);
    const data = (): Uint8Array => b.slice(8);
    if (fn === 81) {
      const res = renderStoredSymbol(cn, s);
      if (!res.ok) return { text: `Print ${name}: ${res.error}`, kind: 'malformed', error: res.error };
      const desc = ['GS ( k', `Print ${name} ${res.value.bitmap.width}x${res.value.bitmap.height} dots`];
      const bmp = res.value.bitmap;
      if (bmp.width > this.width) return { text: `${desc[1]}: wider than the print area (not printed)`, kind: 'malformed', error: `${name} wider than the print area` };
      this.layout.placeBlock(bmp, this.src(raw, desc, b.length));
      return { text: desc[1] };
    }
    if (fn === 82) {
      // transmit size information: printing area info, not emulated beyond an answer
      this.replies.push(Uint8Array.of(0x37, 0x36 + 0, 0x00));
      return { text: `Transmit ${name} size information` };
    }
    switch (cn) {
      case 49: // QR
        switch (fn) {
          case 65: s.qrModel = p(0); return { text: `QR Code model ${p(0) === 49 ? 1 : p(0) === 50 ? 2 : p(0) === 51 ? 'micro' : p(0)}` };
          case 67: s.qrSize = Math.min(16, Math.max(1, p(0))); return { text: `QR Code module size ${s.qrSize} dots` };
          case 69: s.qrEc = p(0) >= 48 && p(0) <= 51 ? p(0) : 48; return { text: `QR Code error correction ${'LMQH'[s.qrEc - 48]}` };
          case 80: s.qrData = data(); return { text: `QR Code: store ${s.qrData.length} bytes` };
        }
        break;
      case 48: // PDF417
        switch (fn) {
          case 65: s.pdfColumns = p(0); return { text: `PDF417 columns ${p(0) || 'auto'}` };
          case 66: s.pdfRows = p(0); return { text: `PDF417 rows ${p(0) || 'auto'}` };
          case 67: s.pdfModule = Math.min(8, Math.max(1, p(0))); return { text: `PDF417 module width ${s.pdfModule} dots` };
          case 68: s.pdfRowHeight = Math.min(8, Math.max(2, p(0))); return { text: `PDF417 row height x${s.pdfRowHeight}` };
          case 69: s.pdfEcLevel = p(0) === 48 ? Math.min(8, Math.max(0, p(1) - 48)) : null; return { text: `PDF417 error correction ${p(0) === 48 ? 'level ' + (p(1) - 48) : 'ratio ' + p(1) * 10 + '%'}` };
          case 70: s.pdfTruncated = (p(0) & 1) === 1; return { text: `PDF417 ${s.pdfTruncated ? 'truncated' : 'standard'}` };
          case 80: s.pdfData = data(); return { text: `PDF417: store ${s.pdfData.length} bytes` };
        }
        break;
      case 50: // MaxiCode
        switch (fn) {
          case 65: s.maxiMode = p(0); return { text: `MaxiCode mode ${p(0) - 48}` };
          case 80: s.maxiData = data(); return { text: `MaxiCode: store ${s.maxiData.length} bytes` };
        }
        break;
      case 53: // Aztec
        switch (fn) {
          case 50: s.aztecCompact = p(0) === 1 || p(0) === 49; s.aztecLayers = p(1); return { text: `Aztec Code ${s.aztecCompact ? 'compact' : 'full-range'}, layers ${p(1) || 'auto'}` };
          case 51: s.aztecModule = Math.min(16, Math.max(2, p(0))); return { text: `Aztec Code module size ${s.aztecModule} dots` };
          case 53: s.aztecEc = Math.min(95, Math.max(5, p(0))); return { text: `Aztec Code error correction ${s.aztecEc}%` };
          case 80: s.aztecData = data(); return { text: `Aztec Code: store ${s.aztecData.length} bytes` };
        }
        break;
      case 54: // DataMatrix
        switch (fn) {
          case 66: s.dmRect = p(0) === 1 || p(0) === 49; s.dmColumns = p(1); s.dmRows = p(2); return { text: `DataMatrix ${s.dmRect ? 'rectangle' : 'square'} ${p(1) || 'auto'}x${p(2) || 'auto'}` };
          case 67: s.dmModule = Math.min(16, Math.max(2, p(0))); return { text: `DataMatrix module size ${s.dmModule} dots` };
          case 80: s.dmData = data(); return { text: `DataMatrix: store ${s.dmData.length} bytes` };
        }
        break;
    }
    return { text: `${name} function ${fn} (not emulated)` };
  }

  // ---------------------------------------------------------------- barcodes

  private gsK(b: Uint8Array, raw: string): Outcome {
    const m = b[2];
    let data: Uint8Array;
    if (m <= 6) data = b.subarray(3, b.length - 1);
    else if (m >= 65 && m <= 79) data = b.subarray(4, 4 + b[3]);
    else return { text: `Barcode: invalid system ${m}`, kind: 'malformed', error: `invalid barcode system ${m}` };
    const spec = linearFromEscPos(m, data);
    const name = symbologyName(m);
    if (typeof spec === 'string') return { text: `${name}: ${spec}`, kind: 'malformed', error: spec };
    const res = renderLinear(spec, this.modes.barcodeModule, this.modes.barcodeHeight);
    if (!res.ok) return { text: `${name}: ${res.error}`, kind: 'malformed', error: res.error };
    const bmp = res.value.bitmap;
    const hri = spec.hri || res.value.humanReadable;
    const desc = ['GS k', `${name} "${hri}" ${bmp.width}x${bmp.height} dots`];
    if (bmp.width > this.width) return { text: `${desc[1]}: wider than the print area (not printed)`, kind: 'malformed', error: `${name} wider than the print area` };
    const src = this.src(raw, desc, b.length);
    const pos = this.modes.hriPosition;
    const font = FONTS[this.modes.hriFont] ?? FONTS[0];
    if (this.layout.pageMode || pos === 0) {
      this.layout.placeBlock(bmp, src);
      return { text: desc[1] };
    }
    // HRI above and/or below: text lines around the symbol.
    if (this.layout.hasPendingData) this.layout.printLine(0);
    const area = this.areaFor(bmp.width);
    let y = this.doc.y;
    if (pos === 1 || pos === 3) y += this.layout.blockText(hri, area, bmp.width, y, this.modes.hriFont, src);
    this.doc.image(bmp, area, y, src);
    y += bmp.height;
    if (pos === 2 || pos === 3) y += this.layout.blockText(hri, area, bmp.width, y, this.modes.hriFont, src);
    void font;
    this.doc.feed(y - this.doc.y);
    return { text: desc[1] };
  }

  /** x of a block of `w` dots in standard mode, by justification. */
  private areaFor(w: number): number {
    const m = this.modes;
    const left = Math.min(m.leftMargin, this.width - 1);
    const width = Math.max(1, Math.min(m.areaWidth ?? this.width, this.width - left));
    if (m.justify === 'center') return left + Math.max(0, Math.floor((width - w) / 2));
    if (m.justify === 'right') return left + Math.max(0, width - w);
    return left;
  }

  // ---------------------------------------------------------------- NV bit images

  private fsP(b: Uint8Array, raw: string): Outcome {
    const slot = b[2], mode = b[3];
    if (mode > 3 && (mode < 48 || mode > 51)) return { text: `Print NV bit image: invalid mode ${mode}`, kind: 'malformed', error: `invalid NV image mode ${mode}` };
    const bmp = this.nvLookup(slot);
    if (!bmp) return { text: `Print NV bit image ${slot}: slot empty`, kind: 'malformed', error: `NV image slot ${slot} is empty` };
    const [sx, sy, scale] = scaleMode(mode);
    const desc = ['FS p', `Print NV bit image ${slot} (${scale}) ${bmp.width * sx}x${bmp.height * sy} dots`];
    this.layout.placeBlock(cropWidth(bmp.scale(sx, sy), this.width), this.src(raw, desc, b.length));
    return { text: desc[1] };
  }

  private fsQ(b: Uint8Array): Outcome {
    const n = b[2];
    if (n === 0) return { text: 'Define NV bit images: none', kind: 'malformed', error: 'FS q with n = 0' };
    const images = fsQImages(b);
    images.forEach((img, i) => this.nvDefine(i + 1, img));
    return { text: `Define NV bit images 1..${n} (${images.map((i) => `${i.width}x${i.height}`).join(', ')})` };
  }
}
