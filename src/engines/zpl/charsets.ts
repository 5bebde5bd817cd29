/**
 * ^CI character sets: how the bytes of field data become characters, by the printer model's
 * ^CI numbering (src/engines/models: 0–13 Zebra Code Page 850, 27 Windows-1252, 31 1250,
 * 33 1251, 34 1253, 35 1254, 36 1255) decoded with the shared printer text tables
 * (src/engines/text). ^CI28 is UTF-8, ^CI29 / ^CI30 UTF-16 big / little endian. ^CI1–^CI12's
 * national replacements of a few ASCII characters are not applied (the base page prints); a
 * set the model does not have is reported and prints as Code Page 850.
 */
import { codeTablesFor, defaultModelFor, type PrinterModel } from '../models/index.ts';
import { decodeSingleByte, describeTable } from '../text/index.ts';

export interface Charset {
  id: number;
  name: string;
  decode(bytes: string): string;
  /** False when the set is not emulated and Code Page 850 stands in. */
  exact: boolean;
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

const NATIONAL = ['U.S.A. 1', 'U.S.A. 2', 'U.K.', 'Holland', 'Denmark/Norway', 'Sweden/Finland', 'Germany', 'France 1', 'France 2', 'Italy', 'Spain', 'Miscellaneous', 'Japan', 'Code Page 850'];

/**
 * A single-byte table's decoder that keeps control bytes (below 0x20) as they are: in field
 * data they are data (GS, RS and EOT of a MaxiCode or GS1 message), not the table's glyphs.
 */
const single = (table: string) => (s: string): string => {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f]/.test(s)) return decodeSingleByte(table, bytesOf(s));
  let out = '';
  let run = '';
  for (const ch of s) {
    if (ch.charCodeAt(0) < 0x20) {
      if (run) out += decodeSingleByte(table, bytesOf(run));
      run = '';
      out += ch;
    } else run += ch;
  }
  return run ? out + decodeSingleByte(table, bytesOf(run)) : out;
};

/** The ^CI set `id` of `model` (default: the default ZPL model). */
export function charset(id: number, model: PrinterModel = defaultModelFor('Zpl')): Charset {
  const unicode = UNICODE[id];
  if (unicode) return { id, name: unicode.name, decode: (s) => unicode.decoder.decode(bytesOf(s)), exact: true };
  const table = codeTablesFor(model, 'Zpl')[String(id)];
  if (table) {
    const name = id <= 13 ? `${NATIONAL[id]} (${describeTable(table)})` : describeTable(table);
    return { id, name, decode: single(table), exact: true };
  }
  return { id, name: `character set ${id}`, decode: single('cp850'), exact: false };
}

/**
 * ^CIa,s1,d1,s2,d2,…: the byte d prints the character that byte s has in the set (the
 * guide's example ^CI0,36,21 makes `!` print `$`). Single-byte sets only.
 */
export function remapped(base: Charset, pairs: ReadonlyArray<[source: number, destination: number]>): Charset {
  if (pairs.length === 0 || base.id >= 28) return base;
  const map = new Map<number, number>();
  for (const [source, destination] of pairs) map.set(destination, source);
  return {
    ...base,
    name: `${base.name}, ${pairs.length} character${pairs.length === 1 ? '' : 's'} remapped`,
    decode: (s) => base.decode(Array.from(s, (ch) => String.fromCharCode(map.get(ch.charCodeAt(0)) ?? ch.charCodeAt(0))).join('')),
  };
}

export const DEFAULT_CHARSET = charset(0);
