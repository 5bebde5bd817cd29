import { describe, expect, it } from 'vitest';
import { fixed } from '../../../src/engines/core/commands.ts';
import { CHARACTERS } from '../../../src/engines/star/commands/characters.ts';
import { CODES } from '../../../src/engines/star/commands/codes.ts';
import { CONTROLS, UNKNOWN_CONTROL, UNKNOWN_ESC } from '../../../src/engines/star/commands/controls.ts';
import { DEVICE } from '../../../src/engines/star/commands/device.ts';
import { GRAPHICS } from '../../../src/engines/star/commands/graphics.ts';
import { PAGE_MODE } from '../../../src/engines/star/commands/page-mode.ts';
import { POSITION } from '../../../src/engines/star/commands/position.ts';
import type { StarCommand } from '../../../src/engines/star/define.ts';
import { STAR_PRNT_COMMANDS } from '../../../src/engines/star/table.ts';
import { starTable } from '../../../src/engines/star/trie.ts';

const FAMILIES = [CONTROLS, CHARACTERS, POSITION, GRAPHICS, CODES, DEVICE, PAGE_MODE];

describe('Star command tables', () => {
  it('every definition has a name and a summary, and is reached by its own bytes', () => {
    for (const def of FAMILIES.flat()) {
      expect(def.name.length, def.name).toBeGreaterThan(0);
      expect(def.summary.length, def.name).toBeGreaterThan(0);
      const bytes = Uint8Array.from([...def.bytes, 0, 0, 0, 0, 0, 0, 0, 0]);
      const entry = def.bytes.length === 1 ? STAR_PRNT_COMMANDS.control(def.bytes[0]) : STAR_PRNT_COMMANDS.lookup(def.bytes[0], def.bytes[1]);
      // A shared two-byte prefix: the entry names every definition under it.
      expect(entry.name.split(' | '), def.name).toContain(def.name);
      // Its length parser reaches the definition's own (not the unknown sequence's).
      expect(entry.length(bytes, bytes.length), def.name).toBe(def.length(bytes, bytes.length));
    }
  });

  it('two definitions with the same bytes refuse to build', () => {
    const twin: StarCommand = { bytes: [0x1b, 0x1d, 0x61], name: 'ESC GS a (twin)', summary: 'x', length: fixed(4), run: () => ({ text: '' }) };
    expect(() => starTable([POSITION, [twin]], UNKNOWN_CONTROL, UNKNOWN_ESC)).toThrow(/Two Star commands/);
  });
});
