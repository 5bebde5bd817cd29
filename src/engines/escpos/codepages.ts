import iconv from 'iconv-lite';
import type { PrinterContext } from '../canvas/printer-context.ts';
import type { MultiByteSystem, TextCodec } from '../receipt/text.ts';

/**
 * Character tables: Epson `ESC t n` code table numbers mapped to iconv-lite encodings,
 * `ESC R n` international character sets, and the multi-byte (Kanji) decoders.
 * Single-byte tables are built once per (code page, international set) and cached: decoding
 * a printable byte is then a plain array lookup.
 */

export interface CodePageInfo {
  /** Epson's name, used in command descriptions. */
  name: string;
  /** iconv-lite encoding, or a special table name. */
  encoding: string;
  /** True when the page is not available and a stand-in is used. */
  approximate?: boolean;
}

/** Epson ESC t numbers (TM-T88 / TM-T20 / TM-m30 family ESC/POS reference). */
export const CODE_PAGES: ReadonlyMap<number, CodePageInfo> = new Map<number, CodePageInfo>([
  [0, { name: 'PC437 (USA, Standard Europe)', encoding: 'cp437' }],
  [1, { name: 'Katakana', encoding: 'katakana' }],
  [2, { name: 'PC850 (Multilingual)', encoding: 'cp850' }],
  [3, { name: 'PC860 (Portuguese)', encoding: 'cp860' }],
  [4, { name: 'PC863 (Canadian-French)', encoding: 'cp863' }],
  [5, { name: 'PC865 (Nordic)', encoding: 'cp865' }],
  [6, { name: 'Hiragana', encoding: 'katakana', approximate: true }],
  [7, { name: 'One-pass Kanji', encoding: 'katakana', approximate: true }],
  [8, { name: 'One-pass Kanji', encoding: 'katakana', approximate: true }],
  [11, { name: 'PC851 (Greek)', encoding: 'cp737', approximate: true }],
  [12, { name: 'PC853 (Turkish)', encoding: 'cp857', approximate: true }],
  [13, { name: 'PC857 (Turkish)', encoding: 'cp857' }],
  [14, { name: 'PC737 (Greek)', encoding: 'cp737' }],
  [15, { name: 'ISO8859-7 (Greek)', encoding: 'iso-8859-7' }],
  [16, { name: 'WPC1252', encoding: 'windows-1252' }],
  [17, { name: 'PC866 (Cyrillic #2)', encoding: 'cp866' }],
  [18, { name: 'PC852 (Latin 2)', encoding: 'cp852' }],
  [19, { name: 'PC858 (Euro)', encoding: 'cp858' }],
  [20, { name: 'Thai Character Code 42', encoding: 'tis-620', approximate: true }],
  [21, { name: 'Thai Character Code 11', encoding: 'tis-620', approximate: true }],
  [22, { name: 'Thai Character Code 13', encoding: 'tis-620', approximate: true }],
  [23, { name: 'Thai Character Code 14', encoding: 'tis-620', approximate: true }],
  [24, { name: 'Thai Character Code 16', encoding: 'tis-620', approximate: true }],
  [25, { name: 'Thai Character Code 17', encoding: 'tis-620', approximate: true }],
  [26, { name: 'Thai Character Code 18', encoding: 'tis-620', approximate: true }],
  [30, { name: 'TCVN-3 (Vietnamese)', encoding: 'windows-1258', approximate: true }],
  [31, { name: 'TCVN-3 (Vietnamese)', encoding: 'windows-1258', approximate: true }],
  [32, { name: 'PC720 (Arabic)', encoding: 'cp720' }],
  [33, { name: 'WPC775 (Baltic Rim)', encoding: 'cp775' }],
  [34, { name: 'PC855 (Cyrillic)', encoding: 'cp855' }],
  [35, { name: 'PC861 (Icelandic)', encoding: 'cp861' }],
  [36, { name: 'PC862 (Hebrew)', encoding: 'cp862' }],
  [37, { name: 'PC864 (Arabic)', encoding: 'cp864' }],
  [38, { name: 'PC869 (Greek)', encoding: 'cp869' }],
  [39, { name: 'ISO8859-2 (Latin 2)', encoding: 'iso-8859-2' }],
  [40, { name: 'ISO8859-15 (Latin 9)', encoding: 'iso-8859-15' }],
  [41, { name: 'PC1098 (Farsi)', encoding: 'cp720', approximate: true }],
  [42, { name: 'PC1118 (Lithuanian)', encoding: 'cp775', approximate: true }],
  [43, { name: 'PC1119 (Lithuanian)', encoding: 'cp775', approximate: true }],
  [44, { name: 'PC1125 (Ukrainian)', encoding: 'cp1125' }],
  [45, { name: 'WPC1250 (Latin 2)', encoding: 'windows-1250' }],
  [46, { name: 'WPC1251 (Cyrillic)', encoding: 'windows-1251' }],
  [47, { name: 'WPC1253 (Greek)', encoding: 'windows-1253' }],
  [48, { name: 'WPC1254 (Turkish)', encoding: 'windows-1254' }],
  [49, { name: 'WPC1255 (Hebrew)', encoding: 'windows-1255' }],
  [50, { name: 'WPC1256 (Arabic)', encoding: 'windows-1256' }],
  [51, { name: 'WPC1257 (Baltic Rim)', encoding: 'windows-1257' }],
  [52, { name: 'WPC1258 (Vietnamese)', encoding: 'windows-1258' }],
  [53, { name: 'KZ-1048 (Kazakhstan)', encoding: 'windows-1251', approximate: true }],
  [255, { name: 'User-defined page', encoding: 'cp437', approximate: true }],
]);

