/**
 * The printed text of canvases: one line per printed line, canvases separated by a form feed
 * line. Text elements whose baselines (bottom edges) coincide form a line, ordered left to
 * right; a gap between two elements becomes as many spaces as characters would fit in it, so
 * columns printed as separate runs stay apart. Lines have no leading indentation from their
 * x position (centring, margins) and no trailing spaces.
 */
import type { RenderCanvas, RenderTextElement } from './types.ts';

export const CANVAS_SEPARATOR = '\f';

function baseline(el: RenderTextElement): number {
  return Math.round(el.y + el.height);
}

/** Characters (code points) of `s`: its length unless it holds surrogate pairs. */
function codePoints(s: string): number {
  return SURROGATE.test(s) ? Array.from(s).length : s.length;
}
const SURROGATE = /[\ud800-\udfff]/;

/** What a line's text needs of one of its elements. */
type Run = Pick<RenderTextElement, 'text' | 'x' | 'width'>;

function lineText(row: Run[]): string {
  if (row.length === 1) return row[0].text.trimEnd();
  if (!isByX(row)) row.sort((a, b) => a.x - b.x);
  let line = row[0].text;
  let end = row[0].x + row[0].width;
  for (let i = 1; i < row.length; i++) {
    const el = row[i];
    const n = codePoints(el.text);
    if (n > 0) {
      const advance = el.width / n;
      const gap = el.x - end;
      if (advance > 0 && gap >= advance / 2) line += ' '.repeat(Math.min(1000, Math.round(gap / advance)));
    }
    line += el.text;
    end = el.x + el.width;
  }
  // trimEnd's white space is the regular expressions' \s.
  return line.trimEnd();
}

/** Whether the row is already left to right (as a line is printed). */
function isByX(row: Run[]): boolean {
  for (let i = 1; i < row.length; i++) if (row[i].x < row[i - 1].x) return false;
  return true;
}

/**
 * The lines of one canvas, gathered element by element (a document builder adds text elements
 * as it serialises them, so the printed text needs no second walk over the canvas). Only each
 * element's text and place are kept, not the element: a long job's elements (and the raw hex
 * they hold) are garbage once written (services/document-stream.ts).
 */
export class CanvasTextLines {
  /** The rows by first appearance, and each one's baseline. */
  private readonly rows: Run[][] = [];
  private readonly keys: number[] = [];
  /** The row of each baseline, made once a row comes above the bottom-most one (until then, rows come top to bottom and each baseline is new). */
  private index: Map<number, Run[]> | null = null;
  /** The row added to last (a line's runs come one after another). */
  private lastKey = NaN;
  private lastRow: Run[] = [];
  /** The bottom-most baseline yet. */
  private bottom = -Infinity;

  add(el: RenderTextElement): void {
    if (!el.text) return;
    const key = baseline(el);
    const run: Run = { text: el.text, x: el.x, width: el.width };
    if (key === this.lastKey) {
      this.lastRow.push(run);
      return;
    }
    let row: Run[] | undefined;
    if (key > this.bottom && this.index === null) this.bottom = key;
    else {
      this.index ??= new Map(this.keys.map((k, i) => [k, this.rows[i]]));
      row = this.index.get(key);
    }
    if (row) row.push(run);
    else {
      row = [run];
      this.rows.push(row);
      this.keys.push(key);
      this.index?.set(key, row);
    }
    this.lastKey = key;
    this.lastRow = row;
  }

  lines(): string[] {
    if (this.index === null) return this.rows.map(lineText);
    const order = this.keys.map((_, i) => i).sort((a, b) => this.keys[a] - this.keys[b]);
    return order.map((i) => lineText(this.rows[i]));
  }
}

export function canvasText(canvas: RenderCanvas): string[] {
  const lines = new CanvasTextLines();
  for (const el of canvas.items) if (el.type === 'text') lines.add(el);
  return lines.lines();
}

/** The document's text from each canvas's lines. */
export function joinCanvasTexts(canvases: readonly string[][]): string {
  return canvases.map((lines) => lines.join('\n')).join(`\n${CANVAS_SEPARATOR}\n`);
}

export function documentText(canvases: readonly RenderCanvas[]): string {
  return joinCanvasTexts(canvases.map(canvasText));
}
