/**
 * Buffer emulation for one printer, shared by all its open connections. Bytes read from a
 * socket enter the printer's buffer (a TokenBucket) as room allows and only then go upstream;
 * what does not fit is held by the bridge and the socket stops being read (real TCP
 * backpressure) until the buffer drains at `drainRate`. Figures are reported to every open
 * session of the printer every 250 ms while the buffer is not empty, and once when it is.
 */
import { TokenBucket } from './bucket.ts';
import type { BufferSpec } from '../src/shared/bridge-protocol.ts';

export interface BufferClient {
  /** Admitted bytes, in order: send them upstream. */
  forward(chunk: Buffer): void;
  /** True while the client has bytes the buffer could not take yet: stop reading the socket. */
  setHeld(held: boolean): void;
  sendBufferFigures(bufferedBytes: number, bufferedBytesDeltaBps: number): void;
}

interface ClientState {
  held: Buffer[];
  heldBytes: number;
  /** Cumulative bucket position of this client's last admitted byte. */
  lastAdmitted: number;
  settleWaiters: Array<() => void>;
}

export const REPORT_INTERVAL_MS = 250;

export class PrinterBuffer {
  private readonly bucket: TokenBucket;
  private readonly now: () => number;
  private readonly clients = new Map<BufferClient, ClientState>();
  /** Clients with held bytes, served round-robin. */
  private waiting: BufferClient[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastReportAt = -Infinity;
  private lastReportLevel = 0;
  private lastReportedBytes = 0;
  private disabled = false;

  constructor(spec: BufferSpec, now: () => number = () => performance.now()) {
    this.now = now;
    this.bucket = new TokenBucket(spec.maxCapacity, spec.drainRate, now());
  }

  get capacity(): number {
    return this.bucket.capacity;
  }

  level(): number {
    return this.bucket.level(this.now());
  }

  attach(client: BufferClient): void {
    if (!this.clients.has(client)) this.clients.set(client, { held: [], heldBytes: 0, lastAdmitted: 0, settleWaiters: [] });
  }

  detach(client: BufferClient): void {
    const st = this.clients.get(client);
    if (!st) return;
    if (st.heldBytes > 0) this.flush(client);
    for (const w of st.settleWaiters.splice(0)) w();
    this.clients.delete(client);
    this.waiting = this.waiting.filter((c) => c !== client);
  }

  heldBytes(client: BufferClient): number {
    return this.clients.get(client)?.heldBytes ?? 0;
  }

  push(client: BufferClient, chunk: Buffer): void {
    this.attach(client);
    const st = this.clients.get(client)!;
    if (this.disabled) {
      client.forward(chunk);
      return;
    }
    if (st.heldBytes === 0) {
      const n = this.bucket.admit(chunk.length, this.now());
      if (n > 0) {
        st.lastAdmitted = this.bucket.admittedTotal();
        client.forward(n === chunk.length ? chunk : chunk.subarray(0, n));
      }
      if (n < chunk.length) {
        st.held.push(chunk.subarray(n));
        st.heldBytes += chunk.length - n;
        this.waiting.push(client);
        client.setHeld(true);
      }
    } else {
      st.held.push(chunk);
      st.heldBytes += chunk.length;
    }
    this.tick();
  }

  /** Forwards a client's held bytes at once, bypassing the buffer (listener stopping). */
  flush(client: BufferClient): void {
    const st = this.clients.get(client);
    if (!st || st.heldBytes === 0) return;
    for (const c of st.held.splice(0)) client.forward(c);
    st.heldBytes = 0;
    this.waiting = this.waiting.filter((c) => c !== client);
    client.setHeld(false);
    this.tick();
  }

  /** Resolves once the client holds nothing and its last admitted byte has drained. */
  settle(client: BufferClient): Promise<void> {
    const st = this.clients.get(client);
    if (!st || this.disabled) return Promise.resolve();
    return new Promise((resolve) => {
      st.settleWaiters.push(resolve);
      this.tick();
    });
  }

  reconfigure(spec: BufferSpec): void {
    this.bucket.reconfigure(spec.maxCapacity, spec.drainRate, this.now());
    this.tick();
  }

  /** Buffer emulation switched off: release everything, report an empty buffer. */
  disable(): void {
    this.disabled = true;
    for (const client of [...this.waiting]) this.flush(client);
    for (const st of this.clients.values()) for (const w of st.settleWaiters.splice(0)) w();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.lastReportedBytes !== 0) this.report(0, 0);
  }

