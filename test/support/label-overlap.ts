/**
 * Picture comparison for labels: how much of two 1-bit pictures' ink coincides, after each is
 * grown by a few dots (print and rendering differ by a dot or two at every edge). The overlap
 * is |A ∩ dilate(B)| + |B ∩ dilate(A)| over |A| + |B|: 1 when every black dot of each lies
 * within the slack of the other's, lower for missing, extra or misplaced ink.
 */
import { decodePngToBitmap } from '../../src/engines/raster/png.ts';

export interface Ink {
  width: number;
  height: number;
  /** 1 = black, row-major. */
  black: Uint8Array;
}

/** The black pixels (dark and opaque) of a PNG. */
export function inkOfPng(png: Uint8Array): Ink {
  const bmp = decodePngToBitmap(png);
  return { width: bmp.width, height: bmp.height, black: bmp.pixels };
}

function dilate(a: Ink, r: number): Uint8Array {
  const { width: w, height: h } = a;
  const horiz = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) if (a.black[row + x]) for (let d = Math.max(0, x - r); d <= Math.min(w - 1, x + r); d++) horiz[row + d] = 1;
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (horiz[y * w + x]) for (let d = Math.max(0, y - r); d <= Math.min(h - 1, y + r); d++) out[d * w + x] = 1;
  return out;
}

/** The symmetric overlap of `a` and `b` (compared over the smaller common area) after an `r`-dot dilation. */
export function overlap(a: Ink, b: Ink, r = 2): number {
  const w = Math.min(a.width, b.width), h = Math.min(a.height, b.height);
  const crop = (i: Ink): Ink => {
    const black = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) black.set(i.black.subarray(y * i.width, y * i.width + w), y * w);
    return { width: w, height: h, black };
  };
  const A = crop(a), B = crop(b);
  const dA = dilate(A, r), dB = dilate(B, r);
  let hit = 0, total = 0;
  for (let i = 0; i < w * h; i++) {
    if (A.black[i]) { total++; if (dB[i]) hit++; }
    if (B.black[i]) { total++; if (dA[i]) hit++; }
  }
  return total === 0 ? 1 : hit / total;
}
