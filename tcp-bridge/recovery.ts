/**
 * Recovered jobs (internal-protocol.md section 3): a session whose upstream was lost before
 * `finalised` is submitted as raw bytes to `POST /internal/bridge/printers/{id}/jobs`, retried
 * with backoff until the Worker answers. Idempotent on sessionId on the Worker side.
 *
 * Jobs are sent in one lane per printer: in order within a printer (a printer's jobs print in
 * the order they were received), side by side across printers, so a printer whose object is busy
 * with large jobs does not hold back another printer's recovered receipt.
 */
import { Backoff } from './backoff.ts';
import { toHttpUrl } from './config.ts';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, type Logger } from './log.ts';
import type { EndReason } from '../src/shared/bridge-protocol.ts';

export interface RecoveredJob {
  printerId: string;
  sessionId: string;
  clientAddress: string;
  bytesSent: number;
  /** Attached to the document; empty for a job that ended normally (it is whole). */
  error: string;
  /** How the job ended when it did end normally; null when the upstream was lost mid-job. */
  endReason: EndReason | null;
  body: Buffer;
}

export interface RecoveryOptions {
  workerUrl: string;
  secret: string;
  log: Logger;
  /**
   * Where jobs wait on disk (STATE_DIR/recovery): beyond `maxMemoryBytes`, and every job still
   * unsent at shutdown. Null: memory only (the oldest jobs are given up beyond the bound).
   */
  spillDir?: string | null;
  /** Job bytes kept in memory; more go to disk. */
  maxMemoryBytes?: number;
  /** Job bytes kept on disk before the oldest job is given up. */
  maxDiskBytes?: number;
  /** A fresh backoff per printer lane (default: 250 ms doubling to 10 s, 20 % jitter). */
  backoff?: () => Backoff;
  /** Printers whose jobs are submitted at the same time (default 4). */
  maxLanes?: number;
}

/** The sending loop of one printer's jobs. */
interface Lane {
  backoff: Backoff;
  timer: NodeJS.Timeout | null;
  wake: (() => void) | null;
}

/** A queued job: its body in memory, or in a file of the spill directory. */
interface Entry {
  job: Omit<RecoveredJob, 'body'>;
  bytes: number;
  body: Buffer | null;
  file: string | null;
  /** Sort key of its file: when it was queued, then a counter (jobs keep their order on disk). */
  order: string;
}

let queuedCount = 0;
const orderKey = () => `${Date.now().toString().padStart(15, '0')}-${(queuedCount++).toString().padStart(9, '0')}`;

export class RecoveryQueue {
  private readonly opts: RecoveryOptions;
  /** Every queued job, oldest first (bounds, persistence and each lane's order read it). */
  private readonly entries: Entry[] = [];
  /** Printer id → its running lane. */
  private readonly lanes = new Map<string, Lane>();
  private memoryBytes = 0;
  private diskBytes = 0;
  private stopped = false;

  constructor(opts: RecoveryOptions) {
    this.opts = opts;
  }

  get size(): number {
    return this.entries.length;
  }

  private get maxMemory(): number {
    return this.opts.maxMemoryBytes ?? (this.opts.spillDir ? 64 * 1024 * 1024 : 256 * 1024 * 1024);
  }

  /** Jobs a previous run left on disk (shutdown, or spilled and never sent): queued first. */
  loadSpilled(): number {
    const dir = this.opts.spillDir;
    if (!dir || !existsSync(dir)) return 0;
    const files = readdirSync(dir).filter((f) => f.endsWith('.job')).sort();
    for (const name of files) {
      const file = join(dir, name);
      try {
        const { job, body } = decodeJobFile(readFileSync(file));
        this.entries.push({ job, bytes: body.length, body: null, file, order: name });
        this.diskBytes += body.length;
      } catch (err) {
        this.opts.log.error('recovery.unreadable', { file, error: errorMessage(err) });
      }
    }
    if (this.entries.length) {
      this.opts.log.info('recovery.loaded', { jobs: this.entries.length, bytes: this.diskBytes });
      this.run();
    }
    return this.entries.length;
  }

  add(job: RecoveredJob): void {
    const { body, ...meta } = job;
    const entry: Entry = { job: meta, bytes: body.length, body, file: null, order: orderKey() };
    this.memoryBytes += body.length;
    this.entries.push(entry);
    if (this.memoryBytes > this.maxMemory) {
      if (this.opts.spillDir) this.spill(entry);
      this.enforceBounds();
    }
    this.opts.log.info('recovery.queued', { printerId: job.printerId, sessionId: job.sessionId, bytes: body.length, error: job.error || undefined, onDisk: entry.file !== null });
    this.run();
  }

  /** Writes every job still in memory to the spill directory (shutdown); returns how many are on disk. */
  persist(): number {
    if (!this.opts.spillDir) return 0;
    for (const e of this.entries) if (e.body) this.spill(e);
    return this.entries.filter((e) => e.file !== null).length;
  }

  /** Retry now (e.g. the control channel is back). */
  kick(): void {
    for (const lane of this.lanes.values()) {
      lane.backoff.reset();
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = null;
      lane.wake?.();
    }
    this.run();
  }

