import type { Rotation, TextElement } from '../canvas/model.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import { OTHER, USUAL_TEXT } from '../canvas/element-kinds.ts';
import type { JobDocument, Source } from './document.ts';
import { FONTS, type FontMetrics, type Justification, type PrintModes } from './state.ts';

/**
 * The print line buffer (standard mode) and the page buffer (page mode).
 *
 * Characters and in-line images (ESC *, user-defined characters) accumulate on the current
 * line at x positions relative to the print area; printing the line (LF, ESC d, ESC J, a
 * full line, ...) aligns them on a common baseline, applies justification and upside-down
 * mode, emits one text element per style run, and feeds the paper by
 * max(requested feed, tallest item).
 */

export interface TextStyle {
  fontName: string;
  bold: boolean;
  doubleStrike: boolean;
  italic: boolean;
  underline: number;
  reverse: boolean;
  rotate90: boolean;
  scaleX: number;
  scaleY: number;
  charSpacing: number;
}

interface LineText {
  kind: 'text';
  text: string;
  raw: string;
  bytes: number;
  x: number;
  width: number;
  height: number;
  style: TextStyle;
  ver: number;
}

interface LineImage {
  kind: 'image';
  bitmap: Bitmap;
  x: number;
  width: number;
  height: number;
  src: Source;
  mergeable: boolean;
}

type LineItem = LineText | LineImage;

/** Page mode element in page (logical) coordinates, before direction mapping. */
interface PageItem {
  item: LineItem;
  x: number;
  y: number;
}

interface CellMetrics {
  ver: number;
  wide: boolean;
  width: number;
  height: number;
  style: TextStyle;
}

export class Layout {
  private items: LineItem[] = [];
  private x = 0;
  private lineJustify: Justification = 'left';
  private lineUpsideDown = false;
  private lineLeft = 0;
  private lineWidth = 0;
  private lastRun: LineText | null = null;
  /** Bumped by the interpreter whenever a mode that changes text appearance changes. */
  styleVersion = 0;
  private cell: CellMetrics | null = null;
  private wideCell: CellMetrics | null = null;

  // Page mode
  pageMode = false;
  private pageItems: PageItem[] = [];
  private pageArea = { x: 0, y: 0, w: 0, h: 0, explicit: false };
  pageDirection = 0;
  /** Baseline of the current page-mode line, null until the first line is placed. */
  private pageBaseline: number | null = null;

  constructor(
    private readonly doc: JobDocument,
    private readonly modes: () => PrintModes,
    private readonly paperWidth: number,
    /** The printer's resident fonts, indexed by `PrintModes.font` (Epson's by default). */
    private readonly fonts: readonly FontMetrics[] = FONTS,
  ) {}

  get isLineEmpty(): boolean {
    return this.items.length === 0 && this.x === 0;
  }

  get hasPendingData(): boolean {
    return this.items.length > 0;
  }

  /** Left edge and width of the print area. */
  private area(): { left: number; width: number } {
    if (this.pageMode) {
      const logicalW = this.pageDirection === 1 || this.pageDirection === 3 ? this.pageArea.h : this.pageArea.w;
      return { left: 0, width: Math.max(1, logicalW) };
    }
    const m = this.modes();
    const left = Math.min(m.leftMargin, Math.max(0, this.paperWidth - 1));
    const width = Math.max(1, Math.min(m.areaWidth ?? this.paperWidth, this.paperWidth - left));
    return { left, width };
  }

  private beginLineIfEmpty(): void {
    if (this.items.length === 0 && this.x === 0) {
      const m = this.modes();
      const a = this.area();
      this.lineLeft = a.left;
      this.lineWidth = a.width;
      this.lineJustify = m.justify;
      this.lineUpsideDown = m.upsideDown && !this.pageMode;
    } else if (this.items.length === 0) {
      // moved by HT / ESC $ only
    }
  }

