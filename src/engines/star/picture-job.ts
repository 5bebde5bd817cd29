/**
 * A picture job as a Star cloud printer prints it (CloudPRNT `image/png`, `image/jpeg`): pixel
 * for pixel as the guide says, a picture wider than the print width scaled down to it (keeping
 * its aspect), dithered to black and white (Floyd–Steinberg, the printer's default) or
 * thresholded, and sent as Star raster graphics (ESC * r A, `b n1 n2` rows, ESC * r B), which
 * both StarPRNT and Star Line printers run. Pure.
 */
import { decode as decodePng } from 'fast-png';
import jpeg from 'jpeg-js';

/** Rows of one picture job at most (about 2 m of paper at 203 dpi): bounds the job's memory. */
const MAX_ROWS = 16384;

export type PictureType = 'image/png' | 'image/jpeg';

/** Luminance 0..255 per pixel; transparent pixels are paper (white). */
export interface GrayPicture { width: number; height: number; gray: Uint8Array }

export function decodePicture(type: PictureType, bytes: Uint8Array): GrayPicture {
  if (type === 'image/png') {
    const img = decodePng(bytes);
    const { width, height, channels } = img;
    const max = img.depth === 16 ? 65535 : (1 << img.depth) - 1;
    const gray = new Uint8Array(width * height);
    for (let i = 0; i < width * height; i++) {
      if (img.palette) {
        const idx = img.data[i] as number;
        const [r, g, b] = img.palette[idx] ?? [255, 255, 255];
        const a = (img.palette[idx] as number[] | undefined)?.[3] ?? 255;
        gray[i] = Math.round(255 - (a / 255) * (255 - (0.299 * r + 0.587 * g + 0.114 * b)));
        continue;
      }
      const p = i * channels;
      const v = (k: number) => ((img.data[p + k] as number) / max) * 255;
      const lum = channels >= 3 ? 0.299 * v(0) + 0.587 * v(1) + 0.114 * v(2) : v(0);
      const alpha = channels === 4 ? v(3) / 255 : channels === 2 ? v(1) / 255 : 1;
      gray[i] = Math.round(255 - alpha * (255 - lum));
    }
    return { width, height, gray };
  }
  const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 256 });
  const gray = new Uint8Array(img.width * img.height);
  for (let i = 0; i < gray.length; i++) gray[i] = Math.round(0.299 * img.data[i * 4] + 0.587 * img.data[i * 4 + 1] + 0.114 * img.data[i * 4 + 2]);
  return { width: img.width, height: img.height, gray };
}

/** The picture at its own size (area-sampled down to `widthInDots` when wider), dithered or thresholded, as Star raster commands. */
export function pictureToStarRaster(pic: GrayPicture, widthInDots: number, dither = true): Uint8Array {
  const w = Math.max(1, Math.min(pic.width, widthInDots));
  const h = Math.min(MAX_ROWS, Math.max(1, Math.round((pic.height * w) / pic.width)));
  const sx = pic.width / w, sy = pic.height / h;
  const level = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * sy), y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * sx), x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      let sum = 0, n = 0;
      for (let yy = y0; yy < y1 && yy < pic.height; yy++) for (let xx = x0; xx < x1 && xx < pic.width; xx++) { sum += pic.gray[yy * pic.width + xx]; n++; }
      level[y * w + x] = n ? sum / n : 255;
    }
  }
  const stride = Math.ceil(w / 8);
  const out: number[] = [0x1b, 0x2a, 0x72, 0x41]; // ESC * r A
  for (let y = 0; y < h; y++) {
    const row = new Uint8Array(stride);
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const old = level[i];
      const black = old < 128;
      if (black) row[x >> 3] |= 0x80 >> (x & 7);
      if (!dither) continue;
      const err = old - (black ? 0 : 255);
      if (x + 1 < w) level[i + 1] += (err * 7) / 16;
      if (y + 1 < h) {
        if (x > 0) level[i + w - 1] += (err * 3) / 16;
        level[i + w] += (err * 5) / 16;
        if (x + 1 < w) level[i + w + 1] += err / 16;
      }
    }
    out.push(0x62, stride & 0xff, stride >> 8, ...row); // b n1 n2 d1..dk
  }
  out.push(0x1b, 0x2a, 0x72, 0x42); // ESC * r B
  return Uint8Array.from(out);
}
