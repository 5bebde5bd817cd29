/**
 * ^CI character sets: how the bytes of field data become characters.
 *
 * - ^CI0–^CI12: Zebra Code Page 850 with a national set's replacements at ten ASCII positions
 *   (NATIONAL_SETS below); ^CI13 is Code Page 850 itself. The single-byte sets follow the
 *   printer model's ^CI numbering (src/engines/models: 27 Windows-1252, 31 1250, 33 1251,
 *   34 1253, 35 1254, 36 1255), decoded with the shared printer text tables (src/engines/text).
 * - ^CI28 UTF-8, ^CI29 / ^CI30 UTF-16 big / little endian.
 * - The Asian sets (ASIAN below): ^CI14 and ^CI17 16-bit Unicode, ^CI15 Shift-JIS, ^CI16 EUC,
 *   ^CI24 8-bit access to Unicode, ^CI26 the printer's Asian multi-byte encoding with ASCII
 *   transparency, decoded with the shared multi-byte decoders.
 *
 * A set the model does not have is reported and prints as Code Page 850.
 */
import { codeTablesFor, defaultModelFor, type MultiByteEncoding, type PrinterModel } from '../models/index.ts';
import { decodeEucJp, decodeMultiByte, describeTable, singleByteTable, type DecodableMultiByteEncoding } from '../text/index.ts';

export interface Charset {
  id: number;
  name: string;
  /** Field data → the characters a text field prints (with the set's national glyphs). */
  decode(bytes: string): string;
  /**
   * Field data → the characters a bar code encodes. The national replacements are glyphs of
   * the fonts: a bar code encodes the byte 5Ch as a backslash whatever ^CI0 prints for it.
   */
  decodeData(bytes: string): string;
  /** False when the set is not emulated and Code Page 850 stands in. */
  exact: boolean;
  /** ^CIa,s1,d1,…: remapping pairs apply to the single-byte sets only. */
  remappable: boolean;
}

function bytesOf(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

const UNICODE: Record<number, { name: string; decoder: TextDecoder }> = {
  28: { name: 'Unicode UTF-8', decoder: new TextDecoder('utf-8') },
  29: { name: 'Unicode UTF-16 Big-Endian', decoder: new TextDecoder('utf-16be') },
  30: { name: 'Unicode UTF-16 Little-Endian', decoder: new TextDecoder('utf-16le') },
};

/**
 * The positions the national sets of ^CI0–^CI12 replace, and each set's characters there, in
 * that order. Source: Zebra's "International Character Sets" chart of the ZPL II Programming
 * Guide (^CI), as transcribed in zebrash (github.com/ingridhq/zebrash,
 * internal/encodings/decode.go, whose chart also has a 30h column that no set changes), and
 * Zebra's support note "Backslash (\) and Cent sign (¢)" (cpws.zebra.com/cpws/docs/zpl/
 * backslash_cent.htm): under the power-up ^CI0 a backslash prints as ¢, ^CI13 prints it.
 * Holland's 5Ch and 7Ch are the Dutch IJ ligatures (one glyph each; zebrash writes "IJ").
 */
const NATIONAL_POSITIONS = [0x23, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d] as const;
const NATIONAL_SETS: ReadonlyArray<{ name: string; chars: string }> = [
  { name: 'U.S.A. 1', chars: '#@[¢]^`{|}' },
  { name: 'U.S.A. 2', chars: '#@⅓¢⅔^`¼½¾' },
  { name: 'U.K.', chars: '£@[¢]^`{|}' },
  { name: 'Holland', chars: 'ƒ§[Ĳ]^`{ĳ}' },
  { name: 'Denmark/Norway', chars: '#@ÆØÅ^`æøå' },
  { name: 'Sweden/Finland', chars: 'ÜÉÄÖÅÜéäöå' },
  { name: 'Germany', chars: '#§ÄÖÜ^`äöü' },
  { name: 'France 1', chars: '£à[ç]^`é|ù' },
  { name: 'France 2', chars: '#àâçêîôéùè' },
  { name: 'Italy', chars: '£§[çé^ùàòè' },
  { name: 'Spain', chars: '#§¡Ñ¿^`{ñç' },
  { name: 'Miscellaneous', chars: '£ÉÄÖÜ^äëïö' },
  { name: 'Japan', chars: '#@[¥]^`{|}' },
];

/** The characters a national set prints at each replaced position (an exported view for tests). */
export function nationalReplacements(id: number): ReadonlyMap<number, string> {
  const set = NATIONAL_SETS[id];
  const out = new Map<number, string>();
  if (!set) return out;
  [...set.chars].forEach((ch, i) => {
    if (ch.codePointAt(0) !== NATIONAL_POSITIONS[i]) out.set(NATIONAL_POSITIONS[i], ch);
  });
  return out;
}

const BACKSLASH = 0x5c;
const AMPERSAND = 0x26;

/**
 * A decoder through a 256-character table. Control bytes (below 0x20) stay as they are: in
 * field data they are data (GS, RS and EOT of a MaxiCode or GS1 message), not glyphs. `\&`,
 * the ^FB line break, stays `\&` whatever glyph the set prints for a backslash.
 */
function tableDecoder(chars: readonly string[]) {
  return (s: string): string => {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const b = s.charCodeAt(i) & 0xff;
      if (b < 0x20) out += String.fromCharCode(b);
      else if (b === BACKSLASH && (s.charCodeAt(i + 1) & 0xff) === AMPERSAND) out += '\\';
      else out += chars[b];
    }
    return out;
  };
}

