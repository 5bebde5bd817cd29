/**
 * MaxiCode decoding for tests with zxing-cpp (zxing-wasm): the one maintained decoder that
 * reads MaxiCode (@zxing/library's port has no MaxiCode reader). The wasm binary is read from
 * node_modules, never downloaded.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { Bitmap } from '../../../src/engines/raster/bitmap.ts';

const require = createRequire(import.meta.url);
const wasmBinary = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({ overrides: { wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer }, fireImmediately: true });

/** The text of the MaxiCode in `bmp` (black dots on white, with a quiet zone added), or null. */
export async function decodeMaxiCode(bmp: Bitmap): Promise<string | null> {
  const pad = 20;
  const w = bmp.width + 2 * pad, h = bmp.height + 2 * pad;
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < bmp.height; y++) {
    for (let x = 0; x < bmp.width; x++) {
      if (bmp.pixels[y * bmp.width + x] === 1) {
        const i = ((y + pad) * w + x + pad) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }
  const results = await readBarcodes({ data, width: w, height: h, colorSpace: 'srgb' } as ImageData, { formats: ['MaxiCode'], tryHarder: true, textMode: 'Plain' });
  return results.find((r) => r.isValid)?.text ?? null;
}
