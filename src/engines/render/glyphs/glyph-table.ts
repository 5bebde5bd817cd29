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
  /** Offset in `blob` of each BMP code point's width byte; -1 when the table lacks it. */
  offsetByCodePoint: Int32Array;
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
  // A direct index over the Basic Multilingual Plane (256 KB): one array read per character.
  const offsetByCodePoint = new Int32Array(0x10000).fill(-1);
  let p = 4 + runCount * 6;
  for (let r = 0; r < runCount; r++) {
    const first = view.getUint32(4 + r * 6, true);
    const len = view.getUint16(8 + r * 6, true);
    for (let i = 0; i < len; i++) {
      if (first + i < 0x10000) offsetByCodePoint[first + i] = p;
      p += 1 + ((blob[p] & 0x7f) === 16 ? 32 : 16);
    }
  }
  return { offsetByCodePoint, blob };
}

function offsetOf(codePoint: number): number {
  table ??= load();
  return codePoint >= 0 && codePoint < 0x10000 ? table.offsetByCodePoint[codePoint] : -1;
}

/** The Unifont glyph of `codePoint`, or null when the table does not hold it. */
export function sourceGlyph(codePoint: number): SourceGlyph | null {
  const at = offsetOf(codePoint);
  if (at < 0) return null;
  const width = (table!.blob[at] & 0x7f) === 16 ? 16 : 8;
  return { width, rows: table!.blob.subarray(at + 1, at + 1 + width * 2) };
}

/** Whether the glyph is fullwidth (CJK, Hangul, fullwidth forms): it takes two cells. */
export function isFullwidth(codePoint: number): boolean {
  const at = offsetOf(codePoint);
  return at >= 0 && (table!.blob[at] & 0x7f) === 16;
}

/** Whether the character is a combining mark drawn over the character before it (Unifont's list). */
export function isCombining(codePoint: number): boolean {
  const at = offsetOf(codePoint);
  return at >= 0 && (table!.blob[at] & 0x80) !== 0;
}

export function sourceDot(glyph: SourceGlyph, x: number, y: number): boolean {
  const bytesPerRow = glyph.width >> 3;
  return (glyph.rows[y * bytesPerRow + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
}