  private metrics(wide: boolean): CellMetrics {
    const cached = wide ? this.wideCell : this.cell;
    if (cached && cached.ver === this.styleVersion) return cached;
    const m = this.modes();
    const font = this.fonts[m.font] ?? this.fonts[0];
    let w: number, h: number, spacing: number, sx = m.scaleX, sy = m.scaleY, name: string, underline = m.underline;
    if (wide) {
      w = font.kanjiWidth + m.kanjiLeftSpacing;
      h = font.kanjiHeight;
      spacing = m.kanjiRightSpacing;
      name = 'Kanji';
      if (m.kanjiDoubleWidth) sx = Math.max(sx, 2);
      if (m.kanjiDoubleHeight) sy = Math.max(sy, 2);
      underline = Math.max(underline, m.kanjiUnderline);
    } else {
      w = font.width;
      h = font.height;
      spacing = m.rightSpacing;
      name = font.name;
    }
    const style: TextStyle = {
      fontName: name,
      bold: m.bold,
      doubleStrike: m.doubleStrike,
      italic: m.italic,
      underline,
      reverse: m.reverse,
      rotate90: m.rotate90,
      scaleX: sx,
      scaleY: sy,
      charSpacing: spacing * sx,
    };
    const c: CellMetrics = { ver: this.styleVersion, wide, width: (w + spacing) * sx, height: h * sy, style };
    if (wide) this.wideCell = c;
    else this.cell = c;
    return c;
  }

  /** Width in dots of one character cell in the current style (for ESC D). */
  cellWidth(): number {
    return this.metrics(false).width;
  }

  /**
   * Add `count` characters already decoded to `text` (one cell each, `wide` for Kanji cells),
   * wrapping to a new line when the print area is full.
   */
  addChars(chars: string[], raw: string[], bytes: number[], wide: boolean): void {
    let i = 0;
    const n = chars.length;
    while (i < n) {
      this.beginLineIfEmpty();
      const cell = this.metrics(wide);
      let fit = Math.floor((this.lineWidth - this.x) / cell.width);
      if (fit <= 0) {
        if (this.x > 0) {
          this.printLine(this.modes().lineSpacing);
          continue;
        }
        fit = 1; // a single cell wider than the area: print it anyway (clipped)
      }
      const take = Math.min(fit, n - i);
      let run = this.lastRun;
      if (!run || run.ver !== cell.ver || run.style !== cell.style || run.x + run.width !== this.x || this.items[this.items.length - 1] !== run) {
        run = { kind: 'text', text: '', raw: '', bytes: 0, x: this.x, width: 0, height: cell.height, style: cell.style, ver: cell.ver };
        this.items.push(run);
        this.lastRun = run;
      }
      let text = '', rawHex = '', nb = 0;
      for (let k = i; k < i + take; k++) {
        text += chars[k];
        rawHex += raw[k];
        nb += bytes[k];
      }
      run.text += text;
      run.raw += rawHex;
      run.bytes += nb;
      run.width += take * cell.width;
      this.x += take * cell.width;
      i += take;
    }
  }

  /**
   * A combining mark (Thai vowel or tone mark, Hebrew point, ...): printed in the cell of the
   * character before it, taking no width of its own; one with no character before it on the
   * line gets a cell of its own, as a printer has nothing to stack it on.
   */
  addMark(ch: string, raw: string, bytes: number): void {
    const run = this.lastRun;
    if (run && this.items[this.items.length - 1] === run && run.x + run.width === this.x && run.text.length > 0) {
      run.text += ch;
      run.raw += raw;
      run.bytes += bytes;
      return;
    }
    this.addChars([ch], [raw], [bytes], false);
  }