const decoders = new Map<string, (s: string) => string>();

/** The decoder of code table `table`, with national set `national` applied when given (cached). */
function singleByteDecoder(table: string, national?: number): (s: string) => string {
  const key = `${table}/${national ?? ''}`;
  let d = decoders.get(key);
  if (!d) {
    const chars = [...singleByteTable(table)];
    if (national !== undefined) for (const [pos, ch] of nationalReplacements(national)) chars[pos] = ch;
    d = tableDecoder(chars);
    decoders.set(key, d);
  }
  return d;
}

const ASIAN_ENCODINGS: readonly DecodableMultiByteEncoding[] = ['ShiftJis', 'Gb18030', 'Big5', 'KsC5601'];
/**
 * ^CI26's encoding when the printer's multi-byte encoding is not an Asian one: GB 18030, the
 * encoding the guide names for ^CI26 (its four-byte form included).
 */
const DEFAULT_ASIAN_ENCODING: DecodableMultiByteEncoding = 'Gb18030';
const ENCODING_NAMES: Record<DecodableMultiByteEncoding, string> = { ShiftJis: 'Shift-JIS', Gb18030: 'GB 18030', Big5: 'Big5', KsC5601: 'KS C 5601 (EUC-KR)', Utf8: 'UTF-8' };

/**
 * The Asian and 16-bit sets. ZPL II Programming Guide, ^CI: 14 "16-bit (Unicode) encoded
 * scalable fonts" (now "Double Byte Asian Encodings"; with ZTools' table, which is the
 * font's Unicode encoding), 15 Shift-JIS, 16 "EUC-Kanji" (now "EUC-JP and EUC-CN"),
 * 17 "Unicode (for Unicode-encoded fonts)" (now "Deprecated - UCS-2 Big Endian"), 24 "8-bit
 * access to Unicode-encoded fonts" (now "Single Byte Asian Encoding"), 26 "Multibyte Asian
 * Encodings with ASCII Transparency": 7Fh and below are single bytes, 80h–FEh start a
 * two-byte character (four bytes in GB 18030). Which Asian encoding 16 and 26 mean depends
 * on the printer's fonts; here it is the printer's multi-byte encoding setting.
 */
function asianCharset(id: number, multiByte: MultiByteEncoding): { name: string; decode: (s: string) => string } | null {
  const asian = (ASIAN_ENCODINGS as readonly string[]).includes(multiByte) ? (multiByte as DecodableMultiByteEncoding) : null;
  switch (id) {
    case 14: {
      const utf16 = UNICODE[29].decoder;
      return { name: '16-bit Unicode (big-endian)', decode: (s) => utf16.decode(bytesOf(s)) };
    }
    case 15:
      return { name: 'Shift-JIS', decode: (s) => decodeMultiByte('ShiftJis', bytesOf(s)) };
    case 16:
      // EUC-CN is GB 2312 in EUC form, which the GB 18030 decoder reads.
      return asian === 'Gb18030'
        ? { name: 'EUC-CN', decode: (s) => decodeMultiByte('Gb18030', bytesOf(s)) }
        : { name: 'EUC-JP', decode: (s) => decodeEucJp(bytesOf(s)) };
    case 24:
      // A byte is the Unicode character of the same number (U+0000–U+00FF).
      return { name: '8-bit access to Unicode', decode: (s) => s.replace(/[^\x00-\xff]/g, (c) => String.fromCharCode(c.charCodeAt(0) & 0xff)) };
    case 26: {
      const encoding = asian ?? DEFAULT_ASIAN_ENCODING;
      return { name: `${ENCODING_NAMES[encoding]} with ASCII transparency`, decode: (s) => decodeMultiByte(encoding, bytesOf(s)) };
    }
    default:
      return null;
  }
}

