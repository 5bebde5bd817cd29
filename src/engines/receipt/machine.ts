import type { RenderedJob } from '../canvas/model.ts';
import type { EngineEvent, PrinterContext, PushResult } from '../canvas/printer-context.ts';
import type { BudgetLimits } from '../core/budget.ts';
import type { CommandEntry, CommandTable, Outcome } from '../core/commands.ts';
import type { FrameSink } from '../core/framer.ts';
import { hexByte, stringFromCodes, toHex } from '../core/hex.ts';
import { mnemonic } from '../core/mnemonic.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { JobDocument, type Source } from './document.ts';
import { VerticalRules } from './vertical-rules.ts';
import { CommandText } from './command-text.ts';
import { Layout } from './layout.ts';
import { FONTS, initialModes, type FontMetrics, type PrintModes } from './state.ts';
import { combiningMarks, tableCodes, type MultiByteSystem, type TextCodec } from './text.ts';
import { isCombiningMark } from '../text/index.ts';

const ascii = new TextDecoder('utf-8');

function decodeSlice(chunk: Uint8Array, start: number, end: number, codes: Uint16Array, asciiIdentity: boolean): string {
  const n = end - start;
  if (n === 1) return String.fromCharCode(codes[chunk[start]]);
  if (asciiIdentity && n > ASCII_DECODER_MIN) {
    let hi = false;
    for (let i = start; i < end; i++) if (chunk[i] >= 0x7f) { hi = true; break; }
    if (!hi) return ascii.decode(chunk.subarray(start, end));
  }
  if (n > APPLY_MAX) {
    const out = new Uint16Array(n);
    for (let i = 0; i < n; i++) out[i] = codes[chunk[start + i]];
    return stringFromCodes(out);
  }
  // A plain array of codes: `apply` takes it at half the cost of a typed array's.
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = codes[chunk[start + i]];
  return String.fromCharCode.apply(null, out);
}

/** ASCII slices longer than this go through the TextDecoder (shorter ones: a call costs more than `apply`). */
const ASCII_DECODER_MIN = 64;
/** Slices up to this many characters are made with one `apply` of their codes. */
const APPLY_MAX = 4096;
/**
 * Printable bytes with no control byte between them are a text run, described by one debug
 * element (its hex and its text). A run is cut into elements of at most this many bytes, so a
 * job of megabytes of characters and no line feed (valid, if odd) holds at most this much of
 * it in growing strings, not all of it twice over.
 */
const MAX_TEXT_RUN_BYTES = 64 * 1024;

export interface ReceiptMachineOptions {
  /** The job's text codec, chosen once from the printer context (see text.ts). */
  codec: TextCodec;
  /** Element and cost budgets of the job (defaults in core/budget.ts). */
  limits?: BudgetLimits;
  /** The printer's resident fonts, indexed by the font command's number (default: Epson's FONTS). */
  fonts?: readonly FontMetrics[];
}

/**
 * The shared receipt machine: what a receipt printer is, whatever its command language
 * (ESC/POS, Star). It holds the print modes (fonts, styles incl. italic, alignment), the line
 * and page buffers (layout.ts), the job's canvases (document.ts), text decoding through ONE
 * codec per job, in-line and block images, user-defined characters, NV images, cuts, replies
 * and side effects. A protocol subclasses it with its own state and a command table whose
 * handlers drive it; the machine frames nothing itself but is the framer's sink, and does the
 * bookkeeping every command shares (a debug element per command, error messages, offsets).
 *
 * `M` is the protocol's machine type, so the table's handlers receive the subclass.
 */
export abstract class ReceiptMachine<M extends ReceiptMachine<M>> implements FrameSink<M> {
  modes: PrintModes;
  readonly doc: JobDocument;
  readonly layout: Layout;
  /** Vertical ruled lines running down the receipt (ePOS-Print vline-begin / vline-end). */
  readonly verticalRules: VerticalRules;
  readonly width: number;
  readonly codec: TextCodec;
  /** Resident fonts, indexed by `modes.font`. */
  readonly fonts: readonly FontMetrics[];
  /** Kanji mode on after ESC @ (the printer has a multi-byte encoding by default). */
  readonly kanjiDefault: boolean;
  private table: string[];
  private codes: Uint16Array;
  /** Bytes of the current table that are combining marks (printed in the cell before), or null when it has none. */
  private marks: Uint8Array | null = null;
  /** The code page and international set `table` is of (-1: none yet). */
  private tableCodePage = -1;
  private tableIntlSet = -1;
  /** The short commands of this job, each described once (command-text.ts). */
  private readonly commandTexts = CommandText.table();

