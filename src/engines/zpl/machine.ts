/**
 * The ZPL label machine: formats (^XA … ^XZ) made of fields (^FO … ^FS), printed as canvases
 * (one per copy), stored formats and graphics in printer memory, and the host replies. The
 * command table (commands/) drives it; the session (session.ts) frames bytes into commands
 * and accounts for them; the shared label machine (label/) keeps the document.
 */
import type { CanvasElement, DebugElement } from '../canvas/model.ts';
import type { PrinterContext } from '../canvas/printer-context.ts';
import { layoutLabel, type CommandElements, type LabelJob } from '../label/index.ts';
import { defaultModelFor, type PrinterModel } from '../models/index.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import { decodeHexEscapes } from './field-data.ts';
import { fontByName, type DownloadedFontKind, type ResolvedFont } from './font-ids.ts';
import { residentFont, sizeFont, SCALABLE_DEFAULT, type Dpi, type SizedFont } from './fonts.ts';
import { renderOp, type RenderEnv } from './render.ts';
import { extendedStatus, hostStatus, type StatusInfo, type ZplIdentity } from './replies.ts';
import { expandClock } from './clock.ts';
import { DEFAULT_PREFIXES, type Prefixes } from './tokenizer.ts';
import { nextSerial } from './serial.ts';
import {
  defaultSettings,
  emptyField,
  type FieldData,
  type FieldFont,
  type FieldState,
  type Op,
  type OpSource,
  type Settings,
  type StoredCommand,
  type StoredFormat,
  type ZplPrinterMemory,
} from './state.ts';

/** A format being received between ^XA and ^XZ. */
interface Format {
  ops: Op[];
  quantity: number;
  /** ^PQ r: copies of each serial number. */
  replicates: number;
  /** ^PQ p: the printer pauses after every p labels (0: never). */
  pauseEvery: number;
  /** ^FN data given by the recalling format (^XF), by field number: as text prints it, as a bar code encodes it. */
  fieldData: Map<number, { text: string; data: string }>;
  /** ^DF: the format is stored under this name instead of printed. */
  storing: StoredFormat | null;
  /** Commands between ^XA and ^XZ: an empty format (^XA^XZ) feeds a blank label. */
  commands: number;
}

/** Packed bytes of stored objects one printer keeps at most: 1 MiB, 8 M dots of graphics. */
export const MAX_STORED_BYTES = 1 << 20;

function newFormat(): Format {
  return { ops: [], quantity: 1, replicates: 0, pauseEvery: 0, fieldData: new Map(), storing: null, commands: 0 };
}

export class ZplMachine {
  settings: Settings = defaultSettings();
  field: FieldState = emptyField();
  format: Format | null = null;
  replies: Uint8Array[] = [];
  /** The framing characters in force (^CC, ^CT, ^CD), shared with the tokenizer; ^HH reports them. */
  prefixes: Prefixes = { ...DEFAULT_PREFIXES };
  /** The real-time clock (tests pin it). */
  now: () => Date = () => new Date();
  /** The printer model (its ^CI numbering); the default ZPL model when the context has none. */
  model: PrinterModel = defaultModelFor('Zpl');
  /** The command being run (its debug element is the source of what it draws). */
  current: OpSource | null = null;

  constructor(
    readonly getContext: () => PrinterContext,
    readonly memory: ZplPrinterMemory,
    readonly identity: ZplIdentity,
    /** The shared label machine's document: debug elements, canvases, budgets, errors. */
    readonly job: LabelJob,
  ) {}

  get dpi(): Dpi {
    return this.identity.dpi;
  }

  reply(bytes: Uint8Array): void {
    this.replies.push(bytes);
  }

  // ------------------------------------------------------------------------------------------
  // Formats

  startFormat(): string | undefined {
    let warning: string | undefined;
    if (this.format) warning = 'a format was still open (no ^XZ): it is printed before the new one starts';
    if (this.format) this.endFormat();
    this.format = newFormat();
    this.field = emptyField();
    return warning;
  }

  /** Count a command of the open format (see Format.commands). */
  countCommand(): void {
    if (this.format) this.format.commands++;
  }

  /** The open format; commands outside ^XA … ^XZ still build one (a Zebra is forgiving). */
  ensureFormat(): Format {
    if (!this.format) this.format = newFormat();
    return this.format;
  }

