/**
 * The ESC/POS command table: how each command is recognised and how many bytes it takes.
 *
 * A command's `len(b, n)` is given the first `n` bytes received so far (at least its prefix)
 * and answers the total length it needs: a value greater than `n` means "wait for that many
 * bytes, then ask again" (header fields decide the data length); a value not greater than `n`
 * means complete. `NUL_TERMINATED` means the command ends at the next NUL byte. Each answer
 * is computed from a bounded number of header bytes, so framing is linear in the input.
 */

export const NUL_TERMINATED = -1;
/** NUL-terminated data longer than this is cut off (malformed) rather than buffered forever. */
export const MAX_NUL_TERMINATED = 1024;

export type LenFn = (b: Uint8Array, n: number) => number;

export interface CommandSpec {
  /** Handler key used by the interpreter, e.g. "ESC E", "GS ( k". */
  id: string;
  len: LenFn;
}

export const ESC = 0x1b, GS = 0x1d, FS = 0x1c, DLE = 0x10;

const fixed = (k: number): LenFn => () => k;
/** `<prefix of p bytes> pL pH data(pL + pH*256)`: GS ( x, ESC ( x, FS ( x. */
const pLpH = (p: number): LenFn => (b, n) => (n < p + 2 ? p + 2 : p + 2 + b[p] + b[p + 1] * 256);
/** GS 8 L p1 p2 p3 p4 ... */
const p4: LenFn = (b, n) => (n < 7 ? 7 : 7 + b[3] + b[4] * 0x100 + b[5] * 0x10000 + b[6] * 0x1000000);

const escStar: LenFn = (b, n) => {
  if (n < 5) return 5;
  const cols = b[3] + b[4] * 256;
  const m = b[2];
  return 5 + cols * (m === 32 || m === 33 ? 3 : 1);
};
const gsV0: LenFn = (b, n) => {
  if (n < 3) return 3;
  if (b[2] !== 0x30 && b[2] !== 0) return 3; // GS v <other>: malformed, stop here
  if (n < 8) return 8;
  return 8 + (b[4] + b[5] * 256) * (b[6] + b[7] * 256);
};
const gsK: LenFn = (b, n) => {
  if (n < 3) return 3;
  const m = b[2];
  if (m <= 6) return NUL_TERMINATED;
  if (m >= 65 && m <= 79) return n < 4 ? 4 : 4 + b[3];
  return 3;
};
const gsStar: LenFn = (b, n) => (n < 4 ? 4 : 4 + b[2] * b[3] * 8);
const gsQ0: LenFn = (b, n) => {
  if (n < 3) return 3;
  if (b[2] !== 0x30) return 3;
  if (n < 8) return 8;
  return 8 + (b[4] + b[5] * 256) * (b[6] + b[7] * 256);
};
/** ESC & y c1 c2 [x d1..d(y*x)]...: walk the character definitions received so far. */
const escAmp: LenFn = (b, n) => {
  if (n < 5) return 5;
  const y = b[2], c1 = b[3], c2 = b[4];
  if (c2 < c1) return 5;
  let pos = 5;
  for (let c = c1; c <= c2; c++) {
    if (n <= pos) return pos + 1;
    pos += 1 + y * b[pos];
  }
  return pos;
};
/** FS q n [xL xH yL yH d1..dk]1..n with k = x*y*8. */
const fsQ: LenFn = (b, n) => {
  if (n < 3) return 3;
  let pos = 3;
  for (let i = 0; i < b[2]; i++) {
    if (n < pos + 4) return pos + 4;
    pos += 4 + (b[pos] + b[pos + 1] * 256) * (b[pos + 2] + b[pos + 3] * 256) * 8;
  }
  return pos;
};
/** FS 2 c1 c2 d1..dk: user-defined Kanji, 72 bytes (24x24) on Font A models. */
const dleEot: LenFn = (b, n) => (n < 3 ? 3 : b[2] === 7 || b[2] === 8 ? 4 : 3);
const dleDc4: LenFn = (b, n) => {
  if (n < 3) return 3;
  switch (b[2]) {
    case 1: return 5;
    case 2: return 5;
    case 3: return 8;
    case 7: return 4;
    case 8: return 10;
    default: return 3;
  }
};
const escC: LenFn = (b, n) => (n < 3 ? 3 : b[2] >= 0x30 && b[2] <= 0x35 ? 4 : b[2] <= 5 ? 4 : 3);

