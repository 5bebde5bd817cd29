/**
 * The text hook of the receipt machine: how printable bytes become characters.
 *
 * A protocol chooses ONE `TextCodec` per job from the printer context (model, settings) and
 * the receipt machine decodes every text byte through it. ESC/POS and Star number their code
 * tables differently and printer models hold different tables, so the codec (not the machine)
 * knows the numbering; the machine only asks "the 256 characters of table n" and "how long is
 * this multi-byte character". A table the printer lacks is `null`: the command that selected
 * it reports an error naming the table, and text keeps the previous table.
 */

import { isCombiningMark } from '../text/index.ts';

/** Multi-byte systems: Kanji mode (FS &) encodings, JIS (FS C 0) and UTF-8 (FS ( C). */
export type MultiByteSystem = 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr' | 'jis' | 'utf-8';

export interface CodeTableInfo {
  /** The manual's name of the table, used in descriptions and error messages. */
  name: string;
  /** 256 characters, index = byte; null when this printer lacks the table. */
  chars: string[] | null;
}

export interface TextCodec {
  /** Code table `n` as selected by the protocol's command (ESC t n); undefined when n is not a table number at all. */
  codeTable(n: number): CodeTableInfo | undefined;
  /** The 256 characters of table `n` with international character set `intl` (ESC R) applied. */
  singleByte(n: number, intl: number): string[];
  /** The multi-byte system Kanji mode uses (settings.multiByteEncoding, else the model's); null: an ANK unit, FS & is ignored. */
  readonly kanji: MultiByteSystem | null;
  /** Whether the unit is in Kanji mode at power-on and after ESC @ (Chinese and Korean units). */
  readonly bootsInKanjiMode: boolean;
  /** Bytes the character starting with `lead` (and `second`, -1 when not yet known) takes: 1, 2, 3, 4; 0 = ask again with `second`. */
  multiByteLength(system: MultiByteSystem, lead: number, second: number): number;
  decodeMultiByte(system: MultiByteSystem, bytes: number[]): string;
  /** Whether a decoded code point takes a double-width (Kanji) cell. */
  isWide(codePoint: number): boolean;
}

const codesCache = new WeakMap<string[], Uint16Array>();

/** UTF-16 code of each table entry (single-byte tables are all BMP characters). */
export function tableCodes(table: string[]): Uint16Array {
  let c = codesCache.get(table);
  if (!c) {
    c = new Uint16Array(256);
    for (let i = 0; i < 256; i++) c[i] = table[i].charCodeAt(0);
    codesCache.set(table, c);
  }
  return c;
}

const marksCache = new WeakMap<string[], Uint8Array | null>();

/** Which bytes of a table print as combining marks (Thai, Hebrew points), or null when none do. */
export function combiningMarks(table: string[]): Uint8Array | null {
  let m = marksCache.get(table);
  if (m === undefined) {
    const flags = new Uint8Array(256);
    let any = false;
    for (let i = 0x80; i < 256; i++) {
      const cp = table[i].codePointAt(0) ?? 0;
      if (isCombiningMark(cp)) {
        flags[i] = 1;
        any = true;
      }
    }
    m = any ? flags : null;
    marksCache.set(table, m);
  }
  return m;
}
