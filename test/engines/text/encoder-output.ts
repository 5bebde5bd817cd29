/**
 * Reads text back out of receipt-printer-encoder's ESC/POS bytes for the decoder tests: follows
 * `ESC t n` (through the model's numbering) and decodes the printable bytes of each line with
 * the selected table. Only the commands `.codepage().text()/.line()` emit are understood.
 */
import { decodeSingleByte } from '../../../src/engines/text/index.ts';
import type { CodeTableNumbering } from '../../../src/engines/models/index.ts';

export function escPosLines(bytes: Uint8Array, tables: CodeTableNumbering): { lines: string[]; tablesUsed: string[] } {
  const lines: string[] = [];
  const tablesUsed: string[] = [];
  let table = tables['0'] ?? 'cp437';
  let line = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x1b && bytes[i + 1] === 0x74) {
      table = tables[String(bytes[i + 2])];
      if (!table) throw new Error(`ESC t ${bytes[i + 2]} is not a table of this model`);
      tablesUsed.push(table);
      i += 2;
    } else if (b === 0x1b && bytes[i + 1] === 0x40) {
      i += 1;
    } else if (b === 0x1b || b === 0x1d || b === 0x1c) {
      throw new Error(`unexpected command ${b.toString(16)} ${bytes[i + 1]?.toString(16)} at ${i}`);
    } else if (b === 0x0a) {
      lines.push(line);
      line = '';
    } else if (b >= 0x20) {
      line += decodeSingleByte(table, [b]);
    }
  }
  if (line) lines.push(line);
  return { lines, tablesUsed };
}