/**
 * ESC R n: replacements for the 12 national positions 23 24 40 5B 5C 5D 5E 60 7B 7C 7D 7E.
 */
const INTL_POSITIONS = [0x23, 0x24, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d, 0x7e];
export const INTERNATIONAL_SETS: ReadonlyMap<number, { name: string; chars: string[] }> = new Map([
  [0, { name: 'U.S.A.', chars: [...'#$@[\\]^`{|}~'] }],
  [1, { name: 'France', chars: [...'#$à°ç§^`éùè¨'] }],
  [2, { name: 'Germany', chars: [...'#$§ÄÖÜ^`äöüß'] }],
  [3, { name: 'U.K.', chars: [...'£$@[\\]^`{|}~'] }],
  [4, { name: 'Denmark I', chars: [...'#$@ÆØÅ^`æøå~'] }],
  [5, { name: 'Sweden', chars: [...'#¤ÉÄÖÅÜéäöåü'] }],
  [6, { name: 'Italy', chars: [...'#$@°\\é^ùàòèì'] }],
  [7, { name: 'Spain I', chars: ['₧', ...'$@¡Ñ¿^`¨ñ}~'] }],
  [8, { name: 'Japan', chars: [...'#$@[¥]^`{|}~'] }],
  [9, { name: 'Norway', chars: [...'#¤ÉÆØÅÜéæøåü'] }],
  [10, { name: 'Denmark II', chars: [...'#$ÉÆØÅÜéæøåü'] }],
  [11, { name: 'Spain II', chars: [...'#$á¡Ñ¿é`íñóú'] }],
  [12, { name: 'Latin America', chars: [...'#$á¡Ñ¿éüíñóú'] }],
  [13, { name: 'Korea', chars: [...'#$@[₩]^`{|}~'] }],
  [14, { name: 'Slovenia/Croatia', chars: [...'#$ŽŠĐĆČžšđćč'] }],
  [15, { name: 'China', chars: [...'#¥@[\\]^`{|}~'] }],
  [16, { name: 'Vietnam', chars: [...'#₫@[\\]^`{|}~'] }],
  [17, { name: 'Arabia', chars: [...'#$@[\\]^`{|}~'] }],
  [66, { name: 'India (Devanagari)', chars: [...'#$@[\\]^`{|}~'] }],
  [67, { name: 'India (Bengali)', chars: [...'#$@[\\]^`{|}~'] }],
  [68, { name: 'India (Tamil)', chars: [...'#$@[\\]^`{|}~'] }],
  [69, { name: 'India (Telugu)', chars: [...'#$@[\\]^`{|}~'] }],
  [70, { name: 'India (Assamese)', chars: [...'#$@[\\]^`{|}~'] }],
  [71, { name: 'India (Oriya)', chars: [...'#$@[\\]^`{|}~'] }],
  [72, { name: 'India (Kannada)', chars: [...'#$@[\\]^`{|}~'] }],
  [73, { name: 'India (Malayalam)', chars: [...'#$@[\\]^`{|}~'] }],
  [74, { name: 'India (Gujarati)', chars: [...'#$@[\\]^`{|}~'] }],
  [75, { name: 'India (Punjabi)', chars: [...'#$@[\\]^`{|}~'] }],
  [82, { name: 'India (Marathi)', chars: [...'#$@[\\]^`{|}~'] }],
]);

/** Epson's Katakana page: block graphics, JIS X 0201 half-width kana (0xA1..0xDF), symbols. */
const KATAKANA_80 = [...'▁▂▃▄▅▆▇█▏▎▍▌▋▊▉┼┴┬┤├▔─│▕┌┐└┘╭╮╰╯'];
const KATAKANA_E0 = [...'═╞╪╡◢◣◥◤♠♥♦♣●○╱╲╳円年月日時分秒〒市区町村人▓ '];
function katakanaTable(out: string[]): void {
  for (let b = 0x80; b < 0x100; b++) {
    if (b >= 0xa1 && b <= 0xdf) out[b] = String.fromCharCode(0xff61 + (b - 0xa1));
    else if (b === 0xa0) out[b] = ' ';
    else if (b < 0xa0) out[b] = KATAKANA_80[b - 0x80];
    else out[b] = KATAKANA_E0[b - 0xe0];
  }
}

