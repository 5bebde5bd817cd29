/** "ESC E 1"-style rendering of a command's first bytes, for command descriptions. */

const BYTE_NAMES: Record<number, string> = {
  0x00: 'NUL', 0x04: 'EOT', 0x05: 'ENQ', 0x07: 'BEL', 0x08: 'BS', 0x09: 'HT', 0x0a: 'LF', 0x0c: 'FF', 0x0d: 'CR',
  0x10: 'DLE', 0x14: 'DC4', 0x18: 'CAN', 0x1b: 'ESC', 0x1c: 'FS', 0x1d: 'GS', 0x1e: 'RS', 0x20: 'SP',
};

const NUM: string[] = Array.from({ length: 256 }, (_, i) => String(i));
const NAME: string[] = Array.from({ length: 256 }, (_, v) => BYTE_NAMES[v] ?? (v > 0x20 && v < 0x7f ? String.fromCharCode(v) : '0x' + v.toString(16).toUpperCase().padStart(2, '0')));
const CHAR_OR_NUM: string[] = Array.from({ length: 256 }, (_, v) => (v > 0x20 && v < 0x7f ? String.fromCharCode(v) : String(v)));

/**
 * The first `count` bytes of a command: the prefix byte and its second byte by name, the
 * function letter of `x ( f` and `GS 8 L` commands as a character, parameters as numbers.
 * `isPrefix` says which bytes start two-byte commands (from the protocol's command table).
 */
export function mnemonic(b: Uint8Array, count: number, isPrefix: Uint8Array): string {
  const n = Math.min(count, b.length);
  if (n === 0) return '';
  let s = NAME[b[0]];
  const prefixed = isPrefix[b[0]] === 1;
  for (let i = 1; i < n; i++) {
    const v = b[i];
    if (i === 1 && prefixed) s += ' ' + NAME[v];
    else if (i === 2 && (b[1] === 0x28 || (b[0] === 0x1d && b[1] === 0x38))) s += ' ' + CHAR_OR_NUM[v];
    else s += ' ' + NUM[v];
  }
  if (b.length > n) s += ' …';
  return s;
}