function spec(id: string, len: LenFn): CommandSpec {
  return { id, len };
}

function table(entries: [number | string, string, LenFn][]): (CommandSpec | undefined)[] {
  const out: (CommandSpec | undefined)[] = new Array(256);
  for (const [k, id, len] of entries) {
    const code = typeof k === 'string' ? k.charCodeAt(0) : k;
    out[code] = spec(id, len);
  }
  return out;
}

export const SINGLE: (CommandSpec | undefined)[] = table([
  [0x07, 'BEL', fixed(1)],
  [0x08, 'BS', fixed(1)],
  [0x09, 'HT', fixed(1)],
  [0x0a, 'LF', fixed(1)],
  [0x0c, 'FF', fixed(1)],
  [0x0d, 'CR', fixed(1)],
  [0x18, 'CAN', fixed(1)],
]);

export const ESC_TABLE = table([
  [0x0c, 'ESC FF', fixed(2)],
  [' ', 'ESC SP', fixed(3)],
  ['!', 'ESC !', fixed(3)],
  ['$', 'ESC $', fixed(4)],
  ['%', 'ESC %', fixed(3)],
  ['&', 'ESC &', escAmp],
  ['(', 'ESC (', pLpH(3)],
  ['*', 'ESC *', escStar],
  ['-', 'ESC -', fixed(3)],
  ['2', 'ESC 2', fixed(2)],
  ['3', 'ESC 3', fixed(3)],
  ['<', 'ESC <', fixed(2)],
  ['=', 'ESC =', fixed(3)],
  ['?', 'ESC ?', fixed(3)],
  ['@', 'ESC @', fixed(2)],
  ['D', 'ESC D', (b, n) => {
    // ESC D n1 ... nk NUL (at most 32 stops)
    for (let i = 2; i < n; i++) if (b[i] === 0) return i + 1;
    return n >= 2 + 33 ? n : Math.max(n + 1, 3);
  }],
  ['E', 'ESC E', fixed(3)],
  ['G', 'ESC G', fixed(3)],
  ['J', 'ESC J', fixed(3)],
  ['K', 'ESC K', fixed(3)],
  ['L', 'ESC L', fixed(2)],
  ['M', 'ESC M', fixed(3)],
  ['R', 'ESC R', fixed(3)],
  ['S', 'ESC S', fixed(2)],
  ['T', 'ESC T', fixed(3)],
  ['U', 'ESC U', fixed(3)],
  ['V', 'ESC V', fixed(3)],
  ['W', 'ESC W', fixed(10)],
  ['\\', 'ESC \\', fixed(4)],
  ['a', 'ESC a', fixed(3)],
  ['c', 'ESC c', escC],
  ['d', 'ESC d', fixed(3)],
  ['e', 'ESC e', fixed(3)],
  ['i', 'ESC i', fixed(2)],
  ['m', 'ESC m', fixed(2)],
  ['p', 'ESC p', fixed(5)],
  ['r', 'ESC r', fixed(3)],
  ['t', 'ESC t', fixed(3)],
  ['u', 'ESC u', fixed(3)],
  ['v', 'ESC v', fixed(2)],
  ['{', 'ESC {', fixed(3)],
]);

