/**
 * Recovered jobs (internal-protocol.md section 3): a session whose upstream was lost before
 * `finalised` is submitted as raw bytes to `POST /internal/bridge/printers/{id}/jobs`, retried
 * with backoff until the Worker answers. Idempotent on sessionId on the Worker side.
 */
import { Backoff } from './backoff.ts';
import { toHttpUrl } from './config.ts';
import { errorMessage, type Logger } from './log.ts';

export interface RecoveredJob {
  printerId: string;
  sessionId: string;
  clientAddress: string;
  bytesSent: number;
  error: string;
  body: Buffer;
}

export interface RecoveryOptions {
  workerUrl: string;
  secret: string;
  log: Logger;
  /** Bytes kept waiting for the Worker before the oldest job is given up. */
  maxQueuedBytes?: number;
  backoff?: Backoff;
}

export class RecoveryQueue {
  private readonly opts: RecoveryOptions;
  private readonly backoff: Backoff;
  private readonly jobs: RecoveredJob[] = [];
  private queuedBytes = 0;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private stopped = false;

  constructor(opts: RecoveryOptions) {
    this.opts = opts;
    this.backoff = opts.backoff ?? new Backoff({ initialMs: 250, maxMs: 10_000, jitter: 0.2 });
  }

  get size(): number {
    return this.jobs.length;
  }

  add(job: RecoveredJob): void {
    this.jobs.push(job);
    this.queuedBytes += job.body.length;
    const max = this.opts.maxQueuedBytes ?? 512 * 1024 * 1024;
    while (this.queuedBytes > max && this.jobs.length > 1) {
      const lost = this.jobs.shift()!;
      this.queuedBytes -= lost.body.length;
      this.opts.log.error('recovery.dropped', { printerId: lost.printerId, sessionId: lost.sessionId, bytes: lost.body.length, reason: 'recovery queue full' });
    }
    this.opts.log.info('recovery.queued', { printerId: job.printerId, sessionId: job.sessionId, bytes: job.body.length, error: job.error });
    this.run();
  }

  /** Retry now (e.g. the control channel is back). */
  kick(): void {
    this.backoff.reset();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.wake?.();
  }

  /** Tries to flush what is queued for at most `ms`; returns how many jobs are left. */
  async drain(ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    this.kick();
    while (this.jobs.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.jobs.length;
  }

  stop(): void {
    this.stopped = true;
    this.kick();
  }

  private run(): void {
    if (this.running) return;
    this.running = true;
    void this.loop().finally(() => {
      this.running = false;
    });
  }

  private async loop(): Promise<void> {
    while (this.jobs.length > 0 && !this.stopped) {
      const job = this.jobs[0];
      const result = await this.submit(job);
      if (result === 'done' || result === 'drop') {
        this.jobs.shift();
        this.queuedBytes -= job.body.length;
        this.backoff.reset();
        continue;
      }
      const delay = this.backoff.next();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, delay);
      });
      this.wake = null;
      this.timer = null;
    }
  }

  private async submit(job: RecoveredJob): Promise<'done' | 'drop' | 'retry'> {
    const q = new URLSearchParams({
      sessionId: job.sessionId,
      clientAddress: job.clientAddress,
      bytesSent: String(job.bytesSent),
      error: job.error,
    });
    const url = toHttpUrl(this.opts.workerUrl, `/internal/bridge/printers/${encodeURIComponent(job.printerId)}/jobs?${q}`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.opts.secret}`, 'Content-Type': 'application/octet-stream' },
        body: new Uint8Array(job.body) as unknown as BodyInit,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      if (res.ok) {
        let documentId: string | undefined;
        try {
          documentId = (JSON.parse(text) as { documentId?: string }).documentId;
        } catch {
          /* ignore */
        }
        this.opts.log.info('recovery.submitted', { printerId: job.printerId, sessionId: job.sessionId, bytes: job.body.length, documentId });
        return 'done';
      }
      if (res.status === 404) {
        this.opts.log.warn('recovery.dropped', { printerId: job.printerId, sessionId: job.sessionId, status: 404, reason: 'printer not found' });
        return 'drop';
      }
      this.opts.log.warn('recovery.retry', { printerId: job.printerId, sessionId: job.sessionId, status: res.status, body: text.slice(0, 200) });
      return 'retry';
    } catch (err) {
      this.opts.log.debug('recovery.retry', { printerId: job.printerId, sessionId: job.sessionId, error: errorMessage(err) });
      return 'retry';
    }
  }
}
