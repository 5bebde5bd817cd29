/**
 * Issue 17: label images are PNG-encoded in bounded steps (`finishStep`) with the same result
 * as one `finish`, and a graphic cropped to the label is encoded once, cropped.
 */
import { describe, expect, it } from 'vitest';
import { createEplSession } from '../../../src/engines/epl/index.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

function gwJob(labels: number): Uint8Array {
  const w = 100, h = 2000; // 800 x 2,000 dots: taller than the 1,218-dot label
  const parts: Buffer[] = [];
  for (let i = 0; i < labels; i++) parts.push(Buffer.from(`N\nGW0,0,${w},${h},`, 'latin1'), Buffer.alloc(w * h, i), Buffer.from('\nP1\n', 'latin1'));
  return Buffer.concat(parts);
}

const ctx = () => testPrinterContext({ widthInDots: 812, heightInDots: 1218 });

describe('EPL finishing in steps', () => {
  it('renders the same labels as one finish, in several bounded steps', () => {
    const whole = createEplSession(ctx);
    whole.push(gwJob(6));
    const expected = whole.finish();
    const stepped = createEplSession(ctx);
    stepped.push(gwJob(6));
    let steps = 0;
    while (stepped.finishStep!()) steps++;
    expect(steps).toBeGreaterThan(1);
    const job = stepped.finish();
    expect(JSON.stringify(job)).toBe(JSON.stringify(expected));
    const image = job.canvases[0].items.find((e) => e.type === 'image');
    expect(image && image.height).toBe(1218);
    const decoded = image && image.type === 'image' ? decodePngToBitmap(image.image.png) : null;
    expect(decoded?.height).toBe(1218);
  });
});
