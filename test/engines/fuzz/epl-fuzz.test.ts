/**
 * EPL2 engine fuzzing: never throw, never hang, byte accounting holds, every image a valid PNG,
 * work linear in the input. Fixed seed; FUZZ_RUNS raises the number of cases.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decode } from 'fast-png';
import { createEplSession } from '../../../src/engines/epl/index.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import type { RenderedJob } from '../../../src/engines/canvas/model.ts';
import { fixtures } from '../epl/fixtures.ts';
import { labelPrinterContext } from '../../support/printer-context.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = 20261122;

const ctx: PrinterContext = labelPrinterContext();

function runChunks(data: Uint8Array, cuts: number[]): RenderedJob {
  const s = createEplSession(() => ctx, { maxCanvases: 50 });
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
    expect(c.widthInDots).toBeGreaterThan(0);
    for (const el of c.items) {
      if (el.type === 'debug') {
        sum += el.lengthInBytes;
        expect(el.commandRaw).toMatch(/^[0-9A-F]*$/);
        // The one summary of a job past the element budget carries its length, not its bytes.
        if (el.debugType !== 'elided') expect(el.commandRaw.length).toBe(el.lengthInBytes * 2);
      }
      if (el.type === 'image') {
        const img = decode(el.image.png);
        expect(img.width).toBe(Math.max(1, el.image.widthInDots));
      }
    }
  }
  expect(sum).toBe(length);
  expect(job.bytesReceived).toBe(length);
}

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

/** Lines that look like EPL: real command names with plausible and implausible parameters. */
const num = fc.oneof(fc.integer({ min: 0, max: 900 }), fc.integer({ min: -5, max: 100000 }), fc.constantFrom('', 'x', '-1', '99999999'));
const quoted = fc.string({ maxLength: 30 }).map((s) => `"${s.replace(/[\r\n]/g, '')}"`);
const eplLine = fc.oneof(
  fc.tuple(num, num, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.constantFrom('N', 'R', 'Z'), quoted).map((p) => `A${p.join(',')}`),
  fc.tuple(num, num, fc.integer({ min: 0, max: 3 }), fc.constantFrom('1', '1A', '1C', '3', '9', 'E30', 'UA0', '2', 'K', 'P', 'R14', '0', '1E', 'J', 'ZZ'), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 12 }), num, fc.constantFrom('B', 'N'), quoted).map((p) => `B${p.join(',')}`),
  fc.tuple(num, num, fc.constantFrom('Q', 'P', 'M', 'D', 'A', 'Q,s3,eM', 'P,400,200', 'M,m2', 'D,h3', 'A,d2'), quoted).map((p) => `b${p.join(',')}`),
  fc.tuple(fc.constantFrom('LO', 'LW', 'LE'), num, num, num, num).map(([c, ...p]) => `${c}${p.join(',')}`),
  fc.tuple(fc.constantFrom('X', 'LS'), num, num, num, num, num).map(([c, ...p]) => `${c}${p.join(',')}`),
  fc.tuple(num, num, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 16 }), fc.uint8Array({ maxLength: 40 })).map(([x, y, w, h, d]) => `GW${x},${y},${w},${h},${String.fromCharCode(...d)}`),
  fc.tuple(fc.constantFrom('q', 'Q', 'R', 'P', 'PA', 'S', 'D', 'I8,', 'TT', 'TD', 'C', 'V'), fc.array(num, { maxLength: 4 })).map(([c, p]) => `${c}${p.join(',')}`),
  fc.constantFrom('N', 'ZB', 'ZT', 'UQ', 'US', 'UN', '^ee', 'eR$,2', 'FE', 'FI', 'GI', '?', 'FS"F"', 'FR"F"', 'FK"F"', 'GK"*"', 'GG0,0,"L"', 'V00,5,N,"p"', 'C0,4,L,+1,"c"', 'A1,1,0,1,1,1,N,V00', 'A1,1,0,1,1,1,N,C0', 'GM"L"130', 'P1', 'P2,2', 'JF', 'OD', ''),
  fc.string({ maxLength: 20 }),
);
const eplJob = fc.array(eplLine, { maxLength: 40 }).map((ls) => enc(ls.map((l) => l + (l.length % 3 === 0 ? '\n' : '\r\n')).join('')));

describe('EPL2 fuzz', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 6 }), (data, cuts) => {
        check(runChunks(data, cuts), data.length);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('EPL-shaped command lines', () => {
    fc.assert(
      fc.property(eplJob, fc.array(fc.nat(), { maxLength: 6 }), (data, cuts) => {
        check(runChunks(data, cuts), data.length);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('mutated realistic labels', () => {
    const bases = Object.values(fixtures);
    fc.assert(
      fc.property(fc.nat({ max: bases.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 4 }), (i, muts, cuts) => {
        const data = bases[i].slice();
        for (const [pos, v] of muts) data[pos % data.length] = v;
        check(runChunks(data, cuts), data.length);
      }),
      { numRuns: Math.max(100, Math.floor(RUNS / 5)), seed: SEED },
    );
  });

  it('work is linear in the input size', () => {
    const line = enc('A10,10,0,3,1,1,N,"LINEAR TIME TEST"\r\nLO0,0,10,10\r\nNOPE\r\n');
    const time = (n: number): number => {
      const data = new Uint8Array(line.length * n);
      for (let k = 0; k < n; k++) data.set(line, k * line.length);
      const t0 = performance.now();
      check(runChunks(data, [7, 1000, 50000]), data.length);
      return performance.now() - t0;
    };
    time(500);
    const small = time(2000);
    const big = time(16000);
    // 8x the input: allow generous noise, but not quadratic growth (64x).
    expect(big).toBeLessThan(Math.max(50, small) * 24);
    // One huge unterminated line and one huge GW payload stay linear too.
    const huge = new Uint8Array(4_000_000).fill(0x41);
    const t0 = performance.now();
    check(runChunks(huge, [1, 999_999, 2_000_000]), huge.length);
    const gw = new Uint8Array([...enc('GW0,0,500,8000,'), ...new Uint8Array(4_000_000)]);
    check(runChunks(gw, [3, 20, 1_000_000]), gw.length);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});
