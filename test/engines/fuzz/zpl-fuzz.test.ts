/**
 * ZPL engine fuzzing: never throw, never hang, byte accounting holds, every image a valid
 * PNG, for random bytes and for streams of real ZPL commands with plausible and implausible
 * parameters. Fixed seed; FUZZ_RUNS raises the number of cases.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decode } from 'fast-png';
import type { RenderedJob } from '../../../src/engines/canvas/model.ts';
import { createZplSession, newZplPrinterMemory } from '../../../src/engines/zpl/index.ts';
import { labelPrinterContext } from '../../support/printer-context.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = 20261124;
const ctx = labelPrinterContext();

function run(data: Uint8Array, cuts: number[]): RenderedJob {
  const s = createZplSession(() => ctx, { maxCanvases: 20, memory: newZplPrinterMemory() });
  let prev = 0;
  for (const c of [...cuts.map((x) => x % (data.length + 1))].sort((a, b) => a - b)) {
    s.push(data.subarray(prev, c));
    prev = c;
  }
  s.push(data.subarray(prev));
  return s.finish();
}

function check(job: RenderedJob, length: number): void {
  let sum = 0;
  for (const c of job.canvases) {
    for (const el of c.items) {
      if (el.type === 'debug') {
        sum += el.lengthInBytes;
        if (el.debugType !== 'elided') expect(el.commandRaw.length).toBe(el.lengthInBytes * 2);
      }
      if (el.type === 'image') expect(decode(el.image.png).width).toBe(Math.max(1, el.image.widthInDots));
    }
  }
  expect(sum).toBe(length);
  expect(job.bytesReceived).toBe(length);
  // Bad input is reported command by command; nothing reaches the session's last-resort catch.
  expect(job.errorMessages.filter((m) => m.startsWith('Internal error'))).toEqual([]);
}

const num = fc.oneof(fc.integer({ min: 0, max: 900 }), fc.integer({ min: -5, max: 40000 }), fc.constantFrom('', 'x', '-1', '99999999', '1.5'));
const orient = fc.constantFrom('N', 'R', 'I', 'B', '', 'Q');
const yn = fc.constantFrom('Y', 'N', '', 'X');
const text = fc.string({ maxLength: 24 }).map((s) => s.replace(/[\^~]/g, ''));
const params = (...parts: fc.Arbitrary<unknown>[]) => fc.tuple(...parts).map((p) => p.join(','));

const command = fc.oneof(
  fc.constantFrom('^XA', '^XZ', '^FS', '^FR', '~HS', '~HQES', '~HI', '~HM', '~JA', '^PQ2', '^POI', '^PON', '^LRY', '^LRN', '^CI28', '^CI0', '^CI33', '^FH', '\r\n', '^XFR:F1.ZPL', '^DFR:F1.ZPL', '^XGR:G1.GRF,2,2', '^IMR:G1.GRF', '^IDR:*.*', '^EG', '~PP', '~PS'),
  params(num, num).map((p) => `^FO${p}`),
  params(num, num, fc.constantFrom('0', '1', '2')).map((p) => `^FT${p}`),
  fc.tuple(fc.constantFrom('A', 'B', 'D', 'E', 'F', 'G', 'H', '0', 'Z', 'GS'), orient, num, num).map(([f, o, h, w]) => `^A${f}${o},${h},${w}`),
  params(num, num, num, fc.constantFrom('B', 'W', ''), fc.integer({ min: 0, max: 9 })).map((p) => `^GB${p}`),
  params(num, num).map((p) => `^GC${p}`),
  params(num, num, num, fc.constantFrom('B', 'W'), fc.constantFrom('R', 'L')).map((p) => `^GD${p}`),
  fc.tuple(fc.constantFrom('A', 'B', 'C'), num, num, num, fc.stringMatching(/^[0-9A-F]{0,40}$/), fc.constantFrom('', ',', '!', ':', 'gK0', 'zF')).map(([e, a, b, c, d, x]) => `^GF${e},${a},${b},${c},${d}${x}`),
  params(num, num, num, fc.stringMatching(/^[0-9A-F]{0,40}$/)).map((p) => `~DGR:G1.GRF,${p}`),
  fc.tuple(fc.constantFrom('BC', 'B3', 'BE', 'BU', 'B8', 'B9', 'B2', 'BA', 'BK', 'BQ', 'BX', 'B7', 'BO', 'BD', 'BR', 'BZ', 'BS', 'BF', 'BM', 'BI', 'BJ', 'BL', 'B1', 'BP'), orient, num, yn, yn, fc.constantFrom('N', 'A', 'D', 'U', '')).map(([c, o, h, f, g, m]) => `^${c}${o},${h},${f},${g},N,${m}`),
  params(fc.integer({ min: 0, max: 12 }), fc.constantFrom('2', '2.5', '3', 'x'), num).map((p) => `^BY${p}`),
  text.map((t) => `^FD${t}`),
  fc.constantFrom('^FDQA,hello', '^FDMM,B0003abc', '^FD>;1234>6AB', '^FD001840100040000[)>_1E01_1D96', '^FD(01)09501101530003'),
  params(num, num, num, fc.constantFrom('L', 'C', 'R', 'J', ''), num).map((p) => `^FB${p}`),
  params(num, fc.constantFrom('1', '-1', ''), yn).map((p) => `^SN${p}`),
  params(num, num).map((p) => `^LH${p}`),
  num.map((p) => `^LL${p}`),
  num.map((p) => `^PW${p}`),
  fc.tuple(fc.constantFrom('^', '~'), fc.constantFrom('CC', 'CT', 'CD'), fc.constantFrom('+', '#', ';', '^', '~', ',')).map(([a, b, c]) => `${a}${b}${c}`),
  fc.tuple(fc.constantFrom('^', '~'), fc.stringMatching(/^[A-Z0-9@]{1,2}$/), text).map(([a, b, c]) => `${a}${b}${c}`),
);

describe('ZPL fuzzing', () => {
  it('random bytes: never throws, every byte accounted', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(), { maxLength: 5 }), (data, cuts) => check(run(data, cuts), data.length)),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('streams of ZPL commands: never throws, every byte accounted, whatever the chunking', () => {
    const enc = new TextEncoder();
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), (cmds, cuts) => {
        const data = enc.encode(cmds.join(''));
        check(run(data, cuts), data.length);
      }),
      { numRuns: RUNS, seed: SEED + 1 },
    );
  }, 120_000);
});
