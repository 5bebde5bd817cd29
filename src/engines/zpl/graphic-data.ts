/**
 * Graphic data of ^GF, ~DG and ~DY: packed 1-bit rows (MSB first, 1 = black) sent as
 *
 * - ASCII hex with Zebra's compression (ZPL II Programming Guide, "Alternative Data
 *   Compression Scheme"): G–Y repeat the next hex digit 1–19 times, g–z add 20–400 (they
 *   combine: `gK0` is 25 zeros), `,` fills the rest of the row with 0, `!` with 1, `:` repeats
 *   the previous row;
 * - `:B64:data:crc` (Base64) or `:Z64:data:crc` (zlib deflate, then Base64), the CRC being
 *   CRC-16/XMODEM (polynomial 0x1021, initial 0) of the Base64 text, four hex digits;
 * - raw binary (^GFB / ~DY…B), already framed by the tokenizer.
 *
 * Inflating uses fflate (well kept, pure JS, runs in workerd and browsers).
 */
import { unzlibSync, inflateSync } from 'fflate';
import { Bitmap } from '../raster/bitmap.ts';
import { latin1 } from './tokenizer.ts';

export type DecodeResult = { ok: true; bitmap: Bitmap; warning?: string } | { ok: false; error: string };

/** Largest graphic accepted (dots): a whole 4 x 8 inch label at 600 dpi is 11.5 M dots. */
const MAX_DOTS = 1 << 24;

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[0x41 + i] = 10 + i;
  HEX[0x61 + i] = 10 + i;
}

