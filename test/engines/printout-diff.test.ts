/**
 * `slipstream compare`'s judgement (src/cli/printout-diff.ts) against golden pictures nobody
 * here made: a 4×6 label at 203 dpi rendered by zpl-renderer-js (zebrash compiled to
 * WebAssembly) is the golden, Slipstream's printout of the same ZPL (the renderer behind
 * `?format=png`) is compared with it.
 *
 * The label holds what both renderers draw dot for dot (boxes, rules, Code 128, Code 39,
 * EAN-13). Text is left out: Slipstream draws text with its own fonts (docs/decisions.md), so a
 * golden with text from another renderer differs in every glyph (about 13 % of the inked dots of
 * a shipping label) — goldens for text are recorded from Slipstream itself (`--update`).
 */
import { PNG } from 'pngjs';
import { ready } from 'zpl-renderer-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { comparePrintout } from '../../src/cli/printout-diff.ts';
import { renderPng } from '../../src/engines/render/index.ts';
import { zpl } from './zpl/helpers.ts';

/** The tolerance the zebrash golden passes at: percent of the inked dots. */
const TOLERANCE = 1;

const FIELDS = {
  frame: [30, 30, '^GB752,1158,4^FS'],
  rule: [30, 190, '^GB752,4,4^FS'],
  code128: [100, 60, '^BY3^BCN,100,N,N,N^FD1Z999AA101^FS'],
  code39: [60, 240, '^BY2^B3N,N,120,N,N^FDSKU4711^FS'],
  box: [60, 420, '^GB300,200,8^FS'],
  filled: [450, 700, '^GB250,150,150^FS'],
  ean13: [100, 950, '^BY3^BEN,120,N,N^FD5901234123457^FS'],
} as const satisfies Record<string, readonly [number, number, string]>;
type Field = keyof typeof FIELDS;

function label(moved?: { field: Field; dx: number; dy: number }, home = ''): string {
  const fields = Object.entries(FIELDS).map(([name, [x, y, rest]]) => {
    const [dx, dy] = moved?.field === name ? [moved.dx, moved.dy] : [0, 0];
    return `^FO${x + dx},${y + dy}${rest}`;
  });
  return ['^XA', '^PW812', '^LL1218', home, ...fields, '^XZ'].join('\n');
}

async function printout(text: string): Promise<PNG> {
  const { job } = zpl(text);
  expect(job.errorMessages).toEqual([]);
  return PNG.sync.read(Buffer.from((await renderPng(job.canvases)).png));
}

let golden: PNG;

beforeAll(async () => {
  const { api } = await ready;
  golden = PNG.sync.read(Buffer.from(await api.zplToBase64Async(label(), 101.6, 152.4, 8), 'base64'));
  expect([golden.width, golden.height]).toEqual([813, 1220]); // zebrash's page for 4×6 in at 8 dots/mm
}, 60_000);

describe('compare against a golden rendered by zpl-renderer-js', () => {
  it(`the same label passes at ${TOLERANCE} %`, async () => {
    const d = comparePrintout(golden, await printout(label()));
    expect(d.inkedDots).toBeGreaterThan(50_000);
    expect(d.percent).toBeLessThanOrEqual(TOLERANCE);
  }, 30_000);

  it('the same label printed 3 dots right and 2 down as a whole passes, lined up', async () => {
    const d = comparePrintout(golden, await printout(label(undefined, '^LH3,2')));
    expect(d.offset).toEqual({ dx: -3, dy: -2 });
    expect(d.percent).toBeLessThanOrEqual(TOLERANCE);
  }, 30_000);

  const moves: { field: Field; dx: number; dy: number }[] = [
    { field: 'code128', dx: 10, dy: 0 },
    { field: 'code39', dx: 0, dy: 10 },
    { field: 'box', dx: 10, dy: 0 },
    { field: 'filled', dx: 0, dy: 10 },
    { field: 'ean13', dx: 0, dy: 10 },
    { field: 'frame', dx: 0, dy: 10 },
  ];
  for (const move of moves) {
    it(`the label with ${move.field} moved by ${move.dx || move.dy} dots ${move.dx ? 'right' : 'down'} fails`, async () => {
      const d = comparePrintout(golden, await printout(label(move)));
      expect(d.percent).toBeGreaterThan(TOLERANCE);
      expect(d.offset).toEqual({ dx: 0, dy: 0 }); // the rest of the label still lines up
    }, 30_000);
  }

  it('the diff picture shows missing dots in red and extra dots in blue', async () => {
    // The box's left side is x 60–67; moved 10 dots right it prints at 70–77.
    const d = comparePrintout(golden, await printout(label({ field: 'box', dx: 10, dy: 0 })));
    const diff = PNG.sync.read(d.diffPng);
    const at = (x: number, y: number) => [...diff.data.subarray((y * diff.width + x) * 4, (y * diff.width + x) * 4 + 3)];
    expect(at(63, 520)).toEqual([255, 0, 0]);
    expect(at(73, 520)).toEqual([0, 0, 255]);
    expect(d.missingDots).toBeGreaterThan(0);
    expect(d.extraDots).toBeGreaterThan(0);
    expect(d.missingDots + d.extraDots).toBe(d.differingDots);
  }, 30_000);
});
