/**
 * The ZPL command table: every command is ONE entry carrying the prefixes and code it is
 * sent with (its bytes), what it does (the description shown on its debug element and in
 * docs), and its handler, which parses its parameters with Zebra's defaults and runs it on
 * the label machine. Entries live in small family files; a command that is not in the table
 * is unknown (reported, never dropped silently), and two entries for one command throw when
 * the table is built (at module load, so every test catches it).
 */
import { BARCODE_COMMANDS } from './barcodes.ts';
import { FONT_COMMANDS } from './fonts.ts';
import { FORMAT_COMMANDS } from './format.ts';
import { GRAPHIC_COMMANDS } from './graphics.ts';
import { HOST_COMMANDS } from './host.ts';
import { LABEL_COMMANDS } from './label.ts';
import { ok, type ZplCommand } from './types.ts';

export type { CommandInput, Outcome, ZplCommand } from './types.ts';

const ALL: ZplCommand[] = [...FORMAT_COMMANDS, ...FONT_COMMANDS, ...GRAPHIC_COMMANDS, ...BARCODE_COMMANDS, ...LABEL_COMMANDS, ...HOST_COMMANDS];

const TABLE = new Map<string, ZplCommand>();
for (const c of ALL) {
  for (const id of c.ids) {
    if (TABLE.has(id)) throw new Error(`Two ZPL commands for ${id}`);
    TABLE.set(id, c);
  }
}

/** Prefix changes are handled by the tokenizer; their entries only describe them. */
for (const [code, summary] of [['CC', 'Change Caret'], ['CT', 'Change Tilde'], ['CD', 'Change Delimiter']] as const) {
  const entry: ZplCommand = { ids: [`^${code}`, `~${code}`], summary, run: (_m, _p, input) => ok(`${summary} to '${input.params}'`) };
  TABLE.set(`^${code}`, entry);
  TABLE.set(`~${code}`, entry);
}

export function lookupCommand(prefix: 'format' | 'control', code: string): ZplCommand | undefined {
  return TABLE.get(`${prefix === 'format' ? '^' : '~'}${code}`);
}

/** Every command id (for docs and tests). */
export function commandIds(): string[] {
  return [...TABLE.keys()];
}
