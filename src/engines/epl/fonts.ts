/**
 * EPL2 resident fonts at 203 dpi (Zebra EPL2 Programming Guide, "Text (Fonts)"): glyph cell
 * and character pitch. The pitch includes the inter-character gap (white dots): font 1 is an
 * 8x12 cell printed at 20.3 cpi, i.e. 10 dots per character.
 */
export interface EplFont {
  id: number;
  name: string;
  /** Glyph cell in dots. */
  cellWidth: number;
  cellHeight: number;
  /** Advance per character in dots (cell + gap). */
  pitch: number;
}

export const EPL_FONTS: Record<number, EplFont> = {
  1: { id: 1, name: 'EplFont1', cellWidth: 8, cellHeight: 12, pitch: 10 },
  2: { id: 2, name: 'EplFont2', cellWidth: 10, cellHeight: 16, pitch: 12 },
  3: { id: 3, name: 'EplFont3', cellWidth: 12, cellHeight: 20, pitch: 14 },
  4: { id: 4, name: 'EplFont4', cellWidth: 14, cellHeight: 24, pitch: 16 },
  5: { id: 5, name: 'EplFont5', cellWidth: 32, cellHeight: 48, pitch: 36 },
};

/** Valid horizontal multipliers (1-6, 8) and vertical multipliers (1-9). */
export function validHorizontalMultiplier(n: number): boolean {
  return (n >= 1 && n <= 6) || n === 8;
}
export function validVerticalMultiplier(n: number): boolean {
  return n >= 1 && n <= 9;
}

/** Width and height in dots of `length` characters, before rotation. */
export function textExtent(font: EplFont, length: number, hMult: number, vMult: number): { width: number; height: number } {
  return { width: length * font.pitch * hMult, height: font.cellHeight * vMult };
}