  /** ^XZ: complete the last field, then store or print the format. */
  endFormat(): string {
    const f = this.format;
    if (!f) return 'no format open';
    if (this.fieldHasContent()) this.finishField();
    this.format = null;
    this.field = emptyField();
    if (f.storing) {
      const full = this.roomFor(f.storing.name, f.storing.sizeInBytes);
      if (full) {
        this.job.errors.add(`^DF: ${full}`);
        return `Format ${f.storing.name} not stored: memory is full`;
      }
      this.memory.forms.set(f.storing.name, f.storing);
      return `Format ${f.storing.name} stored (${f.storing.commands.length} commands)`;
    }
    // ^XA^XZ feeds one blank label (hosts send it to advance the media); a format of settings
    // or queries alone prints nothing.
    if (f.ops.length === 0 && f.commands > 0) return 'End of format (nothing to print)';
    const printed = this.print(f);
    // ^PQ with a pause count: the printer pauses after each group (the last one included)
    // until the operator or ~PS resumes it; the labels of the job are all shown.
    if (f.pauseEvery > 0 && printed > 0) this.memory.paused = true;
    return `End of format: ${printed} label${printed === 1 ? '' : 's'} printed${f.pauseEvery > 0 ? ', printer paused' : ''}`;
  }

  /** ~JA: cancel the format being received. */
  cancelAll(): void {
    this.format = null;
    this.field = emptyField();
  }

  storeCommand(cmd: StoredCommand, bytes: number): boolean {
    const s = this.format?.storing;
    if (!s) return false;
    s.commands.push(cmd);
    s.sizeInBytes += bytes;
    return true;
  }

  beginStore(name: string): void {
    const f = this.ensureFormat();
    f.storing = { name, commands: [], sizeInBytes: 0 };
  }

  get storing(): boolean {
    return this.format?.storing != null;
  }

  setQuantity(q: number, replicates: number, pauseEvery: number): void {
    const f = this.ensureFormat();
    f.quantity = q;
    f.replicates = replicates;
    f.pauseEvery = pauseEvery;
  }

  // ------------------------------------------------------------------------------------------
  // Fields

  fieldHasContent(): boolean {
    const fl = this.field;
    return fl.origin !== null || fl.data !== null || fl.graphic !== null || fl.barcode !== null;
  }

  /** The font a text field prints with: its ^A, else the ^CF default. */
  currentFont(): FieldFont {
    if (this.field.font) return this.field.font;
    const { font, note } = this.resolvedDefaultFont();
    return { font, orientation: this.settings.fieldOrientation, note };
  }

  defaultFont(): SizedFont {
    return this.resolvedDefaultFont().font;
  }

  /** The ^CF font (through its ^CW assignment) at the ^CF size, and what stands in for it. */
  private resolvedDefaultFont(): { font: SizedFont; note: string } {
    const s = this.settings;
    const { font, note } = this.fontByName(s.defaultFont);
    const fallback = font.kind === 'scalable' ? SCALABLE_DEFAULT : { height: font.height, width: font.width };
    return { font: sizeFont(font, s.defaultHeight, s.defaultWidth, fallback), note };
  }

  /** The font a font name prints with (^CW assignments and downloaded fonts included). */
  fontByName(name: string): ResolvedFont {
    return fontByName(name, this.memory, this.dpi);
  }

  /**
   * ^FS: the field becomes an op of the format. A ^FN field without a position in a format
   * that recalls a stored one (^XF) gives the data of that field number instead.
   */
  finishField(): string {
    const fl = this.field;
    const f = this.ensureFormat();
    this.field = emptyField();
    const src = this.current!;
    const text = fl.data === null ? '' : this.decodeField(fl.data, fl, fl.barcode !== null);
    if (fl.fieldNumber !== null && fl.origin === null && fl.graphic === null && fl.barcode === null) {
      f.fieldData.set(fl.fieldNumber, { text, data: fl.data === null ? '' : this.decodeField(fl.data, fl, true) });
      return `Field ${fl.fieldNumber} data "${preview(text)}"`;
    }
    const origin = fl.origin ?? { x: this.settings.homeX, y: this.settings.homeY, typeset: false, justification: 0 };
    // ^LR Y is ^FR on every field (Zebra's words): ^FR under ^LR still reverses.
    const reverse = fl.reverse || this.settings.reverseAll;
    const data: FieldData = { text };
    if (fl.fieldNumber !== null) data.fieldNumber = fl.fieldNumber;
    if (fl.serial) data.serial = fl.serial;
    if (fl.clock) data.clock = fl.clock;
    const g = fl.graphic;
    if (g) {
      switch (g.kind) {
        case 'box':
          f.ops.push({ ...g, origin, reverse, src });
          return `Box ${g.width}x${g.height}, thickness ${g.thickness}`;
        case 'raster':
          f.ops.push({ kind: 'raster', origin, reverse, src, bitmap: g.bitmap, white: g.white, magX: g.magX, magY: g.magY });
          return `Graphic ${g.bitmap.width}x${g.bitmap.height}`;
        case 'storedGraphic':
          f.ops.push({ kind: 'storedGraphic', origin, reverse, src, name: g.name, magX: g.magX, magY: g.magY });
          return `Graphic ${g.name}`;
        case 'symbol': {
          // ^GS sizes are in dots (the symbols scale freely, unlike the bitmap fonts' whole multiples).
          const gs = residentFont('GS', this.dpi)!;
          const base = gs.kind === 'bitmap' ? gs : { height: 24, width: 24 };
          const font: SizedFont = { font: gs, height: g.height, width: g.width, magY: g.height / base.height, magX: g.width / base.width };
          data.text = graphicSymbols(text);
          f.ops.push({ kind: 'text', origin, reverse, src, orientation: g.orientation, font, data });
          return `Graphic symbol "${preview(text)}"`;
        }
      }
    }
    if (fl.barcode) {
      f.ops.push({ kind: 'barcode', origin, reverse, src, spec: fl.barcode, data, textFont: this.interpretationFont(fl.barcode.kind === 'linear' ? fl.barcode.moduleWidth : 1) });
      return `${fl.barcode.name} "${preview(text)}"`;
    }
    if (fl.data === null && fl.fieldNumber === null) return 'Empty field';
    const { font, orientation, note } = fl.font ?? this.currentFont();
    f.ops.push({ kind: 'text', origin, reverse, src, orientation, font, data, block: fl.block ?? undefined });
    return `Text "${preview(text)}"${note ? ` (${note})` : ''}`;
  }

