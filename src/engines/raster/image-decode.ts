/**
 * Decoding of uploaded images (NV/stored graphics, logos) into 1-bit printer bitmaps.
 *
 * PNG goes through fast-png (decodePngToBitmap), BMP through bmp-ts. Both are reduced to
 * black/white by threshold: a pixel is black when its luminance is below half (and, for PNG,
 * when it is opaque enough). Size limits are checked from the headers before any pixel buffer
 * is allocated. Never throws.
 *
 * Pure TypeScript: no Node or Cloudflare imports. bmp-ts reads its input through the `Buffer`
 * API, taken from the global scope (Node; workerd with nodejs_compat); where there is no global
 * Buffer (a plain browser), BMP uploads are refused with a clear error.
 */
import { decode as decodeBmp } from 'bmp-ts';
import { Bitmap } from './bitmap.ts';
import { decodePngToBitmap } from './png.ts';
import { pngInflationProblem } from './png-bounds.ts';

export interface ImageLimits {
  maxWidth: number;
  maxHeight: number;
  maxBytes: number;
}

export type DecodedImage = { ok: true; bitmap: Bitmap } | { ok: false; error: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(b: Uint8Array): boolean {
  if (b.length < PNG_SIGNATURE.length) return false;
  for (let i = 0; i < PNG_SIGNATURE.length; i++) if (b[i] !== PNG_SIGNATURE[i]) return false;
  return true;
}

function isBmp(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d; // "BM"
}

function u32be(b: Uint8Array, o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}
function u32le(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
function i32le(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24);
}
function u16le(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8);
}

function checkSize(kind: string, width: number, height: number, limits: ImageLimits): string | null {
  if (width <= 0 || height <= 0) return `invalid ${kind}: image size ${width}x${height}`;
  if (width > limits.maxWidth || height > limits.maxHeight) {
    return `image too large: ${width}x${height} dots, limit ${limits.maxWidth}x${limits.maxHeight}`;
  }
  return null;
}

export function decodeUploadedImage(bytes: Uint8Array, limits: ImageLimits): DecodedImage {
  try {
    if (!(bytes instanceof Uint8Array)) return { ok: false, error: 'image data must be bytes' };
    if (bytes.length === 0) return { ok: false, error: 'empty image' };
    if (bytes.length > limits.maxBytes) {
      return { ok: false, error: `image too large: ${bytes.length} bytes, limit ${limits.maxBytes} bytes` };
    }
    if (isPng(bytes)) return decodePng(bytes, limits);
    if (isBmp(bytes)) return decodeBmpImage(bytes, limits);
    return { ok: false, error: 'unsupported image type, expected PNG or BMP' };
  } catch (e) {
    return { ok: false, error: `invalid image: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function decodePng(bytes: Uint8Array, limits: ImageLimits): DecodedImage {
  // Signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4).
  if (bytes.length < 33 || String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]) !== 'IHDR') {
    return { ok: false, error: 'invalid PNG: missing IHDR header' };
  }
  const width = u32be(bytes, 16), height = u32be(bytes, 20);
  const sizeError = checkSize('PNG', width, height, limits);
  if (sizeError) return { ok: false, error: sizeError };
  try {
    const inflation = pngInflationProblem(bytes);
    if (inflation) return { ok: false, error: inflation };
    const bitmap = decodePngToBitmap(bytes);
    return { ok: true, bitmap };
  } catch (e) {
    return { ok: false, error: `invalid PNG: ${e instanceof Error ? e.message : String(e)}` };
  }
}

interface BufferLike { from(b: ArrayBufferLike, offset: number, length: number): Uint8Array }

function decodeBmpImage(bytes: Uint8Array, limits: ImageLimits): DecodedImage {
  // BITMAPFILEHEADER (14) + at least a BITMAPINFOHEADER (40).
  if (bytes.length < 54) return { ok: false, error: 'invalid BMP: truncated header' };
  const dataOffset = u32le(bytes, 10);
  const headerSize = u32le(bytes, 14);
  if (headerSize < 40 || 14 + headerSize > bytes.length) return { ok: false, error: `invalid BMP: unsupported header size ${headerSize}` };
  const width = i32le(bytes, 18);
  const rawHeight = i32le(bytes, 22);
  const height = Math.abs(rawHeight);
  const bpp = u16le(bytes, 28);
  const compression = u32le(bytes, 30);
  const sizeError = checkSize('BMP', width, height, limits);
  if (sizeError) return { ok: false, error: sizeError };
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) return { ok: false, error: `invalid BMP: unsupported ${bpp} bits per pixel` };
  // 0 = BI_RGB, 3 = BI_BITFIELDS, 6 = BI_ALPHABITFIELDS are uncompressed; RLE4/RLE8 (2/1) are
  // handled by bmp-ts for 4/8 bit; JPEG/PNG inside BMP (4/5) are not.
  const rle = (compression === 1 && bpp === 8) || (compression === 2 && bpp === 4);
  if (!rle && compression !== 0 && compression !== 3 && compression !== 6) {
    return { ok: false, error: `invalid BMP: unsupported compression ${compression}` };
  }
  if (!rle) {
    const stride = Math.ceil((width * bpp) / 32) * 4;
    if (dataOffset + stride * height > bytes.length) return { ok: false, error: 'invalid BMP: truncated pixel data' };
  }
  if (bpp <= 8) {
    // The colour table must be there: bmp-ts indexes it without checks.
    const colors = u32le(bytes, 46) || 1 << bpp;
    if (14 + headerSize + colors * 4 > bytes.length || colors > 256) return { ok: false, error: 'invalid BMP: truncated colour table' };
  }

  const BufferCtor = (globalThis as unknown as { Buffer?: BufferLike }).Buffer;
  if (!BufferCtor) return { ok: false, error: 'BMP decoding is not available in this environment' };
  const buf = BufferCtor.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // toRGBA false: bmp-ts writes ABGR, 4 bytes per pixel, rows already top-down.
  const img = decodeBmp(buf as unknown as Parameters<typeof decodeBmp>[0]);
  const data = img.data;
  if (img.width !== width || img.height !== height || data.length < width * height * 4) {
    return { ok: false, error: 'invalid BMP: could not decode pixel data' };
  }
  const out = new Bitmap(width, height);
  const px = out.pixels;
  for (let i = 0, o = 0; i < px.length; i++, o += 4) {
    // BMP has no meaningful alpha for printing: every pixel is opaque.
    const luminance = 0.299 * data[o + 3] + 0.587 * data[o + 2] + 0.114 * data[o + 1];
    if (luminance < 128) px[i] = 1;
  }
  return { ok: true, bitmap: out };
}