  /** Fast path for single-byte text: one cell per character of `text`, two hex digits each in `hex`. */
  addString(text: string, hex: string): void {
    const end = text.length;
    let i = 0;
    while (i < end) {
      this.beginLineIfEmpty();
      const cell = this.metrics(false);
      let fit = Math.floor((this.lineWidth - this.x) / cell.width);
      if (fit <= 0) {
        if (this.x > 0) {
          this.printLine(this.modes().lineSpacing);
          continue;
        }
        fit = 1;
      }
      const take = Math.min(fit, end - i);
      let run = this.lastRun;
      if (!run || run.ver !== cell.ver || run.style !== cell.style || run.x + run.width !== this.x || this.items[this.items.length - 1] !== run) {
        run = { kind: 'text', text: '', raw: '', bytes: 0, x: this.x, width: 0, height: cell.height, style: cell.style, ver: cell.ver };
        this.items.push(run);
        this.lastRun = run;
      }
      if (i === 0 && take === end) {
        run.text += text;
        run.raw += hex;
      } else {
        run.text += text.substring(i, i + take);
        run.raw += hex.substring(2 * i, 2 * (i + take));
      }
      run.bytes += take;
      run.width += take * cell.width;
      this.x += take * cell.width;
      i += take;
    }
  }

  /** An in-line image (ESC * column image, user-defined character) at the current x. */
  addInlineImage(bitmap: Bitmap, src: Source, mergeable: boolean): void {
    this.beginLineIfEmpty();
    if (this.x > 0 && this.x + bitmap.width > this.lineWidth) {
      this.printLine(this.modes().lineSpacing);
      this.beginLineIfEmpty();
    }
    const w = Math.min(bitmap.width, Math.max(1, this.lineWidth - this.x));
    this.items.push({ kind: 'image', bitmap, x: this.x, width: w, height: bitmap.height, src, mergeable });
    this.lastRun = null;
    this.x += bitmap.width;
  }

  /** HT: move to the next tab stop, if any. */
  tab(): void {
    this.beginLineIfEmpty();
    const stops = this.modes().tabStops;
    for (const s of stops) {
      if (s > this.x) {
        if (s >= this.lineWidth) {
          this.printLine(this.modes().lineSpacing);
          return;
        }
        this.x = s;
        return;
      }
    }
  }

  /** ESC $: absolute position from the start of the print area. */
  setX(x: number): boolean {
    this.beginLineIfEmpty();
    if (x < 0 || x >= this.lineWidth) return false;
    this.x = x;
    return true;
  }

  /** ESC \: relative position. */
  moveX(dx: number): boolean {
    return this.setX(this.x + dx);
  }

  get currentX(): number {
    return this.x;
  }

  /** Discard the line buffer (ESC @, CAN). */
  clearLine(): number {
    const n = this.items.reduce((s, it) => s + (it.kind === 'text' ? it.text.length : 1), 0);
    this.items = [];
    this.x = 0;
    this.lastRun = null;
    return n;
  }

  /**
   * Print the line buffer and feed max(feed, line height) dots (the line height only
   * when the buffer holds something).
   */
  printLine(feed: number): void {
    const items = this.items;
    let lineHeight = 0;
    for (const it of items) if (it.height > lineHeight) lineHeight = it.height;
    if (this.pageMode) {
      if (items.length > 0) this.placeOnPage(items, lineHeight);
      this.pageBaseline = (this.pageBaseline ?? this.metrics(false).height) + feed;
      this.resetLine();
      return;
    }
    if (items.length > 0) {
      let contentWidth = 0;
      for (const it of items) if (it.x + it.width > contentWidth) contentWidth = it.x + it.width;
      let offset = 0;
      if (this.lineJustify === 'center') offset = Math.max(0, Math.floor((this.lineWidth - contentWidth) / 2));
      else if (this.lineJustify === 'right') offset = Math.max(0, this.lineWidth - contentWidth);
      const top = this.doc.y;
      for (const it of items) {
        let x = this.lineLeft + offset + it.x;
        if (this.lineUpsideDown) x = this.lineLeft + this.lineWidth - (offset + it.x) - it.width;
        const y = top + lineHeight - it.height;
        this.emit(it, x, y, this.lineUpsideDown ? '180' : null);
      }
    }
    this.doc.feed(Math.max(feed, lineHeight));
    this.resetLine();
  }

