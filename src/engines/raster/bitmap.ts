/**
 * A 1-bit raster in printer dots: one byte per pixel (1 = black) for simple, fast
 * drawing and composition. Packed formats from the wire are converted on the way in.
 */
export class Bitmap {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;

  constructor(width: number, height: number, pixels?: Uint8Array) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
      throw new RangeError(`invalid bitmap size ${width}x${height}`);
    }
    this.width = width;
    this.height = height;
    this.pixels = pixels ?? new Uint8Array(width * height);
    if (this.pixels.length !== width * height) throw new RangeError('pixel buffer size mismatch');
  }

  get(x: number, y: number): boolean {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return false;
    return this.pixels[y * this.width + x] === 1;
  }

  set(x: number, y: number, black = true): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.pixels[y * this.width + x] = black ? 1 : 0;
  }

  fillRect(x: number, y: number, w: number, h: number, mode: 'black' | 'white' | 'xor' = 'black'): void {
    const x0 = Math.max(0, x), y0 = Math.max(0, y);
    const x1 = Math.min(this.width, x + w), y1 = Math.min(this.height, y + h);
    for (let yy = y0; yy < y1; yy++) {
      const row = yy * this.width;
      for (let xx = x0; xx < x1; xx++) {
        const i = row + xx;
        this.pixels[i] = mode === 'black' ? 1 : mode === 'white' ? 0 : this.pixels[i] ^ 1;
      }
    }
  }

  /**
   * Raster rows packed MSB first (ESC/POS GS v 0, EPL GW, PNG 1-bit): bit set = black
   * unless `invert` (EPL GW uses 0 = black).
   */
  static fromPackedRows(widthBytes: number, height: number, data: Uint8Array, offset = 0, invert = false): Bitmap {
    const bmp = new Bitmap(widthBytes * 8, height);
    const px = bmp.pixels;
    const flip = invert ? 0xff : 0;
    // Unrolled, white bytes skipped: a 35 M-dot raster is one command, decoded in one go.
    const available = Math.max(0, Math.min(widthBytes * height, data.length - offset));
    for (let i = 0; i < widthBytes * height; i++) {
      const byte = (i < available ? data[offset + i] : 0) ^ flip;
      if (byte === 0) continue;
      const o = i * 8;
      px[o] = byte >> 7; px[o + 1] = (byte >> 6) & 1; px[o + 2] = (byte >> 5) & 1; px[o + 3] = (byte >> 4) & 1;
      px[o + 4] = (byte >> 3) & 1; px[o + 5] = (byte >> 2) & 1; px[o + 6] = (byte >> 1) & 1; px[o + 7] = byte & 1;
    }
    return bmp;
  }

  /**
   * Column format (ESC/POS ESC *, GS *, FS q): each column is `bytesPerColumn` bytes,
   * MSB at the top.
   */
  static fromColumns(columns: number, bytesPerColumn: number, data: Uint8Array, offset = 0): Bitmap {
    const bmp = new Bitmap(columns, bytesPerColumn * 8);
    for (let x = 0; x < columns; x++) {
      for (let yb = 0; yb < bytesPerColumn; yb++) {
        const idx = offset + x * bytesPerColumn + yb;
        const byte = idx < data.length ? data[idx] : 0;
        for (let bit = 0; bit < 8; bit++) {
          if (byte & (0x80 >> bit)) bmp.pixels[(yb * 8 + bit) * bmp.width + x] = 1;
        }
      }
    }
    return bmp;
  }

  /** Nearest-neighbour scale by integer factors (double width/height modes). */
  scale(sx: number, sy: number): Bitmap {
    if (sx === 1 && sy === 1) return this;
    const out = new Bitmap(this.width * sx, this.height * sy);
    for (let y = 0; y < out.height; y++) {
      const srcRow = Math.floor(y / sy) * this.width;
      const dstRow = y * out.width;
      for (let x = 0; x < out.width; x++) out.pixels[dstRow + x] = this.pixels[srcRow + Math.floor(x / sx)];
    }
    return out;
  }

  /** Copy `src` onto this bitmap at (x, y) with the given draw mode for its black pixels. */
  blit(src: Bitmap, x: number, y: number, mode: 'black' | 'white' | 'xor' | 'copy' = 'black'): void {
    for (let sy = 0; sy < src.height; sy++) {
      const ty = y + sy;
      if (ty < 0 || ty >= this.height) continue;
      for (let sx = 0; sx < src.width; sx++) {
        const tx = x + sx;
        if (tx < 0 || tx >= this.width) continue;
        const on = src.pixels[sy * src.width + sx] === 1;
        const i = ty * this.width + tx;
        if (mode === 'copy') this.pixels[i] = on ? 1 : 0;
        else if (on) this.pixels[i] = mode === 'black' ? 1 : mode === 'white' ? 0 : this.pixels[i] ^ 1;
      }
    }
  }

  /** Rotate clockwise by 0, 90, 180 or 270 degrees. */
  rotate(degrees: 0 | 90 | 180 | 270): Bitmap {
    if (degrees === 0) return this;
    const { width: w, height: h } = this;
    const out = degrees === 180 ? new Bitmap(w, h) : new Bitmap(h, w);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (this.pixels[y * w + x] !== 1) continue;
        if (degrees === 90) out.pixels[x * out.width + (h - 1 - y)] = 1;
        else if (degrees === 180) out.pixels[(h - 1 - y) * w + (w - 1 - x)] = 1;
        else out.pixels[(w - 1 - x) * out.width + y] = 1;
      }
    }
    return out;
  }

  /** Mirrored left to right (each row reversed). */
  mirrorX(): Bitmap {
    const { width: w, height: h } = this;
    const out = new Bitmap(w, h);
    for (let y = 0; y < h; y++) {
      const row = y * w;
      for (let x = 0; x < w; x++) out.pixels[row + w - 1 - x] = this.pixels[row + x];
    }
    return out;
  }

  countBlack(): number {
    let n = 0;
    for (let i = 0; i < this.pixels.length; i++) n += this.pixels[i];
    return n;
  }
}
