import { MAX_NUL_TERMINATED, NUL_TERMINATED, type CommandEntry, type CommandTable } from './commands.ts';

/**
 * Incremental framing of a byte stream (ESC/POS, Star) into text runs and commands, driven
 * by the protocol's command table.
 *
 * Bytes arrive in arbitrary chunks. Printable bytes (0x20..0xFF) are passed straight through
 * to the sink as slices of the chunk; a command is collected in a small growable buffer until
 * the command table says it is complete. Nothing is ever re-parsed, so time is linear in the
 * input. The sink must not retain the arrays it is given.
 */
export interface FrameSink<M> {
  /** Printable bytes [start, end) of `chunk`, part of the current text run. */
  text(chunk: Uint8Array, start: number, end: number): void;
  /** The current text run ended (a control byte arrived or the stream ended). */
  endText(): void;
  /** A complete command. `malformed` when its data was cut off by the length limit. */
  command(spec: CommandEntry<M>, bytes: Uint8Array, malformed: boolean): void;
  /** The stream ended inside a command. */
  truncated(spec: CommandEntry<M> | null, bytes: Uint8Array): void;
}

const IDLE = 0, IN_COMMAND = 1;
const ONE_BYTE: Uint8Array[] = Array.from({ length: 256 }, (_, i) => Uint8Array.of(i));

export class Framer<M> {
  private state = IDLE;
  private inText = false;
  private buf = new Uint8Array(256);
  private len = 0;
  private need = 0;
  private spec: CommandEntry<M> | null = null;

  constructor(
    private readonly table: CommandTable<M>,
    private readonly sink: FrameSink<M>,
  ) {}

  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.state === IDLE) {
        const b = chunk[i];
        if (b >= 0x20) {
          let j = i + 1;
          while (j < n && chunk[j] >= 0x20) j++;
          this.inText = true;
          this.sink.text(chunk, i, j);
          i = j;
          continue;
        }
        if (this.inText) {
          this.inText = false;
          this.sink.endText();
        }
        if (this.table.prefixBytes[b] === 1) {
          this.state = IN_COMMAND;
          this.len = 0;
          this.spec = null;
          this.need = 2;
          continue; // collected below
        }
        this.sink.command(this.table.control(b), ONE_BYTE[b], false);
        i++;
        continue;
      }
      i = this.collect(chunk, i);
    }
  }

  /** Collect command bytes from chunk[i..]; returns the next unread index. */
  private collect(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    for (;;) {
      if (this.need === NUL_TERMINATED) {
        let k = i;
        const limit = Math.min(n, i + (MAX_NUL_TERMINATED - this.len) + 1);
        while (k < limit && chunk[k] !== 0) k++;
        if (k < limit) {
          // NUL found at k (inclusive)
          this.append(chunk, i, k + 1);
          this.complete(false);
          return k + 1;
        }
        this.append(chunk, i, k);
        if (this.len > MAX_NUL_TERMINATED) {
          this.complete(true);
          return k;
        }
        return k;
      }
      if (this.len < this.need) {
        const take = Math.min(this.need - this.len, n - i);
        this.append(chunk, i, i + take);
        i += take;
        if (this.len < this.need) return i;
      }
      if (this.spec === null) this.spec = this.table.lookup(this.buf[0], this.buf[1]);
      const total = this.spec.length(this.buf, this.len);
      if (total === NUL_TERMINATED) {
        this.need = NUL_TERMINATED;
        continue;
      }
      if (total <= this.len) {
        this.complete(false);
        return i;
      }
      this.need = total;
      if (i >= n) return i;
    }
  }

  private append(src: Uint8Array, start: number, end: number): void {
    const add = end - start;
    if (add <= 0) return;
    const want = this.len + add;
    if (want > this.buf.length) {
      let size = this.buf.length * 2;
      while (size < want) size *= 2;
      // Grow to the announced length at once when it is known (large images).
      if (this.need > want && this.need < want * 4) size = Math.max(size, this.need);
      const nb = new Uint8Array(size);
      nb.set(this.buf.subarray(0, this.len));
      this.buf = nb;
    }
    if (add < 32) {
      const buf = this.buf;
      for (let i = 0, o = this.len; i < add; i++) buf[o + i] = src[start + i];
    } else {
      this.buf.set(src.subarray(start, end), this.len);
    }
    this.len = want;
  }

  private complete(malformed: boolean): void {
    const spec = this.spec!;
    const bytes = this.buf.subarray(0, this.len);
    this.state = IDLE;
    this.spec = null;
    this.need = 0;
    this.len = 0;
    this.sink.command(spec, bytes, malformed);
    // Do not keep a huge buffer around after a large image.
    if (this.buf.length > 1 << 20) this.buf = new Uint8Array(256);
  }

  finish(): void {
    if (this.inText) {
      this.inText = false;
      this.sink.endText();
    }
    if (this.state === IN_COMMAND && this.len > 0) {
      const bytes = this.buf.subarray(0, this.len);
      const spec = this.len >= 2 ? this.spec ?? this.table.lookup(this.buf[0], this.buf[1]) : null;
      this.state = IDLE;
      this.len = 0;
      this.sink.truncated(spec, bytes);
    }
  }
}