  private resetLine(): void {
    this.items = [];
    this.x = 0;
    this.lastRun = null;
  }

  private emit(it: LineItem, x: number, y: number, rotation: Rotation | null, page = false): void {
    if (it.kind === 'image') {
      let bmp = it.bitmap;
      if (rotation === '180') bmp = bmp.rotate(180);
      else if (rotation === '90') bmp = bmp.rotate(90);
      else if (rotation === '270') bmp = bmp.rotate(270);
      this.doc.image(bmp, x, y, it.src, { mergeable: it.mergeable && rotation === null && !page });
      return;
    }
    const s = it.style;
    const swap = rotation === '90' || rotation === '270';
    const el: TextElement = {
      type: 'text',
      text: it.text,
      x,
      y,
      width: swap ? it.height : it.width,
      height: swap ? it.width : it.height,
      fontName: s.fontName,
      charSpacing: s.charSpacing,
      isBold: s.bold,
      isUnderline: s.underline > 0,
      isReverse: s.reverse,
      charScaleX: s.scaleX,
      charScaleY: s.scaleY,
      rotation: rotation ?? (s.rotate90 ? '90' : 'none'),
      commandRaw: it.raw,
      commandDescription: ['Text', it.text],
      lengthInBytes: it.bytes,
    };
    if (rotation === '180' && !page) el.isUpsideDown = true;
    if (s.doubleStrike) el.isDoubleStrike = true;
    if (s.italic) el.isItalic = true;
    if (s.underline > 0) el.underlineThickness = s.underline;
    // Without the optional keys, the keys are TEXT_KEYS (canvas/element-kinds.ts).
    this.doc.draw(el, el.isUpsideDown || el.isDoubleStrike || el.isItalic || el.underlineThickness ? OTHER : USUAL_TEXT);
  }

  /**
   * A block image (GS v 0, graphics, barcodes, 2D codes, NV images): printed on its own
   * after the pending line, placed by the justification, feeding its height.
   */
  placeBlock(bitmap: Bitmap, src: Source, extraX = 0): { x: number; y: number } {
    if (this.items.length > 0) this.printLine(0);
    const m = this.modes();
    const { left, width } = this.area();
    let offset = extraX;
    if (m.justify === 'center') offset = Math.max(0, Math.floor((width - bitmap.width) / 2));
    else if (m.justify === 'right') offset = Math.max(0, width - bitmap.width);
    if (this.pageMode) {
      const base = this.pageBaseline ?? bitmap.height;
      const item: LineImage = { kind: 'image', bitmap, x: offset, width: bitmap.width, height: bitmap.height, src, mergeable: false };
      const py = Math.max(0, base - bitmap.height);
      this.pageItems.push({ item, x: this.x + offset, y: py });
      this.pageBaseline = base;
      return { x: this.x + offset, y: py };
    }
    const x = left + offset, y = this.doc.y;
    this.doc.image(bitmap, x, y, src);
    this.doc.feed(bitmap.height);
    this.resetLine();
    return { x, y };
  }

  /** Text drawn beside a block (barcode HRI), centred on [x, x+width). Returns its height. */
  blockText(text: string, x: number, width: number, y: number, fontIndex: number, src: Source): number {
    const font = this.fonts[fontIndex] ?? this.fonts[0];
    const w = text.length * font.width;
    const el: TextElement = {
      type: 'text',
      text,
      x: x + Math.floor((width - w) / 2),
      y,
      width: w,
      height: font.height,
      fontName: font.name,
      charSpacing: 0,
      isBold: false,
      isUnderline: false,
      isReverse: false,
      charScaleX: 1,
      charScaleY: 1,
      rotation: 'none',
      commandRaw: src.commandRaw,
      commandDescription: src.commandDescription,
      lengthInBytes: src.lengthInBytes,
    };
    if (this.pageMode) return font.height; // HRI in page mode is not drawn separately
    this.doc.draw(el, USUAL_TEXT);
    return font.height;
  }

