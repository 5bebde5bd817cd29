/**
 * A bounded least-recently-used cache of rendered symbols, one per engine module: the copies
 * of a label, a receipt printed again, a POS that prints the same QR code on every receipt
 * reuse the bitmap (and, through raster/png.ts's memo, its PNG). Cached bitmaps are shared:
 * callers scale, crop and rotate into new bitmaps, never draw into them.
 *
 * Bounded by count and by bytes: a large QR Code at module size 16 is a bitmap of a few MB,
 * and a job of distinct ones kept hundreds of MB alive in a cache bounded by count alone. A
 * symbol larger than an eighth of the byte budget is drawn again each time, not kept.
 */
export class SymbolCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private bytes = 0;

  /** `bytesOf`: what a value holds (its bitmap's pixels). */
  constructor(private readonly bytesOf: (value: T) => number, private readonly limit = 512, private readonly maxBytes = 8 << 20) {}

  /** The cached value for `key`, or the one `render` makes (cached, oldest entries evicted). */
  get(key: string, render: () => T): T {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = render();
    const bytes = this.bytesOf(value);
    if (bytes > this.maxBytes / 8) return value;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.limit && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
    return value;
  }
}