/** The form of ^CI17's Unicode field data: 8 after ^F8 (UTF-8), 16 after ^F16 (UCS-2/UTF-16 big-endian, the default). */
export type UnicodeForm = 8 | 16;

/**
 * ^CI17, "Unicode (for Unicode-encoded fonts)", deprecated "along with the ^F8 and ^F16
 * commands that are required for the ^CI17 command to function" (guide, ^CI). The guide
 * gives no more: ^F8 and ^F16 are read here as the 8- and 16-bit Unicode forms, UTF-8 and
 * big-endian UTF-16 (what the guide calls ^CI17 today: UCS-2 Big Endian).
 */
function unicode17(form: UnicodeForm): Charset {
  const decoder = UNICODE[form === 8 ? 28 : 29].decoder;
  const decode = (s: string) => decoder.decode(bytesOf(s));
  return { id: 17, name: form === 8 ? 'Unicode, UTF-8 (^F8)' : 'Unicode, UCS-2 Big-Endian', decode, decodeData: decode, exact: true, remappable: false };
}

/**
 * The ^CI set `id` of `model` (default: the default ZPL model); `multiByte` is the printer's
 * multi-byte encoding (settings.multiByteEncoding), which picks ^CI16's and ^CI26's encoding;
 * `unicodeForm` is ^CI17's (^F8 / ^F16).
 */
export function charset(id: number, model: PrinterModel = defaultModelFor('Zpl'), multiByte: MultiByteEncoding = 'None', unicodeForm: UnicodeForm = 16): Charset {
  if (id === 17) return unicode17(unicodeForm);
  const unicode = UNICODE[id];
  if (unicode) {
    const decode = (s: string) => unicode.decoder.decode(bytesOf(s));
    return { id, name: unicode.name, decode, decodeData: decode, exact: true, remappable: false };
  }
  const asian = asianCharset(id, multiByte);
  if (asian) return { id, name: asian.name, decode: asian.decode, decodeData: asian.decode, exact: true, remappable: false };
  const table = codeTablesFor(model, 'Zpl')[String(id)];
  if (table) {
    const national = NATIONAL_SETS[id];
    const name = national ? `${national.name} (${describeTable(table)} with national characters)` : describeTable(table);
    return { id, name, decode: singleByteDecoder(table, national ? id : undefined), decodeData: singleByteDecoder(table), exact: true, remappable: true };
  }
  const fallback = singleByteDecoder('cp850');
  return { id, name: `${RESERVED.has(id) ? 'reserved ' : ''}character set ${id}`, decode: fallback, decodeData: fallback, exact: false, remappable: true };
}

/**
 * ^CIa,s1,d1,s2,d2,…: the byte d prints the character that byte s has in the set (the
 * guide's example ^CI0,36,21 makes `!` print `$`). Single-byte sets only.
 */
export function remapped(base: Charset, pairs: ReadonlyArray<[source: number, destination: number]>): Charset {
  if (pairs.length === 0 || !base.remappable) return base;
  const map = new Map<number, number>();
  for (const [source, destination] of pairs) map.set(destination, source);
  const through = (decode: (s: string) => string) => (s: string) => decode(Array.from(s, (ch) => String.fromCharCode(map.get(ch.charCodeAt(0)) ?? ch.charCodeAt(0))).join(''));
  return {
    ...base,
    name: `${base.name}, ${pairs.length} character${pairs.length === 1 ? '' : 's'} remapped`,
    decode: through(base.decode),
    decodeData: through(base.decodeData),
  };
}

/** ^CI numbers the guide reserves. */
const RESERVED: ReadonlySet<number> = new Set([18, 19, 20, 21, 22, 23, 25, 32]);

export const DEFAULT_CHARSET = charset(0);
