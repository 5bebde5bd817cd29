import { CHARACTERS } from './commands/characters.ts';
import { CODES } from './commands/codes.ts';
import { CONTROLS, UNKNOWN_CONTROL, UNKNOWN_ESC } from './commands/controls.ts';
import { DEVICE } from './commands/device.ts';
import { GRAPHICS } from './commands/graphics.ts';
import { PAGE_MODE } from './commands/page-mode.ts';
import { POSITION } from './commands/position.ts';
import { starTable } from './trie.ts';

/**
 * The Star command tables. Star Line Mode is StarPRNT's base: StarPRNT adds page mode.
 * Adding a command is one definition in a family file (commands/*.ts) and a test.
 */
const COMMON = [CONTROLS, CHARACTERS, POSITION, GRAPHICS, CODES, DEVICE];

export const STAR_LINE_COMMANDS = starTable(COMMON, UNKNOWN_CONTROL, UNKNOWN_ESC);
export const STAR_PRNT_COMMANDS = starTable([...COMMON, PAGE_MODE], UNKNOWN_CONTROL, UNKNOWN_ESC);
