import { describe, expect, it } from 'vitest';
import { createEplSession, newEplPrinterMemory } from '../../../src/engines/epl/index.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import type { TextElement } from '../../../src/engines/canvas/model.ts';
import { labelPrinterContext, latin1 } from '../../support/printer-context.ts';

const ctx: PrinterContext = labelPrinterContext();

const storeForm = 'FK"SHELF"\r\nFS"SHELF"\r\nV00,12,N,"Item"\r\nN\r\nA20,20,0,3,1,1,N,V00\r\nFE\r\n';
const useForm = 'FR"SHELF"\r\n?\r\nApples\r\nP1\r\n';

function printedTexts(memory?: ReturnType<typeof newEplPrinterMemory>) {
  const first = createEplSession(() => ctx, { memory });
  first.push(latin1(storeForm));
  first.finish();
  const second = createEplSession(() => ctx, { memory });
  second.push(latin1(useForm));
  const job = second.finish();
  return { job, texts: job.canvases.flatMap((c) => c.items).filter((e): e is TextElement => e.type === 'text').map((t) => t.text) };
}

describe('EPL printer memory', () => {
  it('keeps a form stored in one connection for the next, as a real printer does', () => {
    const { texts, job } = printedTexts(newEplPrinterMemory());
    expect(texts).toEqual(['Apples']);
    expect(job.errorMessages.join(' ')).not.toMatch(/not found/i);
  });

  it('without shared memory the form is gone in the next connection', () => {
    const { texts, job } = printedTexts(undefined);
    expect(texts).toEqual([]);
    expect(job.errorMessages.join(' ')).toMatch(/SHELF/);
  });
});

describe('label cost budget', () => {
  it('stops printing labels once the rendering budget is spent, with one error; replies still come', async () => {
    const { run, lines } = await import('./helpers.ts');
    // Fifty labels with a QR code each (a symbol and its pixels per label).
    const label = ['N', 'q812', 'Q600,24', 'b20,20,Q,s10,"BUDGET"', 'P1'];
    const input = lines(...Array.from({ length: 50 }, () => label).flat(), '^ee');
    const { job, replies } = run(input, { session: { maxCost: 2_000_000 } });
    expect(job.canvases.length).toBeGreaterThan(1);
    expect(job.canvases.length).toBeLessThan(50);
    expect(job.errorMessages.filter((e) => e.includes('rendering budget'))).toHaveLength(1);
    expect(replies.at(-1)).toMatch(/04/);
    expect(job.bytesReceived).toBe(input.length);
    expect(job.isStatusPoll).toBe(false);
  });
});
