/**
 * The ESC/POS command table: every family of commands/*.ts joined into one lookup structure
 * (two entries with the same bytes throw here, at module load). Adding a command = one entry
 * in its family + a test.
 */
import { CommandTable } from '../core/commands.ts';
import { CHARACTERS, KANJI } from './commands/characters.ts';
import { CODES } from './commands/codes.ts';
import { ESC_Z_CODES } from './commands/esc-z-codes.ts';
import { CONTROLS, UNKNOWN_CONTROL, UNKNOWN_PREFIXED } from './commands/controls.ts';
import { DEVICE } from './commands/device.ts';
import { IMAGES } from './commands/images.ts';
import { PAGE_MODE, POSITION } from './commands/position.ts';
import { PRINT_MODES } from './commands/print-modes.ts';
import { STATUS } from './commands/status.ts';
import type { EscPosMachine } from './machine.ts';

export const ESC_POS_COMMANDS = new CommandTable<EscPosMachine>(
  [CONTROLS, PRINT_MODES, POSITION, PAGE_MODE, CHARACTERS, KANJI, IMAGES, CODES, ESC_Z_CODES, STATUS, DEVICE],
  UNKNOWN_CONTROL,
  UNKNOWN_PREFIXED,
);
