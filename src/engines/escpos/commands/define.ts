/** Shared vocabulary of the ESC/POS command families. */
import type { CommandEntry, CommandFamily } from '../../core/commands.ts';
import type { EscPosMachine } from '../machine.ts';

export const ESC = 0x1b, GS = 0x1d, FS = 0x1c, DLE = 0x10;

export type EscPosCommand = CommandEntry<EscPosMachine>;
export type EscPosFamily = CommandFamily<EscPosMachine>;

/** The code of a command letter: `ch('E')` = 0x45. */
export const ch = (c: string): number => c.charCodeAt(0);
