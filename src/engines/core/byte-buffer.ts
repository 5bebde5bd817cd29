/**
 * A growable byte buffer (amortised O(1) append) for tokenizers that collect a command or a
 * line across chunks. `take` hands the bytes out and, after an unusually large command, drops
 * the big backing array so one huge job does not pin its memory for the printer's lifetime.
 */
export class ByteBuffer {
  buf = new Uint8Array(256);
  length = 0;
  push(b: number): void {
    if (this.length === this.buf.length) this.grow(this.length + 1);
    this.buf[this.length++] = b;
  }
  append(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (n <= 0) return;
    if (this.length + n > this.buf.length) this.grow(this.length + n);
    this.buf.set(src.subarray(start, end), this.length);
    this.length += n;
  }
  private grow(min: number): void {
    let cap = this.buf.length * 2;
    while (cap < min) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  take(): Uint8Array {
    const out = this.buf.slice(0, this.length);
    this.length = 0;
    if (this.buf.length > 65536) this.buf = new Uint8Array(256);
    return out;
  }
}