/** CRC-16/XMODEM over the bytes of a latin1 string (Zebra's ZB64 check). */
export function crc16Xmodem(s: string): number {
  let crc = 0;
  for (let i = 0; i < s.length; i++) {
    crc ^= (s.charCodeAt(i) & 0xff) << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function base64Bytes(s: string): Uint8Array | null {
  const clean = s.replace(/[^A-Za-z0-9+/=]/g, '');
  try {
    const bin = atob(clean);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/**
 * The bytes of a ZB64 block (`:B64:…:crc` / `:Z64:…:crc`), or an error naming what failed.
 * A missing CRC is accepted (many generators leave it out); a wrong one is an aborted
 * download, as on a Zebra.
 */
export function decodeZb64(text: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const m = /^:(B64|Z64):([^:]*)(?::([0-9A-Fa-f]{1,4}))?:?\s*$/.exec(text.trim());
  if (!m) return { ok: false, error: 'malformed B64/Z64 data (expected :B64:data:crc or :Z64:data:crc)' };
  const [, kind, payload, crc] = m;
  if (crc !== undefined && parseInt(crc, 16) !== crc16Xmodem(payload)) {
    return { ok: false, error: `${kind} CRC ${crc.toUpperCase()} does not match the data (${crc16Xmodem(payload).toString(16).toUpperCase().padStart(4, '0')}): download aborted` };
  }
  const raw = base64Bytes(payload);
  if (!raw) return { ok: false, error: `${kind} data is not valid Base64` };
  if (kind === 'B64') return { ok: true, bytes: raw };
  try {
    // Zebra's Z64 is zlib-wrapped deflate; accept bare deflate too.
    const bytes = raw.length >= 2 && (raw[0] & 0x0f) === 8 && ((raw[0] << 8) | raw[1]) % 31 === 0 ? unzlibSync(raw) : inflateSync(raw);
    return { ok: true, bytes };
  } catch (e) {
    return { ok: false, error: `Z64 data does not inflate: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function checkSize(totalBytes: number, bytesPerRow: number): string | null {
  if (!Number.isInteger(bytesPerRow) || bytesPerRow < 1) return `bytes per row ${bytesPerRow} must be at least 1`;
  if (!Number.isInteger(totalBytes) || totalBytes < 1) return `total bytes ${totalBytes} must be at least 1`;
  if (totalBytes * 8 > MAX_DOTS) return `graphic of ${totalBytes} bytes is larger than the ${MAX_DOTS / 8} bytes accepted`;
  return null;
}

/** Packed rows to a bitmap (`bytesPerRow * 8` wide, `ceil(total / bytesPerRow)` high). */
export function bitmapFromPacked(data: Uint8Array, totalBytes: number, bytesPerRow: number): Bitmap {
  const height = Math.ceil(totalBytes / bytesPerRow);
  return Bitmap.fromPackedRows(bytesPerRow, height, data.length >= totalBytes ? data : padTo(data, totalBytes));
}

function padTo(data: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  out.set(data.subarray(0, n));
  return out;
}

/**
 * Zebra's compressed ASCII hex to packed bytes. Returns the bytes (exactly `totalBytes`,
 * missing data white) and how many hex digits were not understood.
 */
export function decodeCompressedHex(text: string, totalBytes: number, bytesPerRow: number): { bytes: Uint8Array; invalid: number } {
  const out = new Uint8Array(totalBytes);
  const rowNibbles = bytesPerRow * 2;
  let pos = 0; // nibble position in the output
  const limit = totalBytes * 2;
  let rowStart = 0;
  let repeat = 0;
  let invalid = 0;
  const put = (v: number): void => {
    if (pos >= limit) return;
    const byte = pos >> 1;
    out[byte] |= pos & 1 ? v : v << 4;
    pos++;
  };
  const endRow = (fill: number): void => {
    const end = Math.min(limit, rowStart + rowNibbles);
    if (pos === rowStart && fill < 0) return;
    while (pos < end) put(fill < 0 ? 0 : fill);
    rowStart = end;
  };
  for (let i = 0; i < text.length && pos < limit; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x47 && c <= 0x59) {
      repeat += c - 0x46; // G=1 … Y=19
      continue;
    }
    if (c >= 0x67 && c <= 0x7a) {
      repeat += (c - 0x66) * 20; // g=20 … z=400
      continue;
    }
    if (c === 0x2c /* , */) {
      repeat = 0;
      endRow(0);
      continue;
    }
    if (c === 0x21 /* ! */) {
      repeat = 0;
      endRow(0xf);
      continue;
    }
    if (c === 0x3a /* : */) {
      repeat = 0;
      // Repeat the previous row (the first row has none: white).
      if (pos !== rowStart) endRow(0);
      const prev = rowStart - rowNibbles;
      const end = Math.min(limit, rowStart + rowNibbles);
      for (let k = 0; rowStart + k < end; k++) {
        const src = prev + k;
        const v = src >= 0 ? (src & 1 ? out[src >> 1] & 0x0f : out[src >> 1] >> 4) : 0;
        put(v);
      }
      rowStart = end;
      continue;
    }
    const v = c < 128 ? HEX[c] : -1;
    if (v < 0) {
      if (c !== 0x20 && c !== 0x09) invalid++;
      repeat = 0;
      continue;
    }
    const count = repeat > 0 ? repeat : 1;
    repeat = 0;
    for (let k = 0; k < count; k++) {
      put(v);
      if (pos - rowStart >= rowNibbles) rowStart += rowNibbles;
    }
  }
  return { bytes: out, invalid };
}

export type GraphicEncoding = 'A' | 'B' | 'C';

/**
 * Decode ^GF / ~DG data. `encoding` A is ASCII (hex, or B64/Z64 when it starts with a colon
 * and a tag), B binary, C Zebra's AR compression (not published: reported).
 */
export function decodeGraphic(encoding: GraphicEncoding, data: string | Uint8Array, totalBytes: number, bytesPerRow: number): DecodeResult {
  const bad = checkSize(totalBytes, bytesPerRow);
  if (bad) return { ok: false, error: bad };
  // Zebra publishes no description of AR compression (its guide: "used only by Zebra's
  // BAR-ONE v5"), and no open renderer decodes it: reported, never guessed (docs/decisions.md).
  if (encoding === 'C') return { ok: false, error: 'compressed binary (C, Zebra\'s AR compression) is not supported: its format is not published; send ASCII hex, binary, B64 or Z64' };
  if (encoding === 'B') {
    const bytes = typeof data === 'string' ? Uint8Array.from(data, (ch) => ch.charCodeAt(0) & 0xff) : data;
    const warning = bytes.length < totalBytes ? `binary data has ${bytes.length} of ${totalBytes} bytes: the rest is white` : undefined;
    return { ok: true, bitmap: bitmapFromPacked(bytes, totalBytes, bytesPerRow), warning };
  }
  const text = typeof data === 'string' ? data : latin1(data);
  const trimmed = text.trimStart();
  if (/^:(B64|Z64):/.test(trimmed)) {
    const z = decodeZb64(trimmed);
    if (!z.ok) return z;
    const warning = z.bytes.length < totalBytes ? `decoded data has ${z.bytes.length} of ${totalBytes} bytes: the rest is white` : undefined;
    return { ok: true, bitmap: bitmapFromPacked(z.bytes, totalBytes, bytesPerRow), warning };
  }
  const { bytes, invalid } = decodeCompressedHex(text, totalBytes, bytesPerRow);
  return { ok: true, bitmap: bitmapFromPacked(bytes, totalBytes, bytesPerRow), warning: invalid ? `${invalid} characters in the hex data are not hex digits or compression codes (ignored)` : undefined };
}