const tableCache = new Map<string, string[]>();

/** 256 decoded characters for a code page (ESC t n) and international set (ESC R n). */
export function singleByteTable(page: number, intl: number): string[] {
  const key = `${page}/${intl}`;
  const hit = tableCache.get(key);
  if (hit) return hit;
  const info = CODE_PAGES.get(page) ?? CODE_PAGES.get(0)!;
  const out: string[] = new Array(256);
  for (let b = 0; b < 0x80; b++) out[b] = String.fromCharCode(b);
  // 0x7F prints as the code page's glyph (house on PC437); keep it visible.
  if (info.encoding === 'katakana') {
    katakanaTable(out);
  } else {
    const hi = new Uint8Array(128);
    for (let i = 0; i < 128; i++) hi[i] = 0x80 + i;
    let decoded: string;
    try {
      decoded = iconv.decode(hi as unknown as Buffer, info.encoding);
    } catch {
      decoded = iconv.decode(hi as unknown as Buffer, 'cp437');
    }
    const chars = [...decoded];
    for (let i = 0; i < 128; i++) out[0x80 + i] = chars.length === 128 ? chars[i] : (decoded[i] ?? '\ufffd');
  }
  if (info.encoding.startsWith('cp') && page !== 37) out[0x7f] = '⌂';
  // Epson's PC857 carries the euro sign at 0xD5 (like PC858); iconv's table leaves it undefined.
  if (page === 13) out[0xd5] = '€';
  const set = INTERNATIONAL_SETS.get(intl);
  if (set && intl !== 0) INTL_POSITIONS.forEach((pos, i) => (out[pos] = set.chars[i]));
  tableCache.set(key, out);
  return out;
}

export type KanjiEncoding = 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr';
export type { MultiByteSystem } from '../receipt/text.ts';

/**
 * How many bytes the character starting with `lead` (and `second` when known) takes, or 1 when
 * `lead` is a single-byte character in that system. Returns 0 when more bytes are needed
 * to decide (GB18030 four-byte form).
 */
export function multiByteLength(system: MultiByteSystem, lead: number, second: number): number {
  switch (system) {
    case 'shift_jis':
      return (lead >= 0x81 && lead <= 0x9f) || (lead >= 0xe0 && lead <= 0xfc) ? 2 : 1;
    case 'gb18030':
      if (lead < 0x81 || lead > 0xfe) return 1;
      if (second < 0) return 0;
      return second >= 0x30 && second <= 0x39 ? 4 : 2;
    case 'big5':
      return lead >= 0x81 && lead <= 0xfe ? 2 : 1;
    case 'euc-kr':
      return lead >= 0xa1 && lead <= 0xfe ? 2 : 1;
    case 'jis':
      return lead >= 0x21 && lead <= 0x7e ? 2 : 1;
    case 'utf-8':
      if (lead < 0xc2) return 1;
      if (lead < 0xe0) return 2;
      if (lead < 0xf0) return 3;
      if (lead < 0xf5) return 4;
      return 1;
  }
}

const mbCache = new Map<string, string>();

/** Decode one multi-byte character; invalid sequences give U+FFFD. */
export function decodeMultiByte(system: MultiByteSystem, bytes: number[]): string {
  let key = system;
  for (const b of bytes) key += ',' + b;
  const hit = mbCache.get(key);
  if (hit !== undefined) return hit;
  let s: string;
  try {
    if (system === 'utf-8') {
      s = new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(bytes));
    } else if (system === 'jis') {
      s = iconv.decode(new Uint8Array(bytes.map((b) => b | 0x80)) as unknown as Buffer, 'euc-jp');
    } else {
      s = iconv.decode(new Uint8Array(bytes) as unknown as Buffer, system);
    }
  } catch {
    s = '\ufffd';
  }
  if (s.length === 0) s = '\ufffd';
  if (mbCache.size > 50_000) mbCache.clear();
  mbCache.set(key, s);
  return s;
}

/** East Asian wide characters print on a full (Kanji) cell in UTF-8 mode. */
export function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/**
 * The ESC/POS text codec of a job: Epson's ESC t numbering, Kanji mode in the printer's
 * multi-byte encoding. (Issue 13b replaces the tables by the printer model's.)
 */
export function escPosTextCodec(ctx: PrinterContext): TextCodec {
  return {
    codeTable(n) {
      const page = CODE_PAGES.get(n);
      return page && { name: `${page.name}${page.approximate ? ' (approximated)' : ''}`, chars: singleByteTable(n, 0) };
    },
    singleByte: singleByteTable,
    kanji: ctx.kanjiEncoding ?? 'shift_jis',
    multiByteLength,
    decodeMultiByte,
    isWide,
  };
}
