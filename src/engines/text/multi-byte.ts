import iconv from 'iconv-lite';
import type { MultiByteEncoding } from '../models/types.ts';

/**
 * Multi-byte text: the regional encodings of ESC/POS Kanji mode (`FS &`), UTF-8 (`FS ( C`)
 * and Star multi-byte text. The engine frames each character with `multiByteLength` (so a
 * character split across TCP chunks is kept whole) and decodes it with `decodeMultiByte`.
 */
export type DecodableMultiByteEncoding = Exclude<MultiByteEncoding, 'None'>;

/** iconv-lite's codec per encoding. KS C 5601 as printers send it is EUC-KR (its CP949 superset decodes both). */
const ICONV_NAMES: Record<Exclude<DecodableMultiByteEncoding, 'Utf8'>, string> = {
  ShiftJis: 'shift_jis',
  Gb18030: 'gb18030',
  Big5: 'big5',
  KsC5601: 'euc-kr',
};

/** `multiByteLength` answer when the second byte is needed to tell (GB18030 two- or four-byte form). */
export const NEEDS_SECOND_BYTE = 0;

/**
 * How many bytes the character starting with `lead` takes: 1 for a single-byte character
 * (ASCII, Shift-JIS half-width katakana), 2, 3 or 4 for a multi-byte one, or
 * NEEDS_SECOND_BYTE when `second` is not known yet and decides it (GB18030 only).
 * A byte no character can start with counts as 1 (it decodes to U+FFFD).
 */
export function multiByteLength(encoding: DecodableMultiByteEncoding, lead: number, second?: number): number {
  switch (encoding) {
    case 'ShiftJis':
      return (lead >= 0x81 && lead <= 0x9f) || (lead >= 0xe0 && lead <= 0xfc) ? 2 : 1;
    case 'Gb18030':
      if (lead < 0x81 || lead > 0xfe) return 1;
      if (second === undefined) return NEEDS_SECOND_BYTE;
      return second >= 0x30 && second <= 0x39 ? 4 : 2;
    case 'Big5':
    case 'KsC5601':
      return lead >= 0x81 && lead <= 0xfe ? 2 : 1;
    case 'Utf8':
      if (lead >= 0xc2 && lead <= 0xdf) return 2;
      if (lead >= 0xe0 && lead <= 0xef) return 3;
      if (lead >= 0xf0 && lead <= 0xf4) return 4;
      return 1;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Decodes bytes in a multi-byte encoding; invalid sequences give U+FFFD, never an exception. */
export function decodeMultiByte(encoding: DecodableMultiByteEncoding, bytes: Uint8Array | readonly number[]): string {
  const data = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
  if (encoding === 'Utf8') return utf8.decode(data);
  // iconv-lite reads any Uint8Array; its types ask for a Buffer.
  return iconv.decode(data as unknown as Buffer, ICONV_NAMES[encoding]);
}

/**
 * EUC-JP, which no unit's multi-byte system is but ZPL's ^CI16 selects. iconv-lite's codec
 * (pure JavaScript, so it runs alike in workerd, Node and browsers; invalid sequences give
 * U+FFFD).
 */
export function decodeEucJp(bytes: Uint8Array | readonly number[]): string {
  const data = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
  return iconv.decode(data as unknown as Buffer, 'euc-jp');
}