  // ---- page mode -------------------------------------------------------------------

  enterPageMode(): void {
    if (this.items.length > 0) this.printLine(this.modes().lineSpacing);
    this.pageMode = true;
    this.pageItems = [];
    this.pageBaseline = null;
    this.pageDirection = 0;
    this.pageArea = { x: 0, y: 0, w: this.paperWidth, h: 0, explicit: false };
  }

  /** ESC S: back to standard mode, page data discarded. */
  leavePageMode(): number {
    const n = this.pageItems.length;
    this.pageItems = [];
    this.resetLine();
    this.pageMode = false;
    return n;
  }

  setPageArea(x: number, y: number, w: number, h: number): void {
    const fit = Math.max(1, Math.min(w, this.paperWidth - Math.min(x, this.paperWidth - 1)));
    if (w > fit) this.doc.error(`The page-mode print area of ${w} dots from x ${x} is wider than the ${this.paperWidth}-dot paper; it was narrowed to ${fit} dots`);
    this.pageArea = { x, y, w: fit, h: Math.max(1, h), explicit: true };
    this.pageBaseline = null;
    this.x = 0;
  }

  setPageDirection(d: number): void {
    this.pageDirection = d & 3;
    this.pageBaseline = null;
    this.x = 0;
  }

  /** GS $: absolute vertical position (baseline) in the page area. */
  setPageY(y: number): void {
    this.pageBaseline = y;
  }

  movePageY(dy: number): void {
    this.pageBaseline = Math.max(0, (this.pageBaseline ?? 0) + dy);
  }

  private placeOnPage(items: LineItem[], lineHeight: number): void {
    if (items.length === 0) return;
    const base = this.pageBaseline ?? lineHeight;
    this.pageBaseline = base;
    let contentWidth = 0;
    for (const it of items) if (it.x + it.width > contentWidth) contentWidth = it.x + it.width;
    let offset = 0;
    if (this.lineJustify === 'center') offset = Math.max(0, Math.floor((this.lineWidth - contentWidth) / 2));
    else if (this.lineJustify === 'right') offset = Math.max(0, this.lineWidth - contentWidth);
    for (const it of items) this.pageItems.push({ item: it, x: offset + it.x, y: base - it.height });
  }

  /** CAN: delete page data. */
  cancelPage(): void {
    this.pageItems = [];
    this.resetLine();
  }

  /** FF / ESC FF: print the page at the current paper position. */
  printPage(): void {
    if (this.items.length > 0) {
      let lh = 0;
      for (const it of this.items) lh = Math.max(lh, it.height);
      this.placeOnPage(this.items, lh);
      this.resetLine();
    }
    const a = this.pageArea;
    const dir = this.pageDirection;
    const W = a.w;
    let extent = 0;
    for (const p of this.pageItems) extent = Math.max(extent, p.y + p.item.height);
    const H = a.explicit ? a.h : extent;
    const top = this.doc.y;
    let bottom = 0;
    for (const p of this.pageItems) {
      const it = p.item;
      let x: number, y: number, rot: Rotation | null = null;
      switch (dir) {
        case 1:
          x = a.x + p.y; y = a.y + H - p.x - it.width; rot = '270';
          break;
        case 2:
          x = a.x + W - p.x - it.width; y = a.y + H - p.y - it.height; rot = '180';
          break;
        case 3:
          x = a.x + W - p.y - it.height; y = a.y + p.x; rot = '90';
          break;
        default:
          x = a.x + p.x; y = a.y + p.y;
      }
      const h = dir === 1 || dir === 3 ? it.width : it.height;
      bottom = Math.max(bottom, y + h);
      this.emit(it, x, top + y, rot, true);
    }
    this.doc.feed(Math.max(a.explicit ? a.y + a.h : 0, bottom));
  }
}