  // text run
  private runHex = '';
  private runText = '';
  private runBytes = 0;
  mbPending: number[] = [];

  /** User-defined characters per font (index into FONTS), by character code. */
  readonly userChars: Map<number, Bitmap>[] = [new Map(), new Map(), new Map()];
  /** NV images defined or deleted in this session (null = deleted), over the context's. */
  private readonly nvOverlay = new Map<number, Bitmap | null>();

  replies: Uint8Array[] = [];
  events: EngineEvent[] = [];
  private pendingCut: number | null = null;
  private pulsed = false;
  /** Bytes consumed so far (for "at byte N" in error messages). */
  offset = 0;

  constructor(
    readonly getContext: () => PrinterContext,
    private readonly commands: CommandTable<M>,
    options: ReceiptMachineOptions,
  ) {
    const ctx = getContext();
    this.width = Math.max(1, Math.floor(ctx.widthInDots) || 576);
    this.codec = options.codec;
    this.kanjiDefault = this.codec.bootsInKanjiMode && this.codec.kanji !== null;
    this.modes = initialModes(this.kanjiDefault);
    this.doc = new JobDocument(this.width, options.limits);
    this.fonts = options.fonts ?? FONTS;
    this.layout = new Layout(this.doc, () => this.modes, this.width, this.fonts);
    this.verticalRules = new VerticalRules(this.doc);
    this.table = this.codec.singleByte(0, 0);
    this.codes = tableCodes(this.table);
  }

  // ---------------------------------------------------------------- output plumbing

  takeOutput(): PushResult {
    if (this.replies.length === 0 && this.events.length === 0) return { replies: [], events: [] };
    const out = { replies: this.replies, events: this.events };
    this.replies = [];
    this.events = [];
    return out;
  }

  /** A reply to send back at once (status, identity). */
  reply(bytes: Uint8Array): void {
    this.replies.push(bytes);
  }

  /** A side effect for the printer (drawer kick, NV image stored). */
  emit(event: EngineEvent): void {
    if (event.type === 'drawerKick') this.pulsed = true;
    this.events.push(event);
  }

  /** Flags or drawers changed mid-connection: protocols that report on their own override this. */
  contextChanged(): PushResult {
    return this.takeOutput();
  }

  finish(): RenderedJob {
    this.endOfJob();
    return this.doc.finish({ pulsed: this.pulsed });
  }

  /** A bounded part of `finish`'s work (ProtocolSession.finishStep); true while more is left. */
  finishStep(): boolean {
    this.endOfJob();
    return this.doc.encodeStep();
  }

  private jobEnded = false;

  /** What the end of the job prints (a page still open, a pending line), once. */
  private endOfJob(): void {
    if (this.jobEnded) return;
    this.jobEnded = true;
    if (this.layout.pageMode) {
      this.doc.error('Job ended in page mode: the page was printed as if FF had been sent');
      this.layout.printPage();
      this.layout.leavePageMode();
    }
    if (this.layout.hasPendingData) this.layout.printLine(0);
    this.verticalRules.endAll();
  }

  src(raw: string, description: string[], length: number): Source {
    return { commandRaw: raw, commandDescription: description, lengthInBytes: length };
  }

  /** A mode that changes the look of text changed: the next characters start a new run. */
  bumpStyle(): void {
    this.layout.styleVersion++;
  }

  /** Back to power-on modes (ESC @); returns the number of unprinted characters discarded. */
  resetModes(): number {
    const discarded = this.layout.pageMode ? this.layout.leavePageMode() : this.layout.clearLine();
    this.modes = initialModes(this.kanjiDefault);
    this.mbPending = [];
    this.bumpStyle();
    return discarded;
  }

  private refreshTable(): void {
    const { codePage, intlSet } = this.modes;
    if (codePage !== this.tableCodePage || intlSet !== this.tableIntlSet) {
      this.table = this.codec.singleByte(codePage, intlSet);
      this.codes = tableCodes(this.table);
      this.marks = combiningMarks(this.table);
      this.tableCodePage = codePage;
      this.tableIntlSet = intlSet;
    }
  }

