/**
 * Page -> PNG: 1-bit palette image, index 0 opaque white, index 1 opaque black (a printout,
 * not an overlay). Written directly from the packed page (whose rows already are PNG's 1-bit
 * samples) with the native deflate, instead of through fast-png, whose JavaScript deflate made
 * encoding twice as slow as drawing.
 */
import { zlibDeflate, zlibDeflateSync } from './deflate.ts';
import type { PackedRaster } from './raster.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out, 4, 8 + body.length));
  return out;
}

/** PNG scanlines: filter byte 0 (None) before each packed row. */
function scanlines(page: PackedRaster): Uint8Array {
  const { stride, height, data } = page;
  const out = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) out.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return out;
}

export interface PngEncodeOptions {
  /** White as fully transparent (a mask or overlay, as the web page uses for text); opaque by default. */
  transparentWhite?: boolean;
}

function assemble(page: PackedRaster, idat: Uint8Array, options: PngEncodeOptions): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, Math.max(1, page.width));
  v.setUint32(4, Math.max(1, page.height));
  ihdr.set([1, 3, 0, 0, 0], 8); // bit depth 1, colour type 3 (palette), deflate, no filter, no interlace
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', ihdr),
    chunk('PLTE', Uint8Array.from([255, 255, 255, 0, 0, 0])),
    ...(options.transparentWhite ? [chunk('tRNS', Uint8Array.from([0, 255]))] : []),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let p = 0;
  for (const part of parts) { out.set(part, p); p += part.length; }
  return out;
}

function rowsOf(page: PackedRaster): Uint8Array {
  // PNG cannot be empty; a 1x1 white dot stands in for a zero-sized page.
  return page.width > 0 && page.height > 0 ? scanlines(page) : new Uint8Array(2);
}

export async function encodePagePng(page: PackedRaster, options: PngEncodeOptions = {}): Promise<Uint8Array> {
  return assemble(page, await zlibDeflate(rowsOf(page)), options);
}

/** Synchronous variant (JavaScript deflate) for small images drawn while building HTML. */
export function encodePagePngSync(page: PackedRaster, options: PngEncodeOptions = {}): Uint8Array {
  return assemble(page, zlibDeflateSync(rowsOf(page)), options);
}
