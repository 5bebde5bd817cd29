/**
 * Exponential backoff: 250 ms doubling to 10 s (internal-protocol.md section 1), with optional
 * jitter so that many bridges (or many recovery submissions) do not retry in lockstep.
 */
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** 0..1: the delay is reduced by up to this fraction, at random. */
  jitter?: number;
  random?: () => number;
}

export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  readonly jitter: number;
  private readonly random: () => number;
  private attempt = 0;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 250;
    this.maxMs = options.maxMs ?? 10_000;
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 0;
    this.random = options.random ?? Math.random;
  }

  /** Delay before the next attempt; each call advances the sequence. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * Math.pow(this.factor, this.attempt));
    this.attempt++;
    if (this.jitter <= 0) return base;
    return Math.round(base * (1 - this.jitter * this.random()));
  }

  /** Number of delays handed out since the last reset. */
  get attempts(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}
