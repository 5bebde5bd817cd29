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

function lineText(row: RenderTextElement[]): string {
  row.sort((a, b) => a.x - b.x);
  let line = '';
  let end: number | null = null;
  for (const el of row) {
    const n = Array.from(el.text).length;
    if (end !== null && n > 0) {
      const advance = el.width / n;
      const gap = el.x - end;
      if (advance > 0 && gap >= advance / 2) line += ' '.repeat(Math.min(1000, Math.round(gap / advance)));
    }
    line += el.text;
    end = el.x + el.width;
  }
  return line.replace(/\s+$/u, '');
}

export function canvasText(canvas: RenderCanvas): string[] {
  const rows = new Map<number, RenderTextElement[]>();
  for (const el of canvas.items) {
    if (el.type !== 'text' || !el.text) continue;
    const key = baseline(el);
    const row = rows.get(key);
    if (row) row.push(el); else rows.set(key, [el]);
  }
  return [...rows.keys()].sort((a, b) => a - b).map((k) => lineText(rows.get(k)!));
}

export function documentText(canvases: readonly RenderCanvas[]): string {
  return canvases.map((c) => canvasText(c).join('\n')).join(`\n${CANVAS_SEPARATOR}\n`);
}
