/**
 * The one hex path of every engine: `commandRaw` is uppercase hex without spaces. Short
 * slices (most commands) are built from a 256-entry table; long ones (text runs, images) use
 * the native Buffer of Node and workerd (nodejs_compat) when present, else a code-unit array.
 */
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));
const HEX_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  HEX_CODES[2 * i] = HEX2[i].charCodeAt(0);
  HEX_CODES[2 * i + 1] = HEX2[i].charCodeAt(1);
}

type HexBuffer = { from(a: ArrayBufferLike, o: number, l: number): { toString(enc: 'hex'): string } };
const NativeBuffer = (globalThis as unknown as { Buffer?: HexBuffer }).Buffer;

/** Two uppercase hex digits of a byte. */
export function hexByte(b: number): string {
  return HEX2[b & 0xff];
}

/** Uppercase hex of bytes[start, end), the format of `commandRaw`. */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const n = end - start;
  if (n <= 24) {
    let s = '';
    for (let i = start; i < end; i++) s += HEX2[bytes[i]];
    return s;
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
