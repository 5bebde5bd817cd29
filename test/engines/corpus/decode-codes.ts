/** Decodes every image of a job with real readers (jsQR for QR, ZXing for linear codes). */
import jsQR from 'jsqr';
import { BarcodeFormat } from '@zxing/library';
import type { RenderedJob } from '../../../src/engines/index.ts';
import { bitmapOf, imageElements } from './run-job.ts';
import { toLuminance, zxingDecode } from '../raster/decode-helpers.ts';

const LINEAR = [BarcodeFormat.UPC_A, BarcodeFormat.EAN_13, BarcodeFormat.EAN_8, BarcodeFormat.CODE_128, BarcodeFormat.CODE_39];

export function decodedCodes(job: RenderedJob): string[] {
  return imageElements(job).map((img) => {
    const bmp = bitmapOf(img);
    const lum = toLuminance(bmp, 2, 16);
    const rgba = new Uint8ClampedArray(lum.width * lum.height * 4);
    for (let i = 0; i < lum.data.length; i++) {
      rgba.fill(lum.data[i], i * 4, i * 4 + 3);
      rgba[i * 4 + 3] = 255;
    }
    const qr = jsQR(rgba, lum.width, lum.height)?.data;
    if (qr) return qr;
    try {
      return zxingDecode(bmp, LINEAR, { scale: 2 }).text;
    } catch {
      return '';
    }
  });
}