  /** The multi-byte system text is decoded in now, or null for single-byte text. */
  get multiByte(): MultiByteSystem | null {
    if (this.modes.utf8) return 'utf-8';
    // Epson: with the Shift JIS code system selected (FS C 1/2), Kanji first bytes are
    // recognised whether or not Kanji mode (FS &) is on.
    if (this.modes.kanjiSystem === 'shift_jis') return 'shift_jis';
    if (!this.modes.kanjiMode) return null;
    if (this.modes.kanjiSystem === 'jis') return 'jis';
    return this.codec.kanji;
  }

  // ---------------------------------------------------------------- text

  text(chunk: Uint8Array, start: number, end: number): void {
    while (start < end) {
      // A full run is given before more is added, between characters (never inside one).
      if (this.runBytes >= MAX_TEXT_RUN_BYTES && this.mbPending.length === 0) this.endText();
      const piece = Math.min(end, start + Math.max(1, MAX_TEXT_RUN_BYTES - this.runBytes));
      this.textPiece(chunk, start, piece);
      start = piece;
    }
  }

  private textPiece(chunk: Uint8Array, start: number, end: number): void {
    this.refreshTable();
    const hex = toHex(chunk, start, end);
    this.runHex += hex;
    this.runBytes += end - start;
    const mb = this.multiByte;
    const udc = this.modes.userCharsOn && this.userChars[this.fontIndex()].size > 0;
    if (mb === null && !udc && this.marks === null) {
      const decoded = decodeSlice(chunk, start, end, this.codes, this.modes.intlSet === 0);
      this.runText += decoded;
      this.layout.addString(decoded, hex);
      return;
    }
    for (let i = start; i < end; i++) this.slowChar(chunk[i], mb, udc);
  }

  fontIndex(): number {
    return this.modes.font < this.fonts.length ? this.modes.font : 0;
  }

  private slowChar(b: number, mb: MultiByteSystem | null, udc: boolean): void {
    const codec = this.codec;
    if (mb !== null) {
      const pend = this.mbPending;
      if (pend.length === 0) {
        const need = codec.multiByteLength(mb, b, -1);
        if (need === 1) {
          const ch = b < 0x80 || mb === 'utf-8' || mb === 'jis' ? (b < 0x80 ? this.table[b] : '\ufffd') : codec.decodeMultiByte(mb, [b]);
          this.runText += ch;
          this.layout.addChars([ch], [hexByte(b)], [1], false);
          return;
        }
        pend.push(b);
        return;
      }
      pend.push(b);
      let need = codec.multiByteLength(mb, pend[0], pend[1]);
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
      const ch = codec.decodeMultiByte(mb, bytes);
      const cp = ch.codePointAt(0) ?? 0xfffd;
      const wide = mb === 'utf-8' ? codec.isWide(cp) : true;
      this.runText += ch;
      if (mb === 'utf-8' && isCombiningMark(cp)) this.layout.addMark(ch, bytes.map(hexByte).join(''), bytes.length);
      else this.layout.addChars([ch], [bytes.map(hexByte).join('')], [bytes.length], wide);
      return;
    }
    if (udc) {
      const glyph = this.userChars[this.fontIndex()].get(b);
      if (glyph) {
        this.runText += this.table[b];
        const m = this.modes;
        const bmp = glyph.scale(m.scaleX, m.scaleY);
        this.layout.addInlineImage(bmp, this.src(hexByte(b), ['User-defined character', `0x${hexByte(b)}`], 1), false);
        return;
      }
    }
    const ch = this.table[b];
    this.runText += ch;
    if (this.marks !== null && this.marks[b] === 1) this.layout.addMark(ch, hexByte(b), 1);
    else this.layout.addChars([ch], [hexByte(b)], [1], false);
  }