  private pump(now: number): void {
    let guard = this.waiting.length * 4 + 4;
    while (this.waiting.length > 0 && guard-- > 0) {
      const room = this.bucket.room(now);
      if (room <= 0) break;
      const client = this.waiting.shift()!;
      const st = this.clients.get(client);
      if (!st || st.heldBytes === 0) continue;
      let budget = room;
      while (budget > 0 && st.held.length > 0) {
        const head = st.held[0];
        const n = this.bucket.admit(Math.min(budget, head.length), now);
        if (n <= 0) break;
        budget -= n;
        st.heldBytes -= n;
        st.lastAdmitted = this.bucket.admittedTotal();
        if (n === head.length) {
          st.held.shift();
          client.forward(head);
        } else {
          st.held[0] = head.subarray(n);
          client.forward(head.subarray(0, n));
        }
      }
      if (st.heldBytes > 0) this.waiting.push(client); // round-robin
      else client.setHeld(false);
    }
  }

  private tick(): void {
    if (this.disabled) return;
    const now = this.now();
    this.pump(now);

    // Figures: every REPORT_INTERVAL_MS while not empty, and once when back to 0.
    const level = this.bucket.level(now);
    const bytes = Math.round(level);
    if (bytes > 0 || this.lastReportedBytes !== 0) {
      if (now - this.lastReportAt >= REPORT_INTERVAL_MS || (bytes === 0 && this.lastReportedBytes !== 0)) {
        const dt = Math.min(Math.max(now - this.lastReportAt, 1), 1000);
        const delta = Math.round(((level - this.lastReportLevel) / dt) * 1000);
        this.lastReportAt = now;
        this.lastReportLevel = level;
        this.report(bytes, bytes === 0 ? 0 : delta);
      }
    }

    // Settle waiters.
    let settleDelay = Infinity;
    for (const st of this.clients.values()) {
      if (st.settleWaiters.length === 0 || st.heldBytes > 0) continue;
      const ms = this.bucket.msUntilDrained(st.lastAdmitted, now);
      if (ms <= 0) {
        if (bytes === 0 && this.lastReportedBytes !== 0) this.report(0, 0);
        for (const w of st.settleWaiters.splice(0)) w();
      } else settleDelay = Math.min(settleDelay, ms);
    }

    // Next wake-up.
    let delay = Infinity;
    if (this.waiting.length > 0) {
      const head = this.clients.get(this.waiting[0]);
      const want = Math.max(1, Math.min(head?.held[0]?.length ?? 1, Math.floor(this.bucket.capacity / 4)));
      delay = Math.min(delay, this.bucket.msUntilRoom(want, now));
    }
    if (bytes > 0 || this.lastReportedBytes !== 0) {
      delay = Math.min(delay, Math.max(0, REPORT_INTERVAL_MS - (now - this.lastReportAt)), (level / this.bucket.rate) * 1000 + 1);
    }
    delay = Math.min(delay, settleDelay);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (delay !== Infinity) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.tick();
      }, Math.max(1, Math.min(Math.ceil(delay), REPORT_INTERVAL_MS)));
    }
  }

  private report(bytes: number, delta: number): void {
    this.lastReportedBytes = bytes;
    for (const client of this.clients.keys()) client.sendBufferFigures(bytes, delta);
  }
}
