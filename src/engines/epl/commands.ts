/**
 * The EPL2 command reference, read from the command table (table.ts, one entry per command in
 * commands/*.ts): names, one-line descriptions and groups for docs and callers.
 */
import type { CommandGroup } from './commands/define.ts';
import { EPL_COMMANDS } from './table.ts';

export type { CommandGroup } from './commands/define.ts';

export interface CommandInfo {
  name: string;
  title: string;
  group: CommandGroup;
}

export function commandInfo(name: string): CommandInfo | undefined {
  const e = EPL_COMMANDS.get(name);
  return e && { name: e.name, title: e.summary, group: e.group };
}

/** Every command name, longest first (the order the table matches a line in). */
export const COMMAND_NAMES: readonly string[] = EPL_COMMANDS.entries().map((e) => e.name).sort((a, b) => b.length - a.length);