  /**
   * The interpretation line font: font A magnified by the bar code's module width (18 dots
   * high at ^BY2, 27 at ^BY3), which is how Zebra sizes it (zebrash measures the same).
   */
  private interpretationFont(moduleWidth: number): SizedFont {
    const a = residentFont('A', this.dpi)!;
    const mag = Math.max(1, Math.min(10, moduleWidth));
    return sizeFont(a, a.kind === 'bitmap' ? a.height * mag : 9, a.kind === 'bitmap' ? a.width * mag : 5, SCALABLE_DEFAULT);
  }

  /** Field data → characters: a bar code's data without the set's national glyphs. */
  private decodeField(raw: string, fl: FieldState, barcode: boolean): string {
    const bytes = fl.hexEscape ? decodeHexEscapes(raw, fl.hexEscape) : raw;
    const cs = fl.charset ?? this.settings.charset;
    return barcode ? cs.decodeData(bytes) : cs.decode(bytes);
  }

  // ------------------------------------------------------------------------------------------
  // Printing

  /**
   * Print a label of text lines in font D (~WC's configuration label) without touching the
   * format being received. Returns the labels printed.
   */
  printLines(lines: readonly string[]): number {
    const d = residentFont('D', this.dpi)!;
    const font = sizeFont(d, null, null, d.kind === 'bitmap' ? d : SCALABLE_DEFAULT);
    const f = newFormat();
    lines.forEach((text, i) => {
      f.ops.push({ kind: 'text', origin: { x: 20, y: 20 + i * (font.height + 6), typeset: false, justification: 0 }, reverse: false, src: this.current!, orientation: 'N', font, data: { text } });
    });
    return this.print(f);
  }

  private print(f: Format): number {
    const ctx = this.getContext();
    const W = Math.max(1, this.settings.printWidth ?? ctx.widthInDots);
    const fixedH = this.settings.labelLength ?? ctx.heightInDots;
    const copies = Math.max(1, f.quantity);
    const job = this.job;
    let printed = 0;
    const overflowReported = new Set<DebugElement>();
    for (let copy = 0; copy < copies; copy++) {
      if (!job.canPrint((message) => job.errors.add(message))) break;
      const serialStep = Math.floor(copy / (f.replicates + 1));
      const env: RenderEnv = {
        text: (op) => this.fieldText(op.data, f, serialStep, op.kind === 'barcode'),
        graphic: (name) => this.memory.graphics.get(name),
      };
      const rendered: CommandElements[] = [];
      for (const op of f.ops) {
        const r = renderOp(op, env);
        if (r.error && copy === 0) {
          job.errors.add(`${op.src.command}: ${r.error}`);
          op.src.debug.debugType = 'error';
        }
        this.shift(r.elements);
        const last = rendered[rendered.length - 1];
        if (last && last.debug === op.src.debug) last.elements.push(...r.elements);
        else rendered.push({ debug: op.src.debug, elements: r.elements });
      }
      const label = layoutLabel(rendered, W, fixedH, this.settings.inverted, (debug, outside) => {
        if (copy > 0 || overflowReported.has(debug)) return;
        overflowReported.add(debug);
        job.errors.add(`${debug.commandDescription[1] ?? 'A field'}: ${outside ? 'the field is entirely outside the label' : 'the field is cut at the edge of the label'}`);
      }, this.settings.mirrored);
      job.spendRendering(label, f.ops.filter((op) => op.kind === 'barcode').length);
      job.addLabel(label, copy === 0);
      printed++;
    }
    return printed;
  }

