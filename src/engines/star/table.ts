import { CHARACTERS } from './commands/characters.ts';
import { CODES } from './commands/codes.ts';
import { CONTROLS, UNKNOWN_CONTROL, UNKNOWN_ESC } from './commands/controls.ts';
import { DEVICE } from './commands/device.ts';
import { GRAPHICS } from './commands/graphics.ts';
import { PAGE_MODE } from './commands/page-mode.ts';
import { POSITION } from './commands/position.ts';
import { starTable } from './trie.ts';

/**
 * The Star command tables. StarPRNT grew out of Star Line Mode and the two share every command
 * emulated here (Star Line Mode's specification has page mode too, for the models that have
 * it); two tables keep a command of one language from reaching the other as it is added.
 * Adding a command is one definition in a family file (commands/*.ts) and a test.
 */
const COMMON = [CONTROLS, CHARACTERS, POSITION, GRAPHICS, CODES, DEVICE, PAGE_MODE];

export const STAR_LINE_COMMANDS = starTable(COMMON, UNKNOWN_CONTROL, UNKNOWN_ESC);
export const STAR_PRNT_COMMANDS = starTable(COMMON, UNKNOWN_CONTROL, UNKNOWN_ESC);
