import { describe, expect, it } from 'vitest';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { DEFAULT_MAX_ELEMENTS } from '../../../src/engines/core/budget.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

describe('ESC/POS element budget', () => {
  it('a huge job is drawn up to the budget and the rest summarised, bytes all accounted, status still answered', () => {
    const line = 'Line 000000: 1 x Widget ........ 9.99\n';
    const lines = Math.ceil((DEFAULT_MAX_ELEMENTS * 2) / 2) + 5000; // two elements (debug + text) per line
    const body = new TextEncoder().encode(line.repeat(lines));
    const session = createEscPosSession(() => testPrinterContext({ flags: { isCoverOpen: false, isPaperOut: true, isOffline: false, hasError: false, isPaperNearEnd: false } }));
    for (let i = 0; i < body.length; i += 4096) session.push(body.subarray(i, i + 4096));
    // A status query far past the budget is still answered (paper end bits 5 and 6 of n=4).
    const replies = session.push(new Uint8Array([0x10, 0x04, 0x04])).replies;
    expect(replies.map((r) => [...r])).toEqual([[0x72]]);
    const job = session.finish();

    const items = job.canvases.flatMap((c) => c.items);
    expect(items.length).toBeLessThanOrEqual(DEFAULT_MAX_ELEMENTS + 1);
    const total = body.length + 3;
    expect(job.bytesReceived).toBe(total);
    expect(items.filter((e) => e.type === 'debug').reduce((a, e) => a + e.lengthInBytes, 0)).toBe(total);
    const summary = items.find((e) => e.type === 'debug' && e.debugType === 'elided');
    expect(summary).toBeTruthy();
    expect(job.errorMessages[0]).toMatch(new RegExp(`more than ${DEFAULT_MAX_ELEMENTS} elements`));
    expect(JSON.stringify(job.canvases).length).toBeLessThan(DEFAULT_MAX_ELEMENTS * 1024);
  });
});
