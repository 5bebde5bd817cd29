/**
 * A bounded least-recently-used cache of rendered symbols, one per engine module: the copies
 * of a label, a receipt printed again, a POS that prints the same QR code on every receipt
 * reuse the bitmap (and, through raster/png.ts's memo, its PNG). Cached bitmaps are shared:
 * callers scale, crop and rotate into new bitmaps, never draw into them.
 */
export class SymbolCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly limit = 512) {}

  /** The cached value for `key`, or the one `render` makes (cached, oldest entry evicted). */
  get(key: string, render: () => T): T {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = render();
    if (this.entries.size >= this.limit) {
      const first = this.entries.keys().next().value;
      if (first !== undefined) this.entries.delete(first);
    }
    this.entries.set(key, value);
    return value;
  }
}
