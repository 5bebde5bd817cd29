/**
 * ^CI character sets: how the bytes of field data become characters.
 *
 * ^CI0–^CI13 are Zebra Code Page 850 (0–12 with national replacements of a few ASCII
 * characters, which are not applied here: the base page prints), ^CI27 is Windows-1252,
 * ^CI28 UTF-8, ^CI29 UTF-16 big endian, ^CI30 UTF-16 little endian. Other sets are reported
 * and print as Code Page 850.
 */
import { lookupCodePage } from '../epl/codepages.ts';

export interface Charset {
  id: number;
  name: string;
  decode(bytes: string): string;
  /** False when the set is not emulated and Code Page 850 stands in. */
  exact: boolean;
}

const cp850 = lookupCodePage('1')!.decode;
const cp1252 = lookupCodePage('A')!.decode;

function bytesOf(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

const utf8 = new TextDecoder('utf-8');
const utf16be = new TextDecoder('utf-16be');
const utf16le = new TextDecoder('utf-16le');

const NATIONAL = ['U.S.A. 1', 'U.S.A. 2', 'U.K.', 'Holland', 'Denmark/Norway', 'Sweden/Finland', 'Germany', 'France 1', 'France 2', 'Italy', 'Spain', 'Miscellaneous', 'Japan (ASCII with Yen symbol)'];

export function charset(id: number): Charset {
  if (id >= 0 && id <= 12) return { id, name: `${NATIONAL[id]} (Code Page 850)`, decode: cp850, exact: id <= 1 };
  switch (id) {
    case 13:
      return { id, name: 'Zebra Code Page 850', decode: cp850, exact: true };
    case 27:
      return { id, name: 'Zebra Code Page 1252', decode: cp1252, exact: true };
    case 28:
      return { id, name: 'Unicode UTF-8', decode: (s) => utf8.decode(bytesOf(s)), exact: true };
    case 29:
      return { id, name: 'Unicode UTF-16 Big-Endian', decode: (s) => utf16be.decode(bytesOf(s)), exact: true };
    case 30:
      return { id, name: 'Unicode UTF-16 Little-Endian', decode: (s) => utf16le.decode(bytesOf(s)), exact: true };
    default:
      return { id, name: `character set ${id}`, decode: cp850, exact: false };
  }
}

export const DEFAULT_CHARSET = charset(0);
