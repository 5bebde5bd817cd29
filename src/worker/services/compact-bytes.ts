/**
 * Bytes of the compact body (compact-body.ts): a growing buffer written a byte, a LEB128
 * unsigned integer or a float64 at a time, and its reader.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private n = 0;

  /** `capacity`: the bytes expected (the buffer doubles when they are more). */
  constructor(capacity = 4096) {
    this.buf = new Uint8Array(capacity);
  }

  private room(extra: number): void {
    if (this.n + extra <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + extra));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }

  byte(b: number): void {
    if (this.n === this.buf.length) this.room(1);
    this.buf[this.n++] = b;
  }

  /** An unsigned integer up to 2^53, 7 bits a byte, low bits first. */
  uint(v: number): void {
    this.room(8);
    const buf = this.buf;
    let n = this.n;
    while (v > 0x7fffffff) {
      buf[n++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    while (v > 0x7f) {
      buf[n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[n++] = v;
    this.n = n;
  }

  tagUint(tag: number, v: number): void {
    this.byte(tag);
    this.uint(v);
  }

  float(tag: number, v: number): void {
    this.room(9);
    this.buf[this.n++] = tag;
    new DataView(this.buf.buffer).setFloat64(this.n, v, true);
    this.n += 8;
  }

  /** `bytes`, after their length when `sized`. */
  bytes(bytes: Uint8Array, sized = false): void {
    if (sized) this.uint(bytes.length);
    this.room(bytes.length);
    this.buf.set(bytes, this.n);
    this.n += bytes.length;
  }

  /** Two bytes to `fill` later with a number below 65,536. */
  reserve(): number {
    this.room(2);
    this.n += 2;
    return this.n - 2;
  }

  fill(at: number, v: number): void {
    if (v > 0xffff) throw new RangeError(`compact body: ${v} does not fit a reserved field`);
    this.buf[at] = v & 0xff;
    this.buf[at + 1] = v >>> 8;
  }

  get capacity(): number {
    return this.buf.length;
  }

  /** Empty again, its buffer kept (the bytes a view showed are overwritten by the next writes). */
  clear(): this {
    this.n = 0;
    return this;
  }

  /** The bytes written (a view: valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.n);
  }
}

export class ByteReader {
  constructor(private readonly buf: Uint8Array, private at: number) {}

  byte(): number {
    if (this.at >= this.buf.length) throw new RangeError('compact body: cut short');
    return this.buf[this.at++];
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  }

  /** The number in the two bytes `ByteWriter.reserve` kept. */
  reserved(): number {
    return this.byte() | (this.byte() << 8);
  }

  float(): number {
    if (this.at + 8 > this.buf.length) throw new RangeError('compact body: cut short');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset).getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  /** Bytes after their length (ByteWriter.bytes with `sized`). */
  sized(): Uint8Array {
    const n = this.uint();
    if (this.at + n > this.buf.length) throw new RangeError('compact body: cut short');
    this.at += n;
    return this.buf.subarray(this.at - n, this.at);
  }

  rest(): Uint8Array {
    return this.buf.subarray(this.at);
  }
}
