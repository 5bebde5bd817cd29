/**
 * What a ZPL command table entry is, and the small helpers the command families share. An entry
 * is keyed by its `ids` rather than one name because ZPL spells many commands with either
 * prefix (^ and ~, the control prefix): docs/engines.md says how the tables differ.
 */
import type { ZplMachine } from '../machine.ts';
import type { Orientation, Params } from '../params.ts';
import type { Outcome } from '../../core/commands.ts';

/** What a handler reports: the engines' one Outcome (core/commands.ts). */
export type { Outcome } from '../../core/commands.ts';

export interface CommandInput {
  params: string;
  binary?: Uint8Array;
}

export interface ZplCommand {
  /** The command as sent, with its prefix: '^FO', '~HS'. Both prefixes when both exist. */
  ids: readonly string[];
  /** What the command is, as the ZPL II guide names it. */
  summary: string;
  run(m: ZplMachine, p: Params, input: CommandInput): Outcome;
}

/** Largest coordinate or size in dots a command accepts. */
export const MAX_DOTS = 32000;

export const ok = (text: string): Outcome => ({ text });

/** An outcome for a command whose parameters had problems (it still ran with defaults). */
export function checked(p: Params, text: string): Outcome {
  if (p.problems.length === 0) return { text };
  return { text, kind: 'malformed', error: p.problems.join('; ') };
}

/** A setting the emulator records but that changes nothing it draws. */
export function setting(ids: string[], summary: string, record?: (m: ZplMachine, p: Params) => string | void): ZplCommand {
  return {
    ids,
    summary,
    run: (m, p) => {
      const said = record?.(m, p);
      return checked(p, said || `${summary} (setting accepted)`);
    },
  };
}

export function orientationOf(p: Params, i: number, m: ZplMachine): Orientation {
  return p.orientation(i, m.settings.fieldOrientation);
}
