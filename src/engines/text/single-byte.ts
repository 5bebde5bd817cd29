import CodepageEncoder, { type Codepage } from '@point-of-sale/codepage-encoder';

/**
 * Single-byte code tables as printers hold them. The tables come from
 * `@point-of-sale/codepage-encoder`, which keeps the printer vendors' code pages (PC851,
 * PC853, the Thai character codes, Epson/Star katakana, the vendors' Hebrew pages, ...) that
 * general-purpose decoders lack; receipt-printer-encoder encodes with the same tables, so a
 * POS app and Slipstream agree byte for byte. Table names are that package's ids.
 */

/** What a byte with no character in the table prints as (the table leaves it undefined). */
export const UNDEFINED_CHARACTER = '\ufffd';

const SUPPORTED: ReadonlySet<string> = new Set(CodepageEncoder.getEncodings());

/** True when `name` is a code table Slipstream can decode (a codepage-encoder id). */
export function isSupportedTable(name: string): name is Codepage {
  return SUPPORTED.has(name);
}

/** Every decodable table name. */
export function supportedTables(): readonly string[] {
  return [...SUPPORTED];
}

const tables = new Map<string, readonly string[]>();

/**
 * The 256 characters of a table, byte → string (one code point, or UNDEFINED_CHARACTER).
 * Built once per table and cached, so decoding a byte is an array lookup. Bytes below 0x20
 * keep the table's glyphs (PC437's ☺ at 0x01): the engines act on control codes before
 * looking a byte up, so a byte that reaches the table is one the printer prints.
 */
export function singleByteTable(name: string): readonly string[] {
  const hit = tables.get(name);
  if (hit) return hit;
  if (!isSupportedTable(name)) throw new RangeError(`Unknown code table "${name}"`);
  const points = CodepageEncoder.getCodepoints(name, true);
  const table = Array.from({ length: 256 }, (_, byte) => {
    const cp = points[byte];
    return typeof cp === 'number' && (cp > 0 || byte === 0) ? String.fromCodePoint(cp) : UNDEFINED_CHARACTER;
  });
  tables.set(name, table);
  return table;
}

/** Decodes bytes printed with one code table. Throws RangeError for a table `isSupportedTable` rejects. */
export function decodeSingleByte(name: string, bytes: ArrayLike<number>): string {
  const table = singleByteTable(name);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += table[bytes[i] & 0xff];
  return out;
}

/** A table's name for messages: `cp851 (Greek)`. */
export function describeTable(name: string): string {
  if (!isSupportedTable(name)) return name;
  return `${name} (${CodepageEncoder.getEncoding(name).name})`;
}
