import { describe, expect, it } from 'vitest';
import { translateEposPrint } from '../../../src/engines/epos-print/index.ts';
import type { ImageElement, RenderedJob } from '../../../src/engines/canvas/model.ts';
import { bitmapOf, render, texts } from '../escpos/helpers.ts';

const doc = (body: string) => `<epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print">${body}</epos-print>`;

function print(body: string): RenderedJob {
  const t = translateEposPrint(doc(body));
  if (!t.ok) throw new Error(t.error);
  return render(t.bytes);
}

const rules = (job: RenderedJob, canvas = 0) =>
  job.canvases[canvas].items.filter((e): e is ImageElement => e.type === 'image' && e.commandDescription[0] === 'GS ( Q');

describe('ePOS-Print vertical lines (vline-begin … vline-end)', () => {
  it('draws a line at x from where it begins down to where it ends, beside the lines printed between', () => {
    const job = print('<text>before&#10;</text><vline-begin x="100" style="thick"/><text>row 1&#10;row 2&#10;row 3&#10;</text><vline-end x="100" style="thick"/><text>after&#10;</text>');
    const t = texts(job);
    const row1 = t.find((e) => e.text === 'row 1')!, row3 = t.find((e) => e.text === 'row 3')!, after = t.find((e) => e.text === 'after')!;
    const [line] = rules(job);
    expect(line).toMatchObject({ x: 100, y: row1.y, width: 3 });
    expect(line.y + line.height).toBeGreaterThanOrEqual(row3.y + row3.height);
    expect(line.y + line.height).toBeLessThanOrEqual(after.y);
    const bmp = bitmapOf(line);
    expect(bmp.pixels.every((p) => p === 1)).toBe(true); // solid, 3 dots wide, its whole height
  });

  it('draws two lines side by side for the double styles, and several columns at once', () => {
    const job = print('<vline-begin x="10" style="thin_double"/><vline-begin x="400"/><text>a&#10;b&#10;</text><vline-end x="10" style="thin_double"/><vline-end x="400"/>');
    const [double, single] = rules(job).sort((a, b) => a.x - b.x);
    expect(double).toMatchObject({ x: 10, width: 3 });
    expect(single).toMatchObject({ x: 400, width: 1 });
    const bmp = bitmapOf(double);
    expect([...bmp.pixels.slice(0, 3)]).toEqual([1, 0, 1]);
  });

  it('runs on across a cut onto the next receipt, and ends with the job when vline-end never comes', () => {
    const job = print('<vline-begin x="50"/><text>first&#10;</text><cut type="no_feed"/><text>second&#10;second&#10;</text>');
    expect(job.canvases).toHaveLength(2);
    const [top] = rules(job, 0), [bottom] = rules(job, 1);
    expect(top).toMatchObject({ x: 50, y: 0 });
    expect(top.y + top.height).toBe(job.canvases[0].heightInDots);
    expect(bottom).toMatchObject({ x: 50, y: 0 });
    expect(bottom.height).toBe(job.canvases[1].heightInDots);
  });

  it('says so on the document when a line ends that never began', () => {
    const job = print('<text>x&#10;</text><vline-end x="70"/>');
    expect(rules(job)).toHaveLength(0);
    expect(job.errorMessages.join('\n')).toMatch(/no vertical line begun at x 70/);
  });
});
