/**
 * Graphics for GW (raw raster) and GM (PCX files stored by name).
 */
import { Bitmap } from '../raster/bitmap.ts';

/** GW raster: `widthBytes` x `height`, MSB first, bit 0 = black (EPL convention). */
export function gwBitmap(widthBytes: number, height: number, data: Uint8Array): Bitmap {
  return Bitmap.fromPackedRows(widthBytes, height, data, 0, true);
}

/** Largest PCX we decode (dots per side), to bound memory on garbage headers. */
const MAX_SIDE = 8192;

/**
 * Decode a 1-bit (monochrome) PCX image, RLE or uncompressed. Index 0 is black unless the
 * header palette says otherwise. Returns an error string for anything else.
 */
export function decodePcx(data: Uint8Array): { ok: true; bitmap: Bitmap } | { ok: false; error: string } {
  if (data.length < 128) return { ok: false, error: 'PCX data shorter than its 128 byte header' };
  if (data[0] !== 0x0a) return { ok: false, error: 'not a PCX file (bad manufacturer byte)' };
  const encoding = data[2];
  const bpp = data[3];
  const u16 = (o: number): number => data[o] | (data[o + 1] << 8);
  const width = u16(8) - u16(4) + 1;
  const height = u16(10) - u16(6) + 1;
  const planes = data[65] || 1;
  const bytesPerLine = u16(66);
  if (bpp !== 1 || planes !== 1) return { ok: false, error: `only monochrome PCX is supported (got ${bpp} bit, ${planes} planes)` };
  if (width <= 0 || height <= 0 || width > MAX_SIDE || height > MAX_SIDE) return { ok: false, error: `PCX size ${width}x${height} out of range` };
  if (bytesPerLine * 8 < width) return { ok: false, error: 'PCX bytes per line too small' };
  // Palette entries 0 and 1 (header bytes 16..21): which index is dark?
  const lum = (o: number): number => data[o] * 0.299 + data[o + 1] * 0.587 + data[o + 2] * 0.114;
  const paletteSet = data.subarray(16, 22).some((b) => b !== 0);
  const zeroIsBlack = !paletteSet || lum(16) <= lum(19);
  const rows = new Uint8Array(bytesPerLine * height);
  let src = 128;
  let dst = 0;
  if (encoding === 1) {
    while (dst < rows.length && src < data.length) {
      const b = data[src++];
      if ((b & 0xc0) === 0xc0) {
        const count = b & 0x3f;
        const v = src < data.length ? data[src++] : 0;
        for (let k = 0; k < count && dst < rows.length; k++) rows[dst++] = v;
      } else rows[dst++] = b;
    }
  } else {
    const n = Math.min(rows.length, data.length - src);
    rows.set(data.subarray(src, src + n));
    dst = n;
  }
  const bmp = new Bitmap(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = (rows[y * bytesPerLine + (x >> 3)] >> (7 - (x & 7))) & 1;
      if ((bit === 0) === zeroIsBlack) bmp.pixels[y * width + x] = 1;
    }
  }
  return { ok: true, bitmap: bmp };
}

/** Encode a bitmap as an RLE monochrome PCX (used by tests and fixtures). */
export function encodePcx(bmp: Bitmap): Uint8Array {
  const bytesPerLine = Math.ceil(bmp.width / 8) + (Math.ceil(bmp.width / 8) % 2);
  const header = new Uint8Array(128);
  header[0] = 0x0a;
  header[1] = 5;
  header[2] = 1;
  header[3] = 1;
  const w16 = (o: number, v: number): void => {
    header[o] = v & 0xff;
    header[o + 1] = (v >> 8) & 0xff;
  };
  w16(8, bmp.width - 1);
  w16(10, bmp.height - 1);
  w16(12, 203);
  w16(14, 203);
  header.set([0, 0, 0, 255, 255, 255], 16);
  header[65] = 1;
  w16(66, bytesPerLine);
  const out: number[] = [];
  for (let y = 0; y < bmp.height; y++) {
    const row = new Uint8Array(bytesPerLine).fill(0xff);
    for (let x = 0; x < bmp.width; x++) if (bmp.pixels[y * bmp.width + x]) row[x >> 3] &= ~(0x80 >> (x & 7));
    let i = 0;
    while (i < row.length) {
      let run = 1;
      while (i + run < row.length && row[i + run] === row[i] && run < 63) run++;
      if (run > 1 || (row[i] & 0xc0) === 0xc0) out.push(0xc0 | run, row[i]);
      else out.push(row[i]);
      i += run;
    }
  }
  const res = new Uint8Array(128 + out.length);
  res.set(header);
  res.set(out, 128);
  return res;
}
