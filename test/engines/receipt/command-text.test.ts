/**
 * Short commands repeated in a job share their hex and description (receipt/command-text.ts):
 * what each debug element says is still what that command did then, and a job reads the same
 * as its commands sent one job each.
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../../src/engines/index.ts';
import type { DebugElement } from '../../../src/engines/canvas/model.ts';
import { concatBytes, testPrinterContext } from '../../support/printer-context.ts';

const DLE_EOT_PAPER = Uint8Array.of(0x10, 0x04, 0x04);
const debugs = (items: { type: string }[]) => items.filter((e): e is DebugElement => e.type === 'debug');

describe('repeated short commands', () => {
  it('a status query asked again after the paper ran out says the new status', () => {
    const ctx = testPrinterContext();
    const session = createProtocolSession('EscPos', () => ctx);
    session.push(DLE_EOT_PAPER);
    ctx.flags = { ...ctx.flags, isPaperOut: true };
    session.push(DLE_EOT_PAPER);
    const [before, after] = debugs(session.finish().canvases.flatMap((c) => c.items));
    expect(before.commandRaw).toBe('100404');
    expect(after.commandRaw).toBe('100404');
    expect(before.commandDescription[0]).toBe('DLE EOT 4');
    expect(after.commandDescription[0]).toBe('DLE EOT 4');
    expect(after.commandDescription[1]).not.toBe(before.commandDescription[1]);
    // Each as a job of its own would say.
    const alone = (paperOut: boolean) => {
      const s = createProtocolSession('EscPos', () => testPrinterContext({ flags: { ...ctx.flags, isPaperOut: paperOut } }));
      s.push(DLE_EOT_PAPER);
      return debugs(s.finish().canvases.flatMap((c) => c.items))[0];
    };
    expect(before).toEqual(alone(false));
    expect(after).toEqual(alone(true));
  });

  it('a job of repeated commands reads as its commands sent one job each', () => {
    const commands = [[0x1b, 0x45, 1], [0x0a], [0x1b, 0x45, 0], [0x1d, 0x21, 0x11], [0x1b, 0x61, 1], [0x1b, 0x2d, 2], [0x1b, 0x74, 19]].map((c) => Uint8Array.from(c));
    const sequence = Array.from({ length: 40 }, (_, i) => commands[(i * 5) % commands.length]);
    const session = createProtocolSession('EscPos', () => testPrinterContext());
    session.push(concatBytes(...sequence));
    const together = debugs(session.finish().canvases.flatMap((c) => c.items));
    const apart = sequence.map((bytes) => {
      const s = createProtocolSession('EscPos', () => testPrinterContext());
      s.push(bytes);
      return debugs(s.finish().canvases.flatMap((c) => c.items))[0];
    });
    expect(together).toEqual(apart);
  });
});
