import iconv from 'iconv-lite';
import type { PrinterContext } from '../canvas/printer-context.ts';
import type { MultiByteSystem, TextCodec } from '../receipt/text.ts';
import { codeTablesFor, defaultModelFor, type MultiByteEncoding } from '../models/index.ts';
import { describeTable, isSupportedTable, singleByteTable as singleByteTableOf } from '../text/index.ts';

/**
 * ESC/POS text: the job's codec from the printer model (`escPosTextCodec`), Epson's table
 * names, `ESC R n` international character sets, and the multi-byte (Kanji) decoders.
 * Tables are built once per (table, international set) and cached: decoding a printable byte
 * is then a plain array lookup.
 */

/**
 * Epson's names of the ESC t table numbers (TM-T88 / TM-T20 / TM-m30 ESC/POS reference): what
 * an error names when the printer model lacks table n. The tables themselves are the model's
 * (src/engines/models), decoded by src/engines/text.
 */
export const CODE_PAGES: ReadonlyMap<number, string> = new Map<number, string>([
  [0, 'PC437 (USA, Standard Europe)'],
  [1, 'Katakana'],
  [2, 'PC850 (Multilingual)'],
  [3, 'PC860 (Portuguese)'],
  [4, 'PC863 (Canadian-French)'],
  [5, 'PC865 (Nordic)'],
  [6, 'Hiragana'],
  [7, 'One-pass Kanji'],
  [8, 'One-pass Kanji'],
  [11, 'PC851 (Greek)'],
  [12, 'PC853 (Turkish)'],
  [13, 'PC857 (Turkish)'],
  [14, 'PC737 (Greek)'],
  [15, 'ISO8859-7 (Greek)'],
  [16, 'WPC1252'],
  [17, 'PC866 (Cyrillic #2)'],
  [18, 'PC852 (Latin 2)'],
  [19, 'PC858 (Euro)'],
  [20, 'Thai Character Code 42'],
  [21, 'Thai Character Code 11'],
  [22, 'Thai Character Code 13'],
  [23, 'Thai Character Code 14'],
  [24, 'Thai Character Code 16'],
  [25, 'Thai Character Code 17'],
  [26, 'Thai Character Code 18'],
  [30, 'TCVN-3 (Vietnamese)'],
  [31, 'TCVN-3 (Vietnamese)'],
  [32, 'PC720 (Arabic)'],
  [33, 'WPC775 (Baltic Rim)'],
  [34, 'PC855 (Cyrillic)'],
  [35, 'PC861 (Icelandic)'],
  [36, 'PC862 (Hebrew)'],
  [37, 'PC864 (Arabic)'],
  [38, 'PC869 (Greek)'],
  [39, 'ISO8859-2 (Latin 2)'],
  [40, 'ISO8859-15 (Latin 9)'],
  [41, 'PC1098 (Farsi)'],
  [42, 'PC1118 (Lithuanian)'],
  [43, 'PC1119 (Lithuanian)'],
  [44, 'PC1125 (Ukrainian)'],
  [45, 'WPC1250 (Latin 2)'],
  [46, 'WPC1251 (Cyrillic)'],
  [47, 'WPC1253 (Greek)'],
  [48, 'WPC1254 (Turkish)'],
  [49, 'WPC1255 (Hebrew)'],
  [50, 'WPC1256 (Arabic)'],
  [51, 'WPC1257 (Baltic Rim)'],
  [52, 'WPC1258 (Vietnamese)'],
  [53, 'KZ-1048 (Kazakhstan)'],
  [255, 'User-defined page'],
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

const MULTI_BYTE_SYSTEM: Record<MultiByteEncoding, MultiByteSystem | null> = {
  None: null,
  ShiftJis: 'shift_jis',
  Gb18030: 'gb18030',
  Big5: 'big5',
  KsC5601: 'euc-kr',
  Utf8: 'utf-8',
};

/** Regional encodings whose units boot in Kanji mode (Chinese and Korean units; Japanese ones need FS &). */
const BOOTS_IN_KANJI: ReadonlySet<MultiByteEncoding> = new Set(['Gb18030', 'Big5', 'KsC5601']);

const modelTables = new Map<string, string[]>();
/** Table names for messages, computed once (codepage-encoder's lookup is slow). */
const tableNames = new Map<string, string>();
const tableTitle = (name: string): string => {
  let t = tableNames.get(name);
  if (t === undefined) {
    t = describeTable(name);
    tableNames.set(name, t);
  }
  return t;
};

/** The model's table `name` with international set `intl` (ESC R) applied at the 12 national positions. */
function modelTable(name: string, intl: number): string[] {
  const key = `${name}/${intl}`;
  let out = modelTables.get(key);
  if (!out) {
    out = [...singleByteTableOf(name)];
    for (let b = 0; b < 0x20; b++) out[b] = String.fromCharCode(b);
    const set = INTERNATIONAL_SETS.get(intl);
    if (set && intl !== 0) INTL_POSITIONS.forEach((pos, i) => (out![pos] = set.chars[i]));
    modelTables.set(key, out);
  }
  return out;
}

/**
 * The ESC/POS text codec of a job, from the printer's model (the default model of ESC/POS
 * when the context names none): `ESC t n` is the model's table n (src/engines/models), decoded
 * by src/engines/text; a table number the model lacks is reported naming the table Epson
 * gives that number; Kanji mode decodes `multiByteEncoding` (the model's default unless the
 * printer's settings choose one). Contexts with the legacy `kanjiEncoding` keep it.
 */
export function escPosTextCodec(ctx: PrinterContext): TextCodec {
  const model = ctx.model ?? defaultModelFor('EscPos');
  const numbering = codeTablesFor(model, 'EscPos');
  const tableName = (n: number): string | undefined => {
    const name = numbering[String(n)];
    return name && isSupportedTable(name) ? name : undefined;
  };
  const first = tableName(0) ?? 'cp437';
  const encoding = ctx.multiByteEncoding ?? model.defaultMultiByteEncoding;
  const legacy = ctx.kanjiEncoding;
  const kanji: MultiByteSystem | null = legacy ?? MULTI_BYTE_SYSTEM[encoding];
  return {
    codeTable(n) {
      const name = tableName(n);
      if (name) return { name: tableTitle(name), chars: modelTable(name, 0) };
      const epson = CODE_PAGES.get(n);
      if (epson) return { name: epson, chars: null };
      const listed = numbering[String(n)];
      return listed ? { name: listed, chars: null } : undefined;
    },
    singleByte: (n, intl) => modelTable(tableName(n) ?? first, intl),
    kanji,
    bootsInKanjiMode: legacy !== undefined || (ctx.multiByteEncoding !== undefined && BOOTS_IN_KANJI.has(ctx.multiByteEncoding)),
    multiByteLength,
    decodeMultiByte,
    isWide,
  };
}
