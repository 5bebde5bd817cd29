/**
 * The EPL2 command table: every command name the engine knows, with a one-line description,
 * and the lookup from a line of text to its command. EPL2 command names are case-sensitive.
 */

export type CommandGroup = 'setup' | 'draw' | 'print' | 'form' | 'graphics' | 'status' | 'config';

export interface CommandInfo {
  name: EplCommandName;
  title: string;
  group: CommandGroup;
}

/**
 * Every EPL2 command name, typed: the session's handlers switch on `EplCommandName`, so a case
 * label that is not in this table (a typo) does not compile.
 */
const TABLE = [
  // Label setup and printer configuration.
  { name: 'N', title: 'Clear image buffer', group: 'setup' },
  { name: 'q', title: 'Set label width', group: 'setup' },
  { name: 'Q', title: 'Set label length and gap', group: 'setup' },
  { name: 'R', title: 'Set reference point', group: 'setup' },
  { name: 'ZT', title: 'Print direction: top of image first', group: 'setup' },
  { name: 'ZB', title: 'Print direction: bottom of image first (label turned 180 degrees)', group: 'setup' },
  { name: 'I', title: 'Character set selection', group: 'setup' },
  { name: 'i', title: 'Asian character set selection', group: 'config' },
  { name: 'S', title: 'Speed select', group: 'config' },
  { name: 'D', title: 'Density', group: 'config' },
  { name: 'O', title: 'Hardware options', group: 'config' },
  { name: 'JF', title: 'Enable top of form backup', group: 'config' },
  { name: 'JB', title: 'Disable top of form backup', group: 'config' },
  { name: 'JC', title: 'Disable top of form backup for cutter and dispenser', group: 'config' },
  { name: 'TS', title: 'Set real time clock', group: 'config' },
  { name: 'TT', title: 'Define time format', group: 'config' },
  { name: 'TD', title: 'Define date format', group: 'config' },
  { name: 'Y', title: 'Serial port setup', group: 'config' },
  { name: 'r', title: 'Double buffer mode', group: 'config' },
  { name: 'W', title: 'Windows mode', group: 'config' },
  { name: 'H', title: 'Heat/contrast adjustment', group: 'config' },
  { name: 'M', title: 'Memory allocation', group: 'config' },
  { name: 'oR', title: 'Character substitution (euro)', group: 'config' },
  { name: 'oE', title: 'Line mode font substitution', group: 'config' },
  { name: 'oH', title: 'Macro PDF offset', group: 'config' },
  { name: 'oM', title: 'Disable initial esc sequence feed', group: 'config' },
  { name: 'oB', title: 'Cancel auto bar code optimisation', group: 'config' },
  { name: 'oW', title: 'Custom print width', group: 'config' },
  { name: 'oY', title: 'Print speed (Japanese models)', group: 'config' },
  { name: 'xa', title: 'Auto sense', group: 'config' },
  { name: 'AUTOFR', title: 'Automatic form printing', group: 'config' },
  { name: 'OEPL1', title: 'Set printer to EPL mode', group: 'config' },
  { name: '@', title: 'Reset printer', group: 'config' },
  { name: '^@', title: 'Reset printer', group: 'config' },
  { name: '^default', title: 'Restore factory defaults', group: 'config' },
  { name: 'U', title: 'Print configuration label', group: 'config' },
  { name: 'UA', title: 'Enable form and graphics memory reporting', group: 'config' },
  { name: 'UB', title: 'Generate test label', group: 'config' },
  { name: 'UF', title: 'Form information request', group: 'status' },
  { name: 'UG', title: 'Graphics information request', group: 'status' },
  { name: 'UI', title: 'Host prompts / codepage request', group: 'status' },
  { name: 'UM', title: 'Memory status request', group: 'status' },
  { name: 'UN', title: 'Disable error reporting', group: 'status' },
  { name: 'UP', title: 'Print configuration and reply', group: 'status' },
  { name: 'UQ', title: 'Configuration information request', group: 'status' },
  { name: 'US', title: 'Enable error reporting', group: 'status' },
  { name: 'UE', title: 'External font information request', group: 'status' },
  { name: 'eR', title: 'User defined error/status character', group: 'status' },
  { name: '^ee', title: 'Immediate error report', group: 'status' },
  { name: 'EI', title: 'List soft fonts', group: 'status' },
  { name: 'EK', title: 'Delete soft font', group: 'config' },
  { name: 'ES', title: 'Store soft font', group: 'config' },
  // Drawing.
  { name: 'A', title: 'ASCII text', group: 'draw' },
  { name: 'B', title: 'Bar code', group: 'draw' },
  { name: 'b', title: '2D bar code', group: 'draw' },
  { name: 'LO', title: 'Line draw black', group: 'draw' },
  { name: 'LW', title: 'Line draw white (erase)', group: 'draw' },
  { name: 'LE', title: 'Line draw exclusive OR', group: 'draw' },
  { name: 'LS', title: 'Line draw diagonal', group: 'draw' },
  { name: 'X', title: 'Box draw', group: 'draw' },
  // Graphics.
  { name: 'GW', title: 'Direct graphic write', group: 'graphics' },
  { name: 'GG', title: 'Print stored graphic', group: 'graphics' },
  { name: 'GM', title: 'Store graphic (PCX)', group: 'graphics' },
  { name: 'GK', title: 'Delete stored graphic', group: 'graphics' },
  { name: 'GI', title: 'List stored graphics', group: 'graphics' },
  // Forms, variables, counters.
  { name: 'FS', title: 'Store form', group: 'form' },
  { name: 'FE', title: 'End form store', group: 'form' },
  { name: 'FR', title: 'Retrieve form', group: 'form' },
  { name: 'FK', title: 'Delete form', group: 'form' },
  { name: 'FI', title: 'List forms', group: 'form' },
  { name: 'V', title: 'Define variable', group: 'form' },
  { name: 'C', title: 'Define counter', group: 'form' },
  { name: '?', title: 'Download variables and counters', group: 'form' },
  // Printing.
  { name: 'P', title: 'Print', group: 'print' },
  { name: 'PA', title: 'Print automatic', group: 'print' },
] as const satisfies readonly { name: string; title: string; group: CommandGroup }[];

