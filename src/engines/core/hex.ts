/**
 * The one hex path of every engine: `commandRaw` is uppercase hex without spaces. The
 * shortest slices (most commands) are joined from a 256-entry table; with the native Buffer of
 * Node and workerd (nodejs_compat), a text run's or a long command's digits are written into a
 * reused buffer and read as one flat string (joined, a 24-byte run was a rope of 18 pieces that
 * every reader flattened again: 2.5x the time), long ones (images) are Buffer's own hex in upper
 * case; without it, a code-unit array.
 */
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));
const HEX_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  HEX_CODES[2 * i] = HEX2[i].charCodeAt(0);
  HEX_CODES[2 * i + 1] = HEX2[i].charCodeAt(1);
}

type NodeBuffer = Uint8Array & { toString(enc: 'hex' | 'latin1', start?: number, end?: number): string };
type HexBuffer = { from(a: ArrayBufferLike, o: number, l: number): NodeBuffer; alloc(n: number): NodeBuffer };
const NativeBuffer = (globalThis as unknown as { Buffer?: HexBuffer }).Buffer;
/** Slices up to this many bytes are joined from the table (cheaper than a buffer's round trip). */
const JOINED_MAX = 6;
/** Slices up to this many bytes go through `digits` (above, Buffer's hex is cheaper). */
const DIGITS_MAX = 96;
const digits = NativeBuffer?.alloc(2 * DIGITS_MAX);

/** Two uppercase hex digits of a byte. */
export function hexByte(b: number): string {
  return HEX2[b & 0xff];
}

/** Uppercase hex of bytes[start, end), the format of `commandRaw`. */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const n = end - start;
  if (n <= JOINED_MAX || (!NativeBuffer && n <= 24)) {
    let s = '';
    for (let i = start; i < end; i++) s += HEX2[bytes[i]];
    return s;
  }
  if (digits && n <= DIGITS_MAX) {
    for (let i = 0; i < n; i++) {
      const b = 2 * bytes[start + i];
      digits[2 * i] = HEX_CODES[b];
      digits[2 * i + 1] = HEX_CODES[b + 1];
    }
    return digits.toString('latin1', 0, 2 * n);
  }
  if (NativeBuffer) return NativeBuffer.from(bytes.buffer, bytes.byteOffset + start, n).toString('hex').toUpperCase();
  const codes = new Uint16Array(n * 2);
  for (let i = 0; i < n; i++) {
    const b = bytes[start + i] * 2;
    codes[2 * i] = HEX_CODES[b];
    codes[2 * i + 1] = HEX_CODES[b + 1];
  }
  return stringFromCodes(codes);
}

/** A string from UTF-16 code units, in slices small enough for `apply`. */
export function stringFromCodes(codes: Uint16Array): string {
  const CH = 8192;
  if (codes.length <= CH) return String.fromCharCode.apply(null, codes as unknown as number[]);
  let s = '';
  for (let i = 0; i < codes.length; i += CH) s += String.fromCharCode.apply(null, codes.subarray(i, i + CH) as unknown as number[]);
  return s;
}
