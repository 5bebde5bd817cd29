import { Bitmap } from '../raster/bitmap.ts';
import type { JobDocument, Source } from './document.ts';

/**
 * Vertical ruled lines of a receipt in standard mode (ePOS-Print `vline-begin` / `vline-end`):
 * a line starts at a dot column where the paper is when it begins and runs down the receipt as
 * lines feed, until it ends. It is drawn as an image on the document when it ends, at a cut
 * (the part on the receipt being cut off; the line goes on at the top of the next one) or at
 * the end of the job.
 */

/** How a ruled line is drawn: its thickness in dots, one line or two with a gap of that size. */
export interface RuleStyle {
  thickness: number;
  double: boolean;
}

interface OpenRule {
  /** Dots from the paper's left edge. */
  x: number;
  style: RuleStyle;
  /** Paper position (document y) where the visible part starts; null: at the top of the receipt after a cut, once there is one. */
  top: number | null;
  src: Source;
}

export class VerticalRules {
  /** Open lines by their column: `vline-end x` ends the line `vline-begin x` started. */
  private readonly open = new Map<number, OpenRule>();

  constructor(private readonly doc: JobDocument) {}

  get isDrawing(): boolean {
    return this.open.size > 0;
  }

  /** Starts a line at column `x` from the current paper position; a second begin at the same column restarts it. */
  begin(x: number, style: RuleStyle, src: Source): void {
    this.draw(x);
    this.doc.feed(0); // opens the canvas, so the line starts on the receipt being printed
    this.open.set(x, { x, style, top: this.doc.y, src });
  }

  /** Ends the line at column `x`; false when none was started there. */
  end(x: number): boolean {
    if (!this.open.has(x)) return false;
    this.draw(x);
    return true;
  }

  /** The paper is about to be cut: draw what each open line covers on this receipt; they go on below the cut. */
  beforeCut(): void {
    for (const x of [...this.open.keys()]) {
      const rule = this.open.get(x)!;
      this.draw(x);
      this.open.set(x, { ...rule, top: null });
    }
  }

  /** The job ended: every open line ends where the paper is. */
  endAll(): void {
    for (const x of [...this.open.keys()]) this.draw(x);
  }

  private draw(x: number): void {
    const rule = this.open.get(x);
    if (!rule) return;
    this.open.delete(x);
    if (rule.top === null && !this.doc.hasOpenCanvas) return; // nothing printed after the cut
    const top = rule.top ?? 0;
    const height = this.doc.y - top;
    const { thickness, double } = rule.style;
    const width = double ? thickness * 3 : thickness;
    const visible = Math.min(width, this.doc.widthInDots - rule.x);
    if (height <= 0 || visible <= 0) return;
    const bmp = new Bitmap(visible, height);
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < visible; col++) {
        if (!double || col < thickness || col >= 2 * thickness) bmp.pixels[row * visible + col] = 1;
      }
    }
    this.doc.image(bmp, rule.x, top, rule.src);
  }
}
