/**
 * GW as drivers send it: the parameters ended by a comma (the manual), or by a line feed or
 * CR LF (CUPS's rastertolabel: `GW0,y,wb,1` LF, the row, LF), the data possibly holding CR
 * and LF bytes of its own.
 */
import { describe, expect, it } from 'vitest';
import { accounted, bitmapOf, concat, images, run } from './helpers.ts';

/** One 16-dot row: bytes 0x0A 0x0D in EPL's 0 = black, so the data itself holds LF and CR. */
const ROW = Uint8Array.of(0x0a, 0x0d);

describe('GW separators', () => {
  for (const [name, sep] of [['comma', ','], ['line feed', '\n'], ['CR LF', '\r\n']] as const) {
    it(`parameters ended by a ${name}: the rows print, every byte is accounted, no errors`, () => {
      const rows = Array.from({ length: 3 }, (_, y) => concat(`GW10,${20 + y},2,1${sep}`, ROW, '\n'));
      const input = concat('N\nq200\n', ...rows, 'P1\n');
      for (const chunk of [undefined, 1, 3]) {
        const { job } = run(input, { chunk });
        expect(job.errorMessages).toEqual([]);
        expect(accounted(job)).toBe(input.length);
        const pics = images(job.canvases[0]);
        expect(pics).toHaveLength(3);
        const b = bitmapOf(pics[0]);
        // 0x0A = 00001010: black where the bits are 0 (EPL GW), white where 1.
        expect([...Array(16).keys()].map((x) => (b.get(x, 0) ? 1 : 0)).join('')).toBe('1111010111110010');
        expect(pics.map((p) => p.y)).toEqual([20, 21, 22]);
      }
    });
  }

  it('a GW line that is not four numbers stays a refused command, the job goes on', () => {
    const { job } = run('N\nGW10,20,x\nA10,50,0,3,1,1,N,"OK"\nP1\n');
    expect(job.errorMessages.some((e) => /GW/.test(e))).toBe(true);
    expect(job.canvases[0].items.some((i) => i.type === 'text' && i.text === 'OK')).toBe(true);
  });
});
