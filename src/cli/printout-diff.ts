/**
 * Compares a printout with a golden picture the way a person holds two labels against each
 * other: first lined up (the printout may sit a few dots off as a whole: the best offset within
 * ±ALIGNMENT_SEARCH_DOTS in each direction is taken), then dot by dot (pixelmatch, which also
 * forgives anti-aliased edges of a golden drawn by another renderer).
 *
 * The difference is the share of inked dots that differ: dots inked in either picture are the
 * base, so a small label on a large white page weighs as much as a full one. The diff picture
 * shows the golden faintly, dots missing from the printout in red and extra dots in blue.
 */
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export const ALIGNMENT_SEARCH_DOTS = 4;

export interface PrintoutDiff {
  /** Percent of the inked dots (golden ∪ printout, lined up) that differ. */
  percent: number;
  differingDots: number;
  inkedDots: number;
  /** Inked in the golden, blank in the printout (red in the picture). */
  missingDots: number;
  /** Inked in the printout, blank in the golden (blue). */
  extraDots: number;
  /** Where the printout was moved to line up with the golden, in dots. */
  offset: { dx: number; dy: number };
  width: number;
  height: number;
  /** The difference picture (PNG). */
  diffPng: Buffer;
}

const RED = [255, 0, 0] as const;
const BLUE = [0, 0, 255] as const;

export class PictureError extends Error {}

export function decodePicture(bytes: Uint8Array, what: string): PNG {
  try {
    return PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    throw new PictureError(`${what} is not a PNG picture (${(e as Error).message})`);
  }
}

/** The picture on a white width × height page, moved by dx, dy (cut at the edges). */
function onPage(img: PNG, width: number, height: number, dx: number, dy: number): Buffer {
  const out = Buffer.alloc(width * height * 4, 255);
  for (let y = 0; y < img.height; y++) {
    const ty = y + dy;
    if (ty < 0 || ty >= height) continue;
    for (let x = 0; x < img.width; x++) {
      const tx = x + dx;
      if (tx < 0 || tx >= width) continue;
      const s = (y * img.width + x) * 4;
      const t = (ty * width + tx) * 4;
      // Composited over white: a transparent golden is paper, not black.
      const a = img.data[s + 3] / 255;
      for (let c = 0; c < 3; c++) out[t + c] = Math.round(img.data[s + c] * a + 255 * (1 - a));
    }
  }
  return out;
}

/** One byte per dot: 1 where the (white-backed RGBA) page is dark. */
function inkOf(page: Buffer): Uint8Array {
  const ink = new Uint8Array(page.length / 4);
  for (let i = 0; i < ink.length; i++) {
    const p = i * 4;
    ink[i] = 0.299 * page[p] + 0.587 * page[p + 1] + 0.114 * page[p + 2] < 128 ? 1 : 0;
  }
  return ink;
}

/** The golden's ink against the printout's ink moved by dx, dy: dots that differ. */
function mismatches(golden: Uint8Array, printout: Uint8Array, width: number, height: number, dx: number, dy: number): number {
  let n = 0;
  // Columns where the moved printout has a dot; outside them only the golden's ink counts.
  const x0 = Math.max(0, dx);
  const x1 = Math.min(width, width + dx);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const sy = y - dy;
    if (sy < 0 || sy >= height) {
      for (let x = 0; x < width; x++) n += golden[row + x];
      continue;
    }
    const from = sy * width - dx;
    for (let x = 0; x < x0; x++) n += golden[row + x];
    for (let x = x0; x < x1; x++) n += golden[row + x] ^ printout[from + x];
    for (let x = x1; x < width; x++) n += golden[row + x];
  }
  return n;
}

export function comparePrintout(goldenPng: PNG, printoutPng: PNG): PrintoutDiff {
  const width = Math.max(goldenPng.width, printoutPng.width);
  const height = Math.max(goldenPng.height, printoutPng.height);
  const golden = onPage(goldenPng, width, height, 0, 0);
  const goldenInk = inkOf(golden);
  const printoutInk = inkOf(onPage(printoutPng, width, height, 0, 0));

  // The offset with the fewest differing dots; ties go to the smallest move.
  let best = { dx: 0, dy: 0, n: Infinity };
  for (let dy = -ALIGNMENT_SEARCH_DOTS; dy <= ALIGNMENT_SEARCH_DOTS; dy++) {
    for (let dx = -ALIGNMENT_SEARCH_DOTS; dx <= ALIGNMENT_SEARCH_DOTS; dx++) {
      const n = mismatches(goldenInk, printoutInk, width, height, dx, dy);
      if (n < best.n || (n === best.n && Math.abs(dx) + Math.abs(dy) < Math.abs(best.dx) + Math.abs(best.dy))) best = { dx, dy, n };
    }
  }

  const printout = onPage(printoutPng, width, height, best.dx, best.dy);
  const diff = new PNG({ width, height });
  const differingDots = pixelmatch(golden, printout, diff.data, width, height, {
    threshold: 0.3, alpha: 0.25, diffColor: [...RED], diffColorAlt: [...BLUE], aaColor: [255, 255, 255],
  });
  let missingDots = 0;
  let extraDots = 0;
  for (let p = 0; p < diff.data.length; p += 4) {
    const [r, g, b] = [diff.data[p], diff.data[p + 1], diff.data[p + 2]];
    if (r === RED[0] && g === RED[1] && b === RED[2]) missingDots++;
    else if (r === BLUE[0] && g === BLUE[1] && b === BLUE[2]) extraDots++;
  }
  const lined = inkOf(printout);
  let inkedDots = 0;
  for (let i = 0; i < lined.length; i++) if (lined[i] || goldenInk[i]) inkedDots++;
  return {
    percent: inkedDots === 0 ? 0 : (100 * differingDots) / inkedDots,
    differingDots, inkedDots, missingDots, extraDots,
    offset: { dx: best.dx, dy: best.dy }, width, height,
    diffPng: PNG.sync.write(diff),
  };
}
