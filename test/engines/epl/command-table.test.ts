/** EPL's typed command table (src/engines/epl/table.ts over core's LineCommandTable). */
import { describe, expect, it } from 'vitest';
import { LineCommandTable, type LineCommandDescriptor } from '../../../src/engines/core/line-commands.ts';
import { EPL_COMMANDS } from '../../../src/engines/epl/table.ts';
import { debugs, lines, run } from './helpers.ts';

/**
 * Every command name of the EPL2 Programming Guide (Zebra 14245L) the emulator takes, spelled as
 * the guide spells it. A typo in an entry's name leaves the guide's name unknown and fails here.
 */
const GUIDE_NAMES = [
  'N', 'q', 'Q', 'R', 'ZT', 'ZB', 'I', 'i', 'S', 'D', 'O', 'JF', 'JB', 'JC', 'TS', 'TT', 'TD', 'Y', 'r', 'W', 'H', 'M',
  'oR', 'oE', 'oH', 'oM', 'oB', 'oW', 'oY', 'xa', 'AUTOFR', 'OEPL1', '@', '^@', '^default', 'U', 'UA', 'UB', 'UF', 'UG',
  'UI', 'UM', 'UN', 'UP', 'UQ', 'US', 'UE', 'eR', '^ee', 'EI', 'EK', 'ES', 'A', 'B', 'b', 'LO', 'LW', 'LE', 'LS', 'X',
  'GW', 'GG', 'GM', 'GK', 'GI', 'FS', 'FE', 'FR', 'FK', 'FI', 'V', 'C', '?', 'P', 'PA',
];

describe('EPL command table', () => {
  it('has one entry per command of the guide, each with a summary, a parser and a handler', () => {
    const entries = EPL_COMMANDS.entries();
    expect(entries.map((e) => e.name).sort()).toEqual([...GUIDE_NAMES].sort());
    for (const e of entries) {
      expect(e.summary.length, e.name).toBeGreaterThan(3);
      expect(typeof e.parse, e.name).toBe('function');
      const handler = e.kind === 'setup' ? e.apply : e.kind === 'control' ? e.run : e.kind === 'field' ? e.describe : e.parse;
      expect(typeof handler, e.name).toBe('function');
      // The table finds each entry by its own name, with and without parameters after it.
      expect(EPL_COMMANDS.identify(e.name)?.entry, e.name).toBe(e);
      if (e.takesParameters) expect(EPL_COMMANDS.identify(`${e.name}1,2`)?.entry, e.name).toBe(e);
    }
  });

  it('tells a longer name from a command and its parameters', () => {
    expect(EPL_COMMANDS.identify('PA')?.entry.name).toBe('PA');
    expect(EPL_COMMANDS.identify('P2')).toMatchObject({ entry: { name: 'P' }, rest: '2' });
    expect(EPL_COMMANDS.identify('LO10,10,5,5')?.entry.name).toBe('LO');
    // N takes no parameters: "NOPE" is no command at all.
    expect(EPL_COMMANDS.identify('NOPE')).toBeNull();
    expect(EPL_COMMANDS.identify('N  ')?.entry.name).toBe('N');
  });

  it('two commands with one name do not make a table', () => {
    const a: LineCommandDescriptor = { name: 'XX', summary: 'First', takesParameters: true };
    const b: LineCommandDescriptor = { name: 'XX', summary: 'Second', takesParameters: false };
    expect(() => new LineCommandTable([[a], [b]])).toThrow(/Two commands named XX: First, Second/);
    expect(new LineCommandTable([[a]]).identify('XX9')).toEqual({ entry: a, rest: '9' });
  });

  it('a refused parameter reaches the document the same way for every kind of entry', () => {
    const { job } = run(lines('q0', 'LO1,2', 'FKnoquotes"', 'V1', 'ES"font"', 'P0'));
    expect(debugs(job).map((d) => d.debugType)).toEqual(['malformed', 'malformed', 'malformed', 'malformed', 'unsupported', 'malformed']);
    expect(job.errorMessages).toEqual([
      'Line 1: q0: width must be a number of dots',
      'Line 2: LO: expected x,y,width,height in dots',
      'Line 3: FK: expected a form name in quotes',
      'Line 4: V: maximum length must be 1-99',
      'Line 5: ES: soft fonts are not emulated',
      'Line 6: P0: expected labels[,copies] between 1 and 65535',
    ]);
  });
});
