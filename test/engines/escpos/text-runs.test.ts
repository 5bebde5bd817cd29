import { describe, expect, it } from 'vitest';
import type { DebugElement } from '../../../src/engines/canvas/model.ts';
import { all, bytes, LF, render } from './helpers.ts';

const textRuns = (data: Uint8Array, chunk: number) =>
  all(render(data, undefined, chunk)).filter((e): e is DebugElement => e.type === 'debug' && e.debugType === 'text');
const hex = (data: Uint8Array) => Array.from(data, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();

describe('ESC/POS text runs', () => {
  it('a run of 200 KiB of characters with no control byte is described in elements of at most 64 KiB, every byte once, however it arrives', () => {
    const run = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.repeat(8_000).slice(0, 200 * 1024));
    const data = bytes('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.repeat(8_000).slice(0, 200 * 1024), LF, 'after', LF);
    for (const chunk of [0, 4096, 100_000]) {
      const runs = textRuns(data, chunk);
      expect(runs.map((e) => e.lengthInBytes)).toEqual([65536, 65536, 65536, 8192, 5]);
      expect(runs.slice(0, 4).map((e) => e.commandRaw).join('').toUpperCase()).toBe(hex(run));
      expect(runs.slice(0, 4).map((e) => e.commandDescription[1]).join('')).toBe(new TextDecoder('latin1').decode(run));
    }
  });

  it('a UTF-8 character across the 64 KiB mark is not split between elements', () => {
    const run = bytes([0x1c, 0x28, 0x43, 0x02, 0x00, 0x30, 0x02], 'a'.repeat(65535), [0xc3, 0xa9], 'b', LF);
    const runs = textRuns(run, 1000);
    expect(runs.map((e) => e.lengthInBytes)).toEqual([65537, 1]);
    expect(runs[0].commandDescription[1].endsWith('aé')).toBe(true);
    expect(runs[1].commandDescription[1]).toBe('b');
  });
});
