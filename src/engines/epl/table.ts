/**
 * The EPL2 command table: every family of commands/*.ts joined into one lookup by name (two
 * entries with one name throw here, at module load). Adding a command = one entry in its
 * family + a test.
 */
import { LineCommandTable } from '../core/line-commands.ts';
import { CODES_2D } from './commands/codes-2d.ts';
import { CONFIG } from './commands/config.ts';
import type { EplCommand } from './commands/define.ts';
import { DRAWING } from './commands/drawing.ts';
import { FORMS } from './commands/forms.ts';
import { GRAPHICS } from './commands/graphics.ts';
import { PRINT } from './commands/print.ts';
import { SETUP } from './commands/setup.ts';
import { STATUS } from './commands/status.ts';

export const EPL_COMMANDS = new LineCommandTable<EplCommand>([SETUP, DRAWING, CODES_2D, GRAPHICS, FORMS, PRINT, STATUS, CONFIG]);