  /** Tries to flush what is queued for at most `ms`; returns how many jobs are left. */
  async drain(ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    this.kick();
    while (this.entries.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.entries.length;
  }

  stop(): void {
    this.stopped = true;
    this.kick();
  }

  private spill(e: Entry): void {
    if (!e.body || !this.opts.spillDir) return;
    try {
      mkdirSync(this.opts.spillDir, { recursive: true });
      // Sortable, so a restart sends jobs in the order they were kept.
      const file = join(this.opts.spillDir, `${e.order}-${e.job.sessionId}.job`);
      writeFileSync(file, encodeJobFile(e.job, e.body), { mode: 0o600 });
      e.file = file;
      this.memoryBytes -= e.bytes;
      this.diskBytes += e.bytes;
      e.body = null;
    } catch (err) {
      this.opts.log.error('recovery.spill_failed', { sessionId: e.job.sessionId, error: errorMessage(err) });
    }
  }

  /** Memory (and disk) stay bounded: beyond them the oldest jobs are given up, loudly. */
  private enforceBounds(): void {
    const maxDisk = this.opts.maxDiskBytes ?? 2 * 1024 * 1024 * 1024;
    while ((this.memoryBytes > this.maxMemory || this.diskBytes > maxDisk) && this.entries.length > 1) {
      const victim = this.entries.findIndex((e) => (this.memoryBytes > this.maxMemory ? e.body !== null : e.file !== null));
      if (victim < 0) break;
      const [lost] = this.entries.splice(victim, 1);
      this.forget(lost);
      this.opts.log.error('recovery.dropped', { printerId: lost.job.printerId, sessionId: lost.job.sessionId, bytes: lost.bytes, reason: 'recovery queue full' });
    }
  }

  private forget(e: Entry): void {
    if (e.body) this.memoryBytes -= e.bytes;
    if (e.file) {
      this.diskBytes -= e.bytes;
      rmSync(e.file, { force: true });
    }
    e.body = null;
  }

  private bodyOf(e: Entry): Buffer {
    if (e.body) return e.body;
    return decodeJobFile(readFileSync(e.file!)).body;
  }

  /** Starts a lane for each printer with queued jobs, up to `maxLanes` at once. */
  private run(): void {
    const maxLanes = this.opts.maxLanes ?? 4;
    for (const entry of this.entries) {
      if (this.stopped || this.lanes.size >= maxLanes) return;
      const printerId = entry.job.printerId;
      if (this.lanes.has(printerId)) continue;
      const lane: Lane = { backoff: this.opts.backoff?.() ?? new Backoff({ initialMs: 250, maxMs: 10_000, jitter: 0.2 }), timer: null, wake: null };
      this.lanes.set(printerId, lane);
      void this.sendAll(printerId, lane).finally(() => {
        this.lanes.delete(printerId);
        this.run();
      });
    }
  }

  /** Sends `printerId`'s jobs one after another, oldest first, until none is left. */
  private async sendAll(printerId: string, lane: Lane): Promise<void> {
    for (;;) {
      const entry = this.entries.find((e) => e.job.printerId === printerId);
      if (!entry || this.stopped) return;
      let result: 'done' | 'drop' | 'retry';
      try {
        result = await this.submit({ ...entry.job, body: this.bodyOf(entry) });
      } catch (err) {
        this.opts.log.error('recovery.unreadable', { sessionId: entry.job.sessionId, error: errorMessage(err) });
        result = 'drop';
      }
      if (result === 'done' || result === 'drop') {
        const index = this.entries.indexOf(entry);
        if (index >= 0) this.entries.splice(index, 1);
        this.forget(entry);
        lane.backoff.reset();
        continue;
      }
      const delay = lane.backoff.next();
      await new Promise<void>((resolve) => {
        lane.wake = resolve;
        lane.timer = setTimeout(resolve, delay);
      });
      lane.wake = null;
      lane.timer = null;
    }
  }

  private async submit(job: RecoveredJob): Promise<'done' | 'drop' | 'retry'> {
    const q = new URLSearchParams({
      sessionId: job.sessionId,
      clientAddress: job.clientAddress,
      bytesSent: String(job.bytesSent),
      error: job.error,
    });
    if (job.endReason) q.set('endReason', job.endReason);
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

/** A spilled job: one line of JSON (everything but the bytes), a newline, the raw bytes. */
function encodeJobFile(job: Omit<RecoveredJob, 'body'>, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(JSON.stringify(job) + '\n'), body]);
}

function decodeJobFile(data: Buffer): { job: Omit<RecoveredJob, 'body'>; body: Buffer } {
  const nl = data.indexOf(0x0a);
  if (nl < 0) throw new Error('no header line');
  const job = JSON.parse(data.subarray(0, nl).toString('utf8')) as Omit<RecoveredJob, 'body'>;
  if (typeof job.printerId !== 'string' || typeof job.sessionId !== 'string') throw new Error('bad header');
  return { job: { ...job, endReason: job.endReason ?? null, error: job.error ?? '' }, body: data.subarray(nl + 1) };
}
