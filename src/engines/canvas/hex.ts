const HEX = '0123456789ABCDEF';

/** Uppercase hex without spaces, the format of `commandRaw`. */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    out += HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}
