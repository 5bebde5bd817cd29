import { describe, expect, it } from 'vitest';
import { BarcodeFormat } from '@zxing/library';
import * as bwipModule from '@bwip-js/generic';
import { renderMatrixCode, type MatrixCodeRequest, type RenderedBarcode } from '../../../src/engines/raster/barcode.ts';
import { jsqrDecode, zxingDecode } from './decode-helpers.ts';

const bwipRaw = (bwipModule as unknown as { default: { raw(o: object): { pixs: number[] }[] } }).default.raw;

function render(req: Partial<MatrixCodeRequest> & { bcid: string; text: string }): RenderedBarcode {
  const r = renderMatrixCode({ moduleSize: 3, ...req });
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const latin1 = (bytes: number[]) => String.fromCharCode(...bytes);

describe('renderMatrixCode: QR', () => {
  it('decodes with zxing and jsqr; size is modules x moduleSize exactly', () => {
    const text = 'https://slipstream.example/r/2024-000123?t=59.90';
    for (const moduleSize of [1, 2, 3, 5]) {
      const v = render({ bcid: 'qrcode', text, moduleSize });
      expect(v.humanReadable).toBe('');
      expect(v.columns).toBe(v.rows);
      expect(v.bitmap.width).toBe(v.columns! * moduleSize);
      expect(v.bitmap.height).toBe(v.rows! * moduleSize);
      // QR versions are 17 + 4v modules.
      expect((v.columns! - 17) % 4).toBe(0);
      // Finder pattern: top-left 7x7 dark border, no quiet zone.
      expect(v.bitmap.get(0, 0)).toBe(true);
      expect(v.bitmap.get(7 * moduleSize - 1, 0)).toBe(true);
      expect(v.bitmap.get(7 * moduleSize, 0)).toBe(false);
      expect(jsqrDecode(v.bitmap, moduleSize === 1 ? 3 : 1)?.data).toBe(text);
      expect(zxingDecode(v.bitmap, [BarcodeFormat.QR_CODE], { scale: moduleSize === 1 ? 3 : 1 }).text).toBe(text);
    }
  });

  it('each module is a solid moduleSize x moduleSize square', () => {
    const ms = 4;
    const v = render({ bcid: 'qrcode', text: 'modules', moduleSize: ms });
    const { bitmap } = v;
    for (let my = 0; my < v.rows!; my++) {
      for (let mx = 0; mx < v.columns!; mx++) {
        const on = bitmap.get(mx * ms, my * ms);
        for (let dy = 0; dy < ms; dy++) for (let dx = 0; dx < ms; dx++) {
          if (bitmap.get(mx * ms + dx, my * ms + dy) !== on) throw new Error(`module ${mx},${my} not uniform`);
        }
      }
    }
  });

  it('binary latin1 data is encoded byte for byte', () => {
    const bytes = [0x00, 0x01, 0x7f, 0x80, 0xe9, 0xff, 0x41];
    const v = render({ bcid: 'qrcode', text: latin1(bytes), moduleSize: 2 });
    expect(jsqrDecode(v.bitmap)?.bytes).toEqual(bytes);
  });

  it('eclevel and version options change the symbol', () => {
    const l = render({ bcid: 'qrcode', text: 'HELLO WORLD 1234567890', options: { eclevel: 'L' } });
    const h = render({ bcid: 'qrcode', text: 'HELLO WORLD 1234567890', options: { eclevel: 'H' } });
    expect(h.columns!).toBeGreaterThan(l.columns!);
    const v10 = render({ bcid: 'qrcode', text: 'x', options: { version: 10 } });
    expect(v10.columns).toBe(17 + 4 * 10);
    expect(zxingDecode(h.bitmap, [BarcodeFormat.QR_CODE]).text).toBe('HELLO WORLD 1234567890');
  });
});

describe('renderMatrixCode: PDF417, DataMatrix, Aztec', () => {
  it('PDF417 decodes; module width and row height are exact', () => {
    const text = 'Slipstream PDF417 test 0123456789';
    const v = render({ bcid: 'pdf417', text, moduleSize: 2, rowHeight: 6 });
    expect(v.bitmap.width).toBe(v.columns! * 2);
    expect(v.bitmap.height).toBe(v.rows! * 6);
    // Start pattern 8-1-1-1-1-1-1-3 modules: first bar is 8 modules wide.
    let run = 0;
    while (v.bitmap.get(run, 0)) run++;
    expect(run).toBe(16);
    expect(zxingDecode(v.bitmap, [BarcodeFormat.PDF_417]).text).toBe(text);
  });

  it('PDF417 default row height is 3 x module width; columns option applies', () => {
    const v = render({ bcid: 'pdf417', text: 'abc', moduleSize: 2, options: { columns: 4 } });
    expect(v.bitmap.height).toBe(v.rows! * 6);
    // 4 data columns: start 17 + left/right row indicators 17 each + 4 x 17 + stop 18 modules.
    expect(v.columns).toBe(17 + 17 + 4 * 17 + 17 + 18);
    expect(zxingDecode(v.bitmap, [BarcodeFormat.PDF_417]).text).toBe('abc');
  });

  it('DataMatrix decodes at module sizes 2..4', () => {
    for (const moduleSize of [2, 3, 4]) {
      const v = render({ bcid: 'datamatrix', text: 'Slipstream DM 42', moduleSize });
      expect(v.bitmap.width).toBe(v.columns! * moduleSize);
      // L finder: left column and bottom row all dark.
      for (let y = 0; y < v.bitmap.height; y++) expect(v.bitmap.get(0, y)).toBe(true);
      // zxing-js's DataMatrix detector wants >= 3 image pixels per module: scale small ones up.
      expect(zxingDecode(v.bitmap, [BarcodeFormat.DATA_MATRIX], { scale: moduleSize < 3 ? 2 : 1 }).text).toBe('Slipstream DM 42');
    }
  });

  it('Aztec decodes', () => {
    const v = render({ bcid: 'azteccode', text: 'Aztec on a receipt', moduleSize: 3 });
    expect(v.bitmap.width).toBe(v.columns! * 3);
    expect(zxingDecode(v.bitmap, [BarcodeFormat.AZTEC]).text).toBe('Aztec on a receipt');
  });
});

describe('renderMatrixCode: MaxiCode', () => {
  // zxing-js has no MaxiCode reader, so the test samples the hexagon centres like a reader
  // does (ISO/IEC 16023 grid: 30 columns, 33 rows, odd rows shifted half a module) and compares
  // them with the modules bwip encoded. (Checked separately with zxing-cpp, which decodes these.)
  const W = 7;
  const text = '[)>\x1e01\x1d96123450000\x1d840\x1d001\x1d1Z12345678\x1dUPSN\x1d12345E\x1d089\x1d\x1d1/1\x1d10.1\x1dY\x1d\x1d\x1dUT\x1e\x04';

  it('has the exact hexagonal geometry and matches the encoded modules', () => {
    const v = render({ bcid: 'maxicode', text, moduleSize: W, options: { mode: 2 } });
    const V = (W * Math.sqrt(3)) / 2, H = (2 * W) / Math.sqrt(3);
    expect(v.bitmap.width).toBe(30 * W);
    expect(v.bitmap.height).toBe(Math.ceil(32 * V + H));
    const expected = new Set(bwipRaw({ bcid: 'maxicode', text, mode: 2 })[0].pixs);
    expect(expected.size).toBeGreaterThan(100);
    let mismatches = 0;
    for (let r = 0; r < 33; r++) {
      for (let c = 0; c < 30; c++) {
        const x = Math.floor((c + 0.5 + (r & 1) / 2) * W);
        const y = Math.floor(H / 2 + r * V);
        // Sample a small cross so a hexagon is solid around its centre, not just one dot.
        const on = v.bitmap.get(x, y);
        const solid = [[-2, 0], [2, 0], [0, -2], [0, 2]].every(([dx, dy]) => v.bitmap.get(x + dx, y + dy) === on);
        if (!solid || on !== expected.has(r * 30 + c)) {
          // Cells under the bullseye are not data: they take the rings' colour.
          const dx = x - 14.5 * W, dy = y - (H / 2 + 16 * V);
          if (Math.hypot(dx, dy) < 4.9 * W) continue;
          mismatches++;
        }
      }
    }
    expect(mismatches).toBe(0);
  });

  it('draws the bullseye: light centre, three dark rings', () => {
    const v = render({ bcid: 'maxicode', text: 'HELLO', moduleSize: W });
    const V = (W * Math.sqrt(3)) / 2, H = (2 * W) / Math.sqrt(3);
    const cx = 14.5 * W, cy = H / 2 + 16 * V;
    // Walk right from the centre: light, dark, light, dark, light, dark, then data area.
    const colours: boolean[] = [];
    for (let x = Math.floor(cx); x < cx + 4.3 * W; x++) {
      const on = v.bitmap.get(x, Math.floor(cy));
      if (colours[colours.length - 1] !== on) colours.push(on);
    }
    expect(colours).toEqual([false, true, false, true, false, true]);
    // Rings are round: same pattern going up.
    const up: boolean[] = [];
    for (let y = Math.floor(cy); y > cy - 4.3 * W; y--) {
      const on = v.bitmap.get(Math.floor(cx), y);
      if (up[up.length - 1] !== on) up.push(on);
    }
    expect(up).toEqual([false, true, false, true, false, true]);
  });

  it('is deterministic and scales with moduleSize', () => {
    const a = render({ bcid: 'maxicode', text: 'ABC', moduleSize: 5 });
    const b = render({ bcid: 'maxicode', text: 'ABC', moduleSize: 5 });
    expect(Array.from(a.bitmap.pixels)).toEqual(Array.from(b.bitmap.pixels));
    const c = render({ bcid: 'maxicode', text: 'ABC', moduleSize: 9 });
    expect(c.bitmap.width).toBe(270);
  });
});

describe('renderMatrixCode: repeated renders', () => {
  it('a returned bitmap is the caller\'s own: mutating it does not change the next render', () => {
    const a = render({ bcid: 'qrcode', text: 'repeat me', moduleSize: 2 });
    const before = Array.from(a.bitmap.pixels);
    a.bitmap.fillRect(0, 0, a.bitmap.width, a.bitmap.height, 'xor');
    const b = render({ bcid: 'qrcode', text: 'repeat me', moduleSize: 2 });
    expect(Array.from(b.bitmap.pixels)).toEqual(before);
    expect(jsqrDecode(b.bitmap)?.data).toBe('repeat me');
  });

  it('many distinct symbols in a row all decode (bounded cache eviction)', () => {
    for (let i = 0; i < 300; i += 37) {
      for (let k = 0; k < 37; k++) render({ bcid: 'qrcode', text: `filler ${i}-${k}`, moduleSize: 1 });
      const v = render({ bcid: 'qrcode', text: `item ${i}`, moduleSize: 2 });
      expect(jsqrDecode(v.bitmap)?.data).toBe(`item ${i}`);
    }
  });
});

describe('renderMatrixCode: errors never throw', () => {
  const bad: [Partial<MatrixCodeRequest> & { bcid: string; text: string }, RegExp][] = [
    [{ bcid: 'qrcode', text: 'x'.repeat(8000) }, /qrcode: /],
    [{ bcid: 'qrcode', text: 'x', options: { version: 99 } }, /qrcode: /],
    [{ bcid: 'qrcode', text: '' }, /no data/],
    [{ bcid: 'qrcode', text: 'x', moduleSize: 0 }, /module size/],
    [{ bcid: 'pdf417', text: 'x', rowHeight: -1 }, /row height/],
    [{ bcid: 'maxicode', text: 'x'.repeat(200) }, /maxicode: /],
    [{ bcid: 'maxicode', text: 'x', moduleSize: 1000 }, /too large/],
    [{ bcid: 'code128', text: 'x' }, /not a 2D symbology/],
    [{ bcid: 'bogus', text: 'x' }, /unknown symbology/],
  ];
  for (const [req, re] of bad) {
    it(`${req.bcid} ${JSON.stringify(req.text.slice(0, 10))} ${JSON.stringify(req.options ?? {})}`, () => {
      const r = renderMatrixCode({ moduleSize: 3, ...req });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(re);
    });
  }
});
