/**
 * Command tables for line-oriented text protocols (EPL): the same
 * abstraction as commands.ts (families of entries, each entry one command with its name,
 * summary, parameter parser and handler; two entries for one name throw when the table is
 * built, at module load), keyed by the command's name at the start of a line instead of by
 * bytes. What an entry's parser and handler look like is the engine's (a label language
 * stores drawing commands in forms, runs others at once); this table only finds entries.
 */
import type { CommandDescriptor } from './commands.ts';

export interface LineCommandDescriptor extends CommandDescriptor {
  /**
   * False for commands without parameters: anything but spaces after the name means another
   * word ("NOPE" is not N), so the lookup goes on (and ends up unknown).
   */
  takesParameters: boolean;
}

export class LineCommandTable<E extends LineCommandDescriptor> {
  private readonly byName = new Map<string, E>();
  /** Names longest first, so that "LO" wins over "L" and "^ee" over "^@". */
  private readonly names: readonly string[];

  constructor(families: readonly (readonly E[])[]) {
    for (const family of families) {
      for (const e of family) {
        const twin = this.byName.get(e.name);
        if (twin) throw new Error(`Two commands named ${e.name}: ${twin.summary}, ${e.summary}`);
        this.byName.set(e.name, e);
      }
    }
    this.names = [...this.byName.keys()].sort((a, b) => b.length - a.length);
  }

  /**
   * The command a line starts with and the text after its name, or null when none. Names are
   * case-sensitive; a longer name wins ("PA" is Print Automatic) unless the shorter command
   * takes the rest as parameters and the longer one cannot ("P2" is Print 2 labels).
   */
  identify(text: string): { entry: E; rest: string } | null {
    for (const name of this.names) {
      if (!text.startsWith(name)) continue;
      const rest = text.slice(name.length);
      const entry = this.byName.get(name)!;
      if (!entry.takesParameters && rest.trim() !== '') continue;
      return { entry, rest };
    }
    return null;
  }

  /** The entry named `name` exactly. */
  get(name: string): E | undefined {
    return this.byName.get(name);
  }

  /** Every entry (for docs and tests). */
  entries(): E[] {
    return [...this.byName.values()];
  }
}
