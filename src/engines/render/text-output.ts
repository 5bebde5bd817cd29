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

function lineText(row: RenderTextElement[]): string {
  if (row.length > 1) row.sort((a, b) => a.x - b.x);
  let line = '';
  let end: number | null = null;
  for (const el of row) {
    const n = codePoints(el.text);
    if (end !== null && n > 0) {
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

/**
 * The lines of one canvas, gathered element by element (a document builder adds text elements
 * as it serialises them, so the printed text needs no second walk over the canvas).
 */
export class CanvasTextLines {
  private readonly rows = new Map<number, RenderTextElement[]>();

  add(el: RenderTextElement): void {
    if (!el.text) return;
    const key = baseline(el);
    const row = this.rows.get(key);
    if (row) row.push(el); else this.rows.set(key, [el]);
  }

  lines(): string[] {
    return [...this.rows.keys()].sort((a, b) => a - b).map((k) => lineText(this.rows.get(k)!));
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
