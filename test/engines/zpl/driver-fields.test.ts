/**
 * Fields as drivers and carriers send them: boxes whose sides are below their thickness,
 * graphics whose rows carry white padding past ^PW, and `>` escapes in digit-only symbols.
 */
import { describe, expect, it } from 'vitest';
import { BarcodeFormat } from '@zxing/library';
import { bitmapOf, boxes, images, zpl, zxingDecode } from './helpers.ts';

describe('^GB sides below the thickness', () => {
  it('^GB203,0,20 and ^GB0,203,20 are a horizontal and a vertical bar, no errors', () => {
    const { job } = zpl('^XA^FO10,10^GB203,0,20^FS^FO300,10^GB0,203,20^FS^XZ');
    expect(job.errorMessages).toEqual([]);
    expect(boxes(job.canvases[0]).map((b) => [b.width, b.height, b.isFilled])).toEqual([[203, 20, true], [20, 203, true]]);
  });
});

describe('graphic rows past the label edge', () => {
  /** A ^GFA graphic `bytesPerRow` wide whose first `inkBytes` bytes of each row are black. */
  const gf = (bytesPerRow: number, rows: number, inkBytes: number): string => {
    const row = 'FF'.repeat(inkBytes) + '00'.repeat(bytesPerRow - inkBytes);
    return `^GFA,${bytesPerRow * rows},${bytesPerRow * rows},${bytesPerRow},${row.repeat(rows)}`;
  };

  it('white padding beyond ^PW is not reported (CUPS at 203 dpi: 77-byte rows on ^PW609)', () => {
    const { job } = zpl(`^XA^PW609^FO0,0${gf(77, 20, 76)}^FS^XZ`);
    expect(job.errorMessages).toEqual([]);
    expect(bitmapOf(images(job.canvases[0])[0]).width).toBe(609);
  });

  it('black dots beyond ^PW are still reported as cut', () => {
    const { job } = zpl(`^XA^PW609^FO0,0${gf(77, 20, 77)}^FS^XZ`);
    expect(job.errorMessages.some((e) => /cut at the edge/.test(e))).toBe(true);
  });

  it('white padding past the right edge and past the bottom is silent too', () => {
    const { job } = zpl(`^XA^PW100^LL200^FO90,0^GFA,40,40,2,${'F000'.repeat(20)}^FS^FO0,199^GFA,40,40,20,${'FF'.repeat(2)}${'00'.repeat(38)}^FS^XZ`);
    expect(job.errorMessages).toEqual([]);
  });
});

describe('> in digit-only symbols', () => {
  it('an Interleaved 2 of 5 whose data holds >; (a GLS label) prints its digits, decoding to them', () => {
    const { job } = zpl('^XA^FO20,20^BY3^B2N,120,Y,N,N^FD>;0012345678^FS^XZ');
    expect(job.errorMessages).toEqual([]);
    const pic = images(job.canvases[0])[0];
    expect(zxingDecode(bitmapOf(pic), [BarcodeFormat.ITF])?.text).toBe('0012345678');
  });
});
