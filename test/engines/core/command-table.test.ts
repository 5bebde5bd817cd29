/** The typed command tables of the engine framework (src/engines/core/commands.ts). */
import { describe, expect, it } from 'vitest';
import { CommandTable, fixed, type CommandEntry } from '../../../src/engines/core/commands.ts';
import { ESC_POS_COMMANDS } from '../../../src/engines/escpos/table.ts';

describe('command tables', () => {
  it('ESC/POS: every command carries its bytes, name, summary, length and handler, once', () => {
    const entries = ESC_POS_COMMANDS.entries();
    expect(entries.length).toBeGreaterThan(90);
    const names = new Set<string>();
    for (const e of entries) {
      expect(e.summary.length, e.name).toBeGreaterThan(3);
      expect(typeof e.run).toBe('function');
      expect(typeof e.length).toBe('function');
      expect(names.has(e.name), e.name).toBe(false);
      names.add(e.name);
      // The table finds each entry by its own bytes.
      const found = e.prefix.length === 1 ? ESC_POS_COMMANDS.control(e.prefix[0]) : ESC_POS_COMMANDS.lookup(e.prefix[0], e.prefix[1]);
      expect(found).toBe(e);
    }
    for (const n of ['ESC 4', 'GS w', 'GS ( ', 'DLE EOT', 'NUL'].map((x) => x.trim())) expect(names.has(n), n).toBe(true);
  });

  it('two commands with the same bytes do not make a table', () => {
    const a: CommandEntry<object> = { prefix: [0x1b, 0x45], name: 'ESC E', summary: 'Emphasized', length: fixed(3), run: () => ({ text: 'a' }) };
    const b: CommandEntry<object> = { ...a, name: 'ESC E again' };
    const unknown: CommandEntry<object> = { prefix: [0], name: 'unknown', summary: 'Unknown', length: fixed(1), run: () => ({ text: '?', kind: 'unknown' }) };
    expect(() => new CommandTable([[a], [b]], unknown, unknown)).toThrow(/Two commands for ESC E again/);
    const ok = new CommandTable([[a]], unknown, unknown);
    expect(ok.lookup(0x1b, 0x46)).toBe(unknown);
    expect(ok.prefixBytes[0x1b]).toBe(1);
  });
});