  /** ^LS shifts every field left, ^LT moves them down (after ^LH, which ^FO already holds). */
  private shift(elements: CanvasElement[]): void {
    const dx = -this.settings.labelShift, dy = this.settings.labelTop;
    if (dx === 0 && dy === 0) return;
    for (const el of elements) {
      if (el.type === 'line') {
        el.x1 += dx;
        el.x2 += dx;
        el.y1 += dy;
        el.y2 += dy;
      } else if (el.type !== 'debug') {
        el.x += dx;
        el.y += dy;
      }
    }
  }

  private fieldText(data: FieldData, f: Format, serialStep: number, barcode: boolean): string {
    const given = data.fieldNumber !== undefined ? f.fieldData.get(data.fieldNumber) : undefined;
    let text = given ? (barcode ? given.data : given.text) : data.text;
    if (data.serial && serialStep > 0) text = nextSerial(text, data.serial, serialStep);
    if (data.clock) text = expandClock(text, data.clock, this.now());
    return text;
  }

  // ------------------------------------------------------------------------------------------
  // Status

  statusInfo(): StatusInfo {
    const ctx = this.getContext();
    return {
      flags: ctx.flags,
      paused: this.memory.paused,
      labelLengthInDots: this.settings.labelLength ?? ctx.heightInDots ?? 0,
      formatsInBuffer: 0,
      partialFormat: this.format !== null,
      bufferFull: ctx.bufferFull,
      labelsRemaining: 0,
      graphicsStored: this.memory.graphics.size,
      printMode: this.settings.printMode,
      thermalTransfer: this.settings.mediaType === 'T',
      continuousMedia: this.settings.mediaTracking === 'N',
    };
  }

  hostStatus(): Uint8Array {
    return hostStatus(this.statusInfo());
  }

  extendedStatus(): Uint8Array {
    return extendedStatus(this.statusInfo());
  }

  /**
   * Bytes the user may store: what ~HM reports as the maximum (a real printer's RAM is
   * finite), and never more than MAX_STORED_BYTES, because a printer object keeps graphics
   * one byte per dot (8 times their packed size) for every connection to come.
   */
  get capacityBytes(): number {
    return Math.min(MAX_STORED_BYTES, Math.floor(this.identity.memoryKb * 0.75) * 1024);
  }

  /** Null when `bytes` more fit in memory once the object `name` they replace is freed, else why not. */
  private roomFor(name: string, bytes: number): string | null {
    const old = this.memory.graphics.get(name);
    const freed = (old ? Math.ceil(old.width / 8) * old.height : 0) + (this.memory.forms.get(name)?.sizeInBytes ?? 0) + (this.memory.objects.get(name) ?? 0);
    const free = this.capacityBytes - (this.usedMemoryBytes() - freed);
    return bytes <= free ? null : `printer memory is full: ${name} needs ${bytes} bytes, ${Math.max(0, free)} are free (^ID or ^EG frees memory)`;
  }

  /** Store a graphic (~DG, ~DY); an error message when memory is full (nothing stored). */
  storeGraphic(name: string, bitmap: Bitmap): string | null {
    const full = this.roomFor(name, Math.ceil(bitmap.width / 8) * bitmap.height);
    if (full) return full;
    this.memory.graphics.set(name, bitmap);
    return null;
  }

  /** Store another downloaded object (fonts, encodings): only its size, and a font's kind, matter here. */
  storeObject(name: string, bytes: number, fontKind?: DownloadedFontKind): string | null {
    const full = this.roomFor(name, bytes);
    if (full) return full;
    this.memory.objects.set(name, bytes);
    if (fontKind) this.memory.fonts.set(name, fontKind);
    else this.memory.fonts.delete(name);
    return null;
  }

  usedMemoryBytes(): number {
    let n = 0;
    for (const g of this.memory.graphics.values()) n += Math.ceil(g.width / 8) * g.height;
    for (const f of this.memory.forms.values()) n += f.sizeInBytes;
    for (const s of this.memory.objects.values()) n += s;
    return n;
  }
}

/**
 * ^GS field data: A is ®, B ©, C ™; D (the UL mark) and E (the CSA mark) have no character
 * and print as "UL" and "CSA".
 */
function graphicSymbols(text: string): string {
  const map: Record<string, string> = { A: '®', B: '©', C: '™', D: 'UL', E: 'CSA' };
  return [...text].map((c) => map[c.toUpperCase()] ?? c).join('');
}

export function preview(text: string, max = 60): string {
  let s = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    s += c < 0x20 || c === 0x7f ? `<${c.toString(16).toUpperCase().padStart(2, '0')}>` : ch;
    if (s.length >= max) return `${s}…`;
  }
  return s;
}
