import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import { context } from '../escpos/helpers.ts';

/**
 * Arbitrary bytes never throw, never hang, keep the byte accounting and give valid PNGs.
 * FUZZ_RUNS raises the number of cases (`npm run fuzz`).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

// Bytes biased towards ESC/POS structure: command prefixes and small parameters.
const interesting = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 255 }) },
  { weight: 2, arbitrary: fc.constantFrom(0x1b, 0x1d, 0x1c, 0x10, 0x0a, 0x00, 0x09) },
  { weight: 2, arbitrary: fc.constantFrom(0x21, 0x28, 0x2a, 0x76, 0x6b, 0x4c, 0x56, 0x70, 0x71, 0x30, 0x31, 0x04, 0x14, 0x26, 0x44, 0x57) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 8 }) },
);
const stream = fc.array(interesting, { maxLength: 400 }).map((a) => Uint8Array.from(a));
const chunking = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 });

describe('ESC/POS fuzz', () => {
  it('never throws, accounts for every byte, emits valid PNGs', () => {
    fc.assert(
      fc.property(stream, chunking, (data, sizes) => {
        const ctx = context({ nvImages: new Map() });
        const s = createEscPosSession(() => ctx);
        let i = 0, k = 0;
        while (i < data.length) {
          const n = sizes[k++ % sizes.length];
          const r = s.push(data.subarray(i, i + n));
          expect(Array.isArray(r.replies)).toBe(true);
          i += n;
        }
        s.contextChanged();
        const job = s.finish();
        let sum = 0;
        for (const c of job.canvases) {
          for (const it of c.items) {
            if (it.type === 'debug') sum += it.lengthInBytes;
            if (it.type === 'image') {
              const bmp = decodePngToBitmap(it.image.png);
              expect(bmp.width).toBe(Math.max(1, it.image.widthInDots));
            }
            if (it.type === 'text') expect(Number.isFinite(it.x) && Number.isFinite(it.y)).toBe(true);
          }
        }
        expect(sum).toBe(data.length);
        expect(job.bytesReceived).toBe(data.length);
      }),
      { numRuns: RUNS, seed: 20261101 },
    );
  });

  it('is linear: a large hostile stream finishes quickly', () => {
    // Unterminated NUL commands, huge announced lengths, deep tab lists.
    const parts: number[] = [];
    for (let i = 0; i < 20000; i++) parts.push(0x1d, 0x6b, 0x04, 0x41, 0x1b, 0x44, 0x01, 0x1b, 0x26, 0x03, 0x20);
    parts.push(0x1d, 0x38, 0x4c, 0xff, 0xff, 0xff, 0x7f);
    const data = Uint8Array.from(parts);
    const t0 = performance.now();
    const s = createEscPosSession(() => context());
    for (let i = 0; i < data.length; i += 1000) s.push(data.subarray(i, i + 1000));
    const job = s.finish();
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(job.bytesReceived).toBe(data.length);
  });
});
