/**
 * GNU Unifont glyphs (8x16 halfwidth, 16x16 fullwidth) for the scripts printers print, decoded
 * once on first use from the generated table (scripts/build-glyphs.ts describes its layout).
 */
import { UNIFONT_TABLE_BASE64 } from './unifont-data.ts';

/** One source glyph: `width` 8 or 16 dots, 16 rows of width/8 bytes each, MSB = leftmost dot. */
export interface SourceGlyph {
  width: 8 | 16;
  rows: Uint8Array;
}

export const SOURCE_GLYPH_HEIGHT = 16;

interface GlyphTable {
  /** Runs of consecutive code points: first code point, and index of its glyph. */
  runFirst: Uint32Array;
  runLength: Uint32Array;
  runStart: Uint32Array;
  /** Offset in `blob` of each glyph's width byte, by glyph index. */
  offsets: Uint32Array;
  blob: Uint8Array;
}

let table: GlyphTable | null = null;

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function load(): GlyphTable {
  const blob = decodeBase64(UNIFONT_TABLE_BASE64);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const runCount = view.getUint32(0, true);
  const runFirst = new Uint32Array(runCount), runLength = new Uint32Array(runCount), runStart = new Uint32Array(runCount);
  let glyphs = 0;
  for (let r = 0; r < runCount; r++) {
    runFirst[r] = view.getUint32(4 + r * 6, true);
    runLength[r] = view.getUint16(8 + r * 6, true);
    runStart[r] = glyphs;
    glyphs += runLength[r];
  }
  const offsets = new Uint32Array(glyphs);
  let p = 4 + runCount * 6;
  for (let g = 0; g < glyphs; g++) {
    offsets[g] = p;
    p += 1 + (blob[p] === 16 ? 32 : 16);
  }
  return { runFirst, runLength, runStart, offsets, blob };
}

function glyphIndex(t: GlyphTable, cp: number): number {
  let lo = 0, hi = t.runFirst.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < t.runFirst[mid]) hi = mid - 1;
    else if (cp >= t.runFirst[mid] + t.runLength[mid]) lo = mid + 1;
    else return t.runStart[mid] + cp - t.runFirst[mid];
  }
  return -1;
}

/** The Unifont glyph of `codePoint`, or null when the table does not hold it. */
export function sourceGlyph(codePoint: number): SourceGlyph | null {
  table ??= load();
  const g = glyphIndex(table, codePoint);
  if (g < 0) return null;
  const at = table.offsets[g];
  const width = table.blob[at] === 16 ? 16 : 8;
  return { width, rows: table.blob.subarray(at + 1, at + 1 + width * 2) };
}

/** Whether the glyph is fullwidth (CJK, Hangul, fullwidth forms): it takes two cells. */
export function isFullwidth(codePoint: number): boolean {
  return sourceGlyph(codePoint)?.width === 16;
}

export function sourceDot(glyph: SourceGlyph, x: number, y: number): boolean {
  const bytesPerRow = glyph.width >> 3;
  return (glyph.rows[y * bytesPerRow + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
}