export type EplCommandName = (typeof TABLE)[number]['name'];

const BY_NAME = new Map<string, CommandInfo>(TABLE.map((c) => [c.name, c]));
/** Names longest first, so that "LO" wins over "L" and "^ee" over "^@". */
const NAMES = [...BY_NAME.keys()].sort((a, b) => b.length - a.length);

export function commandInfo(name: string): CommandInfo | undefined {
  return BY_NAME.get(name);
}

export const COMMAND_NAMES: readonly string[] = NAMES;

/**
 * Find the command a line starts with. Two-letter names win over one-letter ones only when the
 * one-letter command could not take that letter as a parameter (e.g. "PA" is Print Automatic,
 * but "P2" is Print 2 labels). Returns null for unknown commands.
 */
export function identify(text: string): { info: CommandInfo; rest: string } | null {
  for (const name of NAMES) {
    if (text.startsWith(name)) {
      const rest = text.slice(name.length);
      // Commands without parameters: anything but spaces after them means another word
      // ("NOPE" is not N), so keep looking (and end up unknown).
      if (NO_PARAMS.has(name as EplCommandName) && rest.trim() !== '') continue;
      return { info: BY_NAME.get(name)!, rest };
    }
  }
  return null;
}

const NO_PARAMS = new Set<EplCommandName>([
  'N', 'ZT', 'ZB', 'JF', 'JB', 'JC', 'UQ', 'US', 'UN', 'UF', 'UG', 'UE', 'UA', 'UB', 'UM', 'UP', 'U',
  'FE', 'FI', 'GI', 'EI', '?', '^ee', '^@', '@', '^default', 'xa', 'AUTOFR', 'OEPL1',
]);