  private flushPending(): void {
    if (this.mbPending.length === 0) return;
    const bytes = this.mbPending.splice(0, this.mbPending.length);
    this.runText += '\ufffd';
    this.layout.addChars(['\ufffd'], [bytes.map(hexByte).join('')], [bytes.length], false);
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

  command(spec: CommandEntry<M>, bytes: Uint8Array, malformed: boolean): void {
    const known = CommandText.of(this.commandTexts, bytes);
    const raw = known ? known.hex() : toHex(bytes);
    let out: Outcome;
    if (malformed) {
      out = { text: 'Data not terminated within the length limit', kind: 'malformed', error: 'not terminated' };
    } else {
      try {
        out = spec.run(this as unknown as M, bytes, raw);
      } catch (e) {
        out = { text: 'Command could not be processed', kind: 'malformed', error: e instanceof Error ? e.message : String(e) };
      }
    }
    const kind = out.kind ?? 'command';
    const header = spec.header ?? 12;
    const description = known ? known.describe(header, out.text, this.commands.prefixBytes) : [mnemonic(bytes, header, this.commands.prefixBytes), out.text];
    this.doc.debug(kind, raw, description, bytes.length, out.params);
    if (kind !== 'command' || out.error) {
      const mn = description[0];
      const what = kind === 'unknown' ? 'Unknown command' : kind === 'malformed' ? 'Malformed command' : 'Command not executed';
      this.doc.error(`${what} ${mn} at byte ${this.offset}: ${out.error ?? out.text}`);
    }
    this.offset += bytes.length;
    if (this.pendingCut !== null) {
      this.doc.feed(this.pendingCut);
      this.pendingCut = null;
      this.verticalRules.beforeCut();
      this.doc.cut();
    }
  }

  truncated(spec: CommandEntry<M> | null, bytes: Uint8Array): void {
    const mn = mnemonic(bytes, Math.min(bytes.length, 8), this.commands.prefixBytes);
    const known = spec && spec !== this.commands.unknownPrefixed && spec !== this.commands.unknownSingle;
    const text = known ? `${spec.name}: command cut off at the end of the data` : 'Command cut off at the end of the data';
    this.doc.debug('truncated', toHex(bytes), [mn, text], bytes.length);
    this.doc.error(`Truncated command ${mn} at byte ${this.offset}: ${bytes.length} bytes received, more expected`);
    this.offset += bytes.length;
  }

  // ---------------------------------------------------------------- paper

  /** Cut after the current command, feeding `feed` dots first; prints what is pending. */
  cut(feed: number): void {
    if (this.layout.pageMode) {
      this.layout.printPage();
      this.layout.leavePageMode();
    }
    if (this.layout.hasPendingData) this.layout.printLine(this.modes.lineSpacing);
    this.pendingCut = feed;
  }

  /** x of a block of `w` dots in standard mode, by justification. */
  areaFor(w: number): number {
    const m = this.modes;
    const left = Math.min(m.leftMargin, this.width - 1);
    const width = Math.max(1, Math.min(m.areaWidth ?? this.width, this.width - left));
    if (m.justify === 'center') return left + Math.max(0, Math.floor((width - w) / 2));
    if (m.justify === 'right') return left + Math.max(0, width - w);
    return left;
  }

  /**
   * A barcode block with its human-readable text above (1), below (2), both (3) or none (0),
   * in HRI font `hriFont`. In page mode the symbol is placed like any block, without HRI.
   */
  placeBarcode(bmp: Bitmap, hri: string, position: number, hriFont: number, src: Source): void {
    if (this.layout.pageMode || position === 0) {
      this.layout.placeBlock(bmp, src);
      return;
    }
    if (this.layout.hasPendingData) this.layout.printLine(0);
    const area = this.areaFor(bmp.width);
    let y = this.doc.y;
    if (position === 1 || position === 3) y += this.layout.blockText(hri, area, bmp.width, y, hriFont, src);
    this.doc.image(bmp, area, y, src);
    y += bmp.height;
    if (position === 2 || position === 3) y += this.layout.blockText(hri, area, bmp.width, y, hriFont, src);
    this.doc.feed(y - this.doc.y);
  }

  // ---------------------------------------------------------------- NV images

  nvLookup(slot: number): Bitmap | undefined {
    if (this.nvOverlay.has(slot)) return this.nvOverlay.get(slot) ?? undefined;
    return this.getContext().nvImages.get(slot);
  }

  nvDefine(slot: number, bmp: Bitmap): void {
    this.nvOverlay.set(slot, bmp);
    this.emit({ type: 'nvImageDefined', slot, bitmap: bmp });
  }

  nvDelete(slot: number): void {
    this.nvOverlay.set(slot, null);
    this.emit({ type: 'nvImageDeleted', slot });
  }

  /** Slots holding an image now (the context's, with this session's changes). */
  nvSlots(): Set<number> {
    const slots = new Set<number>([...this.getContext().nvImages.keys()]);
    for (const [s, v] of this.nvOverlay) if (v) slots.add(s); else slots.delete(s);
    return slots;
  }
}
