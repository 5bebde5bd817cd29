/**
 * Pure token-bucket model of a printer's receive buffer: bytes enter up to `capacity` and
 * drain continuously at `rate` bytes per second. Time is passed in (milliseconds), so the
 * model is deterministic and unit-testable; scheduling lives in printer-buffer.ts.
 */
export class TokenBucket {
  capacity: number;
  rate: number;
  /** Bytes currently buffered (fractional while draining). */
  private levelValue = 0;
  private last: number;
  /** Bytes ever admitted. admitted - level = bytes ever drained ("printed"). */
  private admitted = 0;

  constructor(capacity: number, rate: number, now: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.rate = rate;
    this.last = now;
  }

  private update(now: number): void {
    if (now > this.last) {
      this.levelValue = Math.max(0, this.levelValue - ((now - this.last) / 1000) * this.rate);
      this.last = now;
    }
  }

  level(now: number): number {
    this.update(now);
    return this.levelValue;
  }

  /** Whole bytes that fit right now. */
  room(now: number): number {
    this.update(now);
    return Math.max(0, Math.floor(this.capacity - this.levelValue + 1e-9));
  }

  isFull(now: number): boolean {
    return this.room(now) === 0;
  }

  /** Admit up to `bytes`; returns how many were admitted. */
  admit(bytes: number, now: number): number {
    const n = Math.min(bytes, this.room(now));
    if (n > 0) {
      this.levelValue += n;
      this.admitted += n;
    }
    return n;
  }

  admittedTotal(): number {
    return this.admitted;
  }

  drainedTotal(now: number): number {
    this.update(now);
    return this.admitted - this.levelValue;
  }

  /** Milliseconds until `bytes` (clamped to capacity) fit; 0 when they already do. */
  msUntilRoom(bytes: number, now: number): number {
    const want = Math.min(Math.max(1, bytes), this.capacity);
    const missing = want - (this.capacity - this.level(now));
    if (missing <= 0) return 0;
    return (missing / this.rate) * 1000;
  }

  /** Milliseconds until the cumulative drained count reaches `cumulative`. */
  msUntilDrained(cumulative: number, now: number): number {
    const missing = cumulative - this.drainedTotal(now);
    if (missing <= 1e-9) return 0;
    return (missing / this.rate) * 1000;
  }

  reconfigure(capacity: number, rate: number, now: number): void {
    this.update(now);
    this.capacity = Math.max(1, Math.floor(capacity));
    this.rate = rate;
  }
}
