import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';

/** How many requests one client address may make per action, refilled continuously. */
export interface RateRule {
  /** Requests allowed in a burst. */
  burst: number;
  /** Sustained requests per minute. */
  perMinute: number;
}

/** `remaining`: whole requests left in the burst after this one. */
export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * One token bucket per (action, client address): a Durable Object named after the pair, so the
 * count holds across every Worker isolate and location on Cloudflare (an in-isolate map would
 * count per isolate and let a client spread its attempts). A bucket is a few numbers in memory;
 * an evicted object starts full again, which only ever errs towards letting a client in.
 */
export class RateLimiter extends DurableObject<Env> {
  private tokens = -1;
  private updatedAt = 0;

  take(rule: RateRule): RateDecision {
    const now = Date.now();
    const perMs = rule.perMinute / 60_000;
    if (this.tokens < 0) this.tokens = rule.burst;
    else this.tokens = Math.min(rule.burst, this.tokens + (now - this.updatedAt) * perMs);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true, remaining: Math.floor(this.tokens) };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / perMs / 1000)) };
  }
}
