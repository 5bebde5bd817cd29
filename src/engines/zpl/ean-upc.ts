/**
 * How a Zebra prints EAN and UPC symbols: the guard bars reach 5 modules below the data bars,
 * and the interpretation line is split into digit groups between the guards, with the first
 * digit (EAN-13, UPC-A, UPC-E) left of the symbol and the last (UPC-A, UPC-E) right of it.
 */
import { Bitmap } from '../raster/bitmap.ts';

interface Layout {
  modules: number;
  /** Module ranges [from, to) whose bars are guards (drawn longer). */
  guards: Array<[number, number]>;
  /** Digit groups: digit index range and the module range they are centred in (negative / past the end: outside). */
  groups: Array<{ digits: [number, number]; modules: [number, number] }>;
}

const LAYOUTS: Record<string, Layout> = {
  ean13: {
    modules: 95,
    guards: [[0, 3], [45, 50], [92, 95]],
    groups: [{ digits: [0, 1], modules: [-12, -5] }, { digits: [1, 7], modules: [3, 45] }, { digits: [7, 13], modules: [50, 92] }],
  },
  upca: {
    modules: 95,
    guards: [[0, 10], [45, 50], [85, 95]],
    groups: [{ digits: [0, 1], modules: [-12, -5] }, { digits: [1, 6], modules: [10, 45] }, { digits: [6, 11], modules: [50, 85] }, { digits: [11, 12], modules: [100, 107] }],
  },
  ean8: {
    modules: 67,
    guards: [[0, 3], [31, 36], [64, 67]],
    groups: [{ digits: [0, 4], modules: [3, 31] }, { digits: [4, 8], modules: [36, 64] }],
  },
  upce: {
    modules: 51,
    guards: [[0, 3], [45, 51]],
    groups: [{ digits: [0, 1], modules: [-12, -5] }, { digits: [1, 7], modules: [3, 45] }, { digits: [7, 8], modules: [56, 63] }],
  },
};

/** Extra height of the guard bars, in modules. */
export const GUARD_EXTENSION = 5;

export function isEanUpc(bcid: string): boolean {
  return bcid in LAYOUTS;
}

/**
 * The bars with data bars cut to `height` and guards left `GUARD_EXTENSION` modules longer
 * (the bitmap must be `height + GUARD_EXTENSION * moduleWidth` high), or null when the symbol
 * is not the expected width (an add-on, say): then it prints as drawn.
 */
export function extendGuards(bcid: string, bars: Bitmap, moduleWidth: number, height: number): Bitmap | null {
  const layout = LAYOUTS[bcid];
  if (!layout || bars.width !== layout.modules * moduleWidth) return null;
  const out = new Bitmap(bars.width, bars.height, bars.pixels.slice());
  for (let x = 0; x < out.width; x++) {
    const module = Math.floor(x / moduleWidth);
    if (layout.guards.some(([a, b]) => module >= a && module < b)) continue;
    for (let y = height; y < out.height; y++) out.pixels[y * out.width + x] = 0;
  }
  return out;
}

/** The interpretation line's digit groups: text and the centre of its place, in dots from the bars' left edge. */
export function digitGroups(bcid: string, digits: string, moduleWidth: number): Array<{ text: string; centre: number }> | null {
  const layout = LAYOUTS[bcid];
  const d = digits.replace(/\D/g, '');
  const total = layout?.groups[layout.groups.length - 1].digits[1];
  if (!layout || d.length !== total) return null;
  return layout.groups.map((g) => ({ text: d.slice(g.digits[0], g.digits[1]), centre: ((g.modules[0] + g.modules[1]) / 2) * moduleWidth }));
}
