/**
 * Shared vocabulary of the Star command families (StarPRNT and Star Line Mode).
 *
 * Star commands are identified by more bytes than the framework's table keys on (ESC GS a,
 * ESC RS F, ESC GS y S 0, ESC # * LF NUL ...). Each Star command is one definition carrying
 * its full identifying bytes, length parser, description and handler; `starTable` (trie.ts)
 * joins the definitions that share their first two bytes into one table entry that finds the
 * right definition by the bytes after them.
 */
import type { LenFn, Outcome } from '../core/commands.ts';
import type { StarMachine } from './machine.ts';

export const ESC = 0x1b, GS = 0x1d, RS = 0x1e, FS = 0x1c, LF = 0x0a, NUL = 0x00;

/** The code of a command letter: `ch('E')` = 0x45. */
export const ch = (c: string): number => c.charCodeAt(0);

export interface StarCommand {
  /** The bytes that identify the command (1 to 5), e.g. [ESC, GS, ch('a')]. */
  readonly bytes: readonly number[];
  /** The command's name in Star's manuals, e.g. "ESC GS a n". */
  readonly name: string;
  /** What the command does, as the manual names it. */
  readonly summary: string;
  readonly length: LenFn;
  /** Leading bytes shown in the mnemonic (header, not image data). Default 12. */
  readonly header?: number;
  run(machine: StarMachine, b: Uint8Array, raw: string): Outcome;
}

export type StarFamily = readonly StarCommand[];

/** Star parameters are given either as a number or as its ASCII digit ("0" = 48). */
export const digit = (n: number): number => (n >= 0x30 && n <= 0x39 ? n - 0x30 : n);

/** Parameters Star also takes as an ASCII hexadecimal digit ("0".."9", "A".."F" = 0..15). */
export const hexDigit = (n: number): number => (n >= 0x41 && n <= 0x46 ? n - 0x41 + 10 : digit(n));

/**
 * Star's default line feed: 4 mm (ESC z 1), 32 dots at 8 dots/mm; ESC 0 is 3 mm (24 dots),
 * the height of one 24-dot bit image band.
 */
export const STAR_LINE_SPACING = 32;
export const STAR_LINE_SPACING_3MM = 24;