export const GS_TABLE = table([
  ['!', 'GS !', fixed(3)],
  ['$', 'GS $', fixed(4)],
  ['(', 'GS (', pLpH(3)],
  ['*', 'GS *', gsStar],
  ['/', 'GS /', fixed(3)],
  [':', 'GS :', fixed(2)],
  ['8', 'GS 8', (b, n) => (n < 3 ? 3 : b[2] === 0x4c /* L */ ? p4(b, n) : 3)],
  ['B', 'GS B', fixed(3)],
  ['C', 'GS C', (b, n) => (n < 3 ? 3 : b[2] === 0x30 ? 5 : b[2] === 0x31 ? 9 : b[2] === 0x32 ? 5 : b[2] === 0x3b ? 5 : 3)],
  ['H', 'GS H', fixed(3)],
  ['I', 'GS I', fixed(3)],
  ['L', 'GS L', fixed(4)],
  ['P', 'GS P', fixed(4)],
  ['Q', 'GS Q', gsQ0],
  ['T', 'GS T', fixed(3)],
  ['V', 'GS V', (b, n) => (n < 3 ? 3 : b[2] === 0 || b[2] === 1 || b[2] === 0x30 || b[2] === 0x31 ? 3 : 4)],
  ['W', 'GS W', fixed(4)],
  ['\\', 'GS \\', fixed(4)],
  ['^', 'GS ^', fixed(5)],
  ['a', 'GS a', fixed(3)],
  ['b', 'GS b', fixed(3)],
  ['c', 'GS c', fixed(2)],
  ['f', 'GS f', fixed(3)],
  ['g', 'GS g', (b, n) => (n < 3 ? 3 : b[2] === 0x30 ? 6 : b[2] === 0x32 ? 6 : 3)],
  ['h', 'GS h', fixed(3)],
  ['j', 'GS j', fixed(3)],
  ['k', 'GS k', gsK],
  ['r', 'GS r', fixed(3)],
  ['v', 'GS v', gsV0],
  ['w', 'GS w', fixed(3)],
  ['z', 'GS z', (b, n) => (n < 3 ? 3 : b[2] === 0x30 ? 4 : 3)],
]);

export const FS_TABLE = table([
  ['!', 'FS !', fixed(3)],
  ['&', 'FS &', fixed(2)],
  ['(', 'FS (', pLpH(3)],
  ['-', 'FS -', fixed(3)],
  ['.', 'FS .', fixed(2)],
  ['2', 'FS 2', fixed(4 + 72)],
  ['?', 'FS ?', fixed(4)],
  ['C', 'FS C', fixed(3)],
  ['S', 'FS S', fixed(4)],
  ['W', 'FS W', fixed(3)],
  ['p', 'FS p', fixed(4)],
  ['q', 'FS q', fsQ],
]);

export const DLE_TABLE = table([
  [0x04, 'DLE EOT', dleEot],
  [0x05, 'DLE ENQ', fixed(3)],
  [0x14, 'DLE DC4', dleDc4],
]);

export const UNKNOWN_2: CommandSpec = spec('unknown', fixed(2));
export const UNKNOWN_1: CommandSpec = spec('unknown', fixed(1));

export function lookup(first: number, second: number): CommandSpec {
  const t = first === ESC ? ESC_TABLE : first === GS ? GS_TABLE : first === FS ? FS_TABLE : DLE_TABLE;
  return t[second] ?? UNKNOWN_2;
}

const BYTE_NAMES: Record<number, string> = {
  0x00: 'NUL', 0x04: 'EOT', 0x05: 'ENQ', 0x07: 'BEL', 0x09: 'HT', 0x0a: 'LF', 0x0c: 'FF', 0x0d: 'CR',
  0x10: 'DLE', 0x14: 'DC4', 0x18: 'CAN', 0x1b: 'ESC', 0x1c: 'FS', 0x1d: 'GS', 0x20: 'SP',
};

const NUM: string[] = Array.from({ length: 256 }, (_, i) => String(i));
const NAME: string[] = Array.from({ length: 256 }, (_, v) => BYTE_NAMES[v] ?? (v > 0x20 && v < 0x7f ? String.fromCharCode(v) : '0x' + v.toString(16).toUpperCase().padStart(2, '0')));
const CHAR_OR_NUM: string[] = Array.from({ length: 256 }, (_, v) => (v > 0x20 && v < 0x7f ? String.fromCharCode(v) : String(v)));

/** "ESC E 1"-style rendering of a command's first bytes for descriptions. */
export function mnemonic(b: Uint8Array, count: number): string {
  const n = Math.min(count, b.length);
  if (n === 0) return '';
  let s = NAME[b[0]];
  const prefixed = b[0] === ESC || b[0] === GS || b[0] === FS || b[0] === DLE;
  for (let i = 1; i < n; i++) {
    const v = b[i];
    if (i === 1 && prefixed) s += ' ' + NAME[v];
    else if (i === 2 && (b[1] === 0x28 || (b[0] === GS && b[1] === 0x38))) s += ' ' + CHAR_OR_NUM[v];
    else s += ' ' + NUM[v];
  }
  if (b.length > n) s += ' …';
  return s;
}
