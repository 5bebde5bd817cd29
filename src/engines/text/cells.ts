/**
 * Character cells: how many columns of the line a decoded text takes. Combining marks (Thai
 * above/below vowels and tone marks, Hebrew points, Arabic harakat, Latin combining accents)
 * print in the cell of the character before them, as a Thai-model receipt printer prints
 * them, so they take no cell of their own.
 */

const COMBINING = /\p{Mn}|\p{Me}/u;

/** True for a code point printed in the cell of the character before it. */
export function isCombiningMark(codePoint: number): boolean {
  // Fast path: nothing below U+0300 combines.
  return codePoint >= 0x300 && COMBINING.test(String.fromCodePoint(codePoint));
}

/** The number of character cells `text` occupies (each base character one cell). */
export function cellCount(text: string): number {
  let cells = 0;
  for (const ch of text) if (!isCombiningMark(ch.codePointAt(0)!)) cells++;
  return cells;
}

/**
 * `text` split into what each cell prints: a base character followed by its combining marks.
 * A mark with no base before it (a line starting with a tone mark) gets a cell of its own,
 * as a printer has nothing to stack it on.
 */
export function splitCells(text: string): string[] {
  const cells: string[] = [];
  for (const ch of text) {
    if (cells.length > 0 && isCombiningMark(ch.codePointAt(0)!)) cells[cells.length - 1] += ch;
    else cells.push(ch);
  }
  return cells;
}
