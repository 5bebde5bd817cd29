/**
 * One accepted TCP connection = one print session (internal-protocol.md section 2).
 * Takes the printer's warm spare when one is open (sending `start` first), otherwise opens the
 * session WebSocket at once; forwards socket bytes in order (queued until the WebSocket is
 * open), writes reply bytes back at once, ends the job on client close, idle timeout, listener
 * stop or maxJobBytes, and hands the job to the recovery queue when the upstream is lost
 * before `finalised`. Once finalised, the WebSocket goes back to the spare pool.
 *
 * Two small state unions say where a session is: `Phase` (the TCP side and the job) and
 * `Upstream` (its WebSocket). Whatever ends a job (the connection, a lost upstream, a deleted
 * printer, no admission) goes through `end`.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { errorMessage, type Logger } from './log.ts';
import type { BufferClient, PrinterBuffer } from './printer-buffer.ts';
import type { RecoveryQueue } from './recovery.ts';
import { corkForTick } from './cork.ts';
import { openSessionSocket, startMessage } from './session-socket.ts';
import { tcpSocketOf } from './worker-socket.ts';
import { encodeMessage, parseWorkerSession, type EndReason, type ListenerSpec } from '../src/shared/bridge-protocol.ts';

export interface SessionHost {
  workerUrl: string;
  secret: string;
  log: Logger;
  recovery: RecoveryQueue;
  /** Current listener settings (they can change while the session runs). */
  spec(): ListenerSpec;
  buffer(): PrinterBuffer | null;
  /** The printer's open warm spare, lent to this session; null when none is open. */
  takeSpare(): WebSocket | null;
  /**
   * The session is over: its WebSocket when the job was finalised and the socket is open (a
   * spare again), else null; `lent` when the session ran on a spare from `takeSpare`.
   */
  giveBack(ws: WebSocket | null, lent: boolean): void;
  onDone(session: Session): void;
  /** How long to wait for `finalised` with no sign of the Worker (default FINALISE_QUIET_MS). */
  finaliseQuietMs?: number;
}

export type SessionOutcome = EndReason | 'upstream-lost' | 'printer-not-found' | 'rejected';

/**
 * Where the job is, TCP side: `waiting` for admission (the socket is not read); `receiving` its
 * bytes; `draining` after it ended (bytes held by buffer emulation still go out, replies are
 * still written); `closing` (replies closed, `end` sent, waiting for `finalised`); `done`.
 */
type Phase = 'waiting' | 'receiving' | 'draining' | 'closing' | 'done';

/**
 * The session's WebSocket to the printer's object: `connecting`, `open`, `finalised` (the job is
 * stored; the socket can serve the next connection), `lost` before `finalised` (the job goes to
 * recovery), or `printerGone` (the printer no longer exists: nothing to recover).
 */
type Upstream = 'connecting' | 'open' | 'finalised' | 'lost' | 'printerGone';

/** Why a job ends; every ending goes through `end`. */
type EndCause =
  | { kind: 'connection'; reason: EndReason }
  | { kind: 'upstreamLost'; message: string }
  | { kind: 'printerGone' }
  | { kind: 'notAdmitted' };

/** Pause the socket while this many bytes wait in the WebSocket's send buffer. */
const UPSTREAM_HIGH_WATER = 4 * 1024 * 1024;
const UPSTREAM_LOW_WATER = 1024 * 1024;
/**
 * After `end`, the bridge waits this long for `finalised` with no sign of life from the printer's
 * object; each `finalising` heartbeat (every 10 s while the object works on the job) starts it
 * again. A printer object busy with several 16 MiB jobs finalises each late but steadily: giving
 * up on it would send every such job through recovery, to be rendered again.
 */
const FINALISE_QUIET_MS = 60_000;
/** The longest wait for `finalised` in all, heartbeats or not. */
const FINALISE_CEILING_MS = 15 * 60_000;
const WRITE_FLUSH_TIMEOUT_MS = 2_000;

export const UPSTREAM_LOST_MESSAGE = 'upstream connection lost';
/** A whole job received while the Worker was unreachable: complete, but no status replies were sent. */
export const OFFLINE_MESSAGE = 'received while the service was unreachable: the job is whole, but no status replies were sent';

export class Session implements BufferClient {
  readonly id = randomUUID();
  readonly printerId: string;
  readonly port: number;
  readonly clientAddress: string;
  readonly startedAt = Date.now();
  private readonly socket: Socket;
  private readonly host: SessionHost;

  bytesRead = 0; // everything read from the socket, including bytes beyond maxJobBytes
  bytesReceived = 0; // bytes that are part of the job
  bytesSent = 0; // reply bytes actually written to the socket
  documentId: string | null = null;
  outcome: SessionOutcome | null = null;
  /** The session runs on a warm spare (no upgrade on the connection's path). */
  viaSpare = false;

  private phase: Phase = 'waiting';
  private upstream: Upstream = 'connecting';
  /** The upstream was open at some point (a job lost before that was received offline). */
  private everOpened = false;
  /** How the connection ended, once it did on its own terms (client close, idle, limits, stop). */
  private endReason: EndReason | null = null;
  private readonly copy: Buffer[] = [];
  private ws: WebSocket | null = null;
  private readonly queue: Array<Buffer | string> = [];
  private wsPending = 0;
  private writesPending = 0;
  private writesFlushed: (() => void) | null = null;
  private readonly pauseReasons = new Set<string>();
  private idleTimer: NodeJS.Timeout | null = null;
  private finalisedResolve: (() => void) | null = null;
  private lostError: string | null = null;
  private droppedReplyBytes = 0;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(socket: Socket, clientAddress: string, host: SessionHost) {
    this.socket = socket;
    this.clientAddress = clientAddress;
    this.host = host;
    const spec = host.spec();
    this.printerId = spec.printerId;
    this.port = spec.port;
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  /** The session was admitted and read its socket (admission.ts); false while it waits, and for one never admitted. */
  get started(): boolean {
    return this.phase !== 'waiting' && this.outcome !== 'rejected';
  }

  /** Never admitted (over capacity, or its listener closed while it waited): close, no job. */
  abandon(): void {
    this.end({ kind: 'notAdmitted' });
  }

  start(): void {
    if (this.phase !== 'waiting') return;
    this.phase = 'receiving';
    const s = this.socket;
    const connectionOver = (reason: EndReason) => this.end({ kind: 'connection', reason });
    // MAX_JOB_SECONDS: a job that never ends (a client trickling bytes) still ends.
    this.jobTimer = setTimeout(() => connectionOver('maxJobSeconds'), this.host.spec().maxJobSeconds * 1000);
    s.setNoDelay(true);
    s.on('data', (chunk: Buffer) => this.onData(chunk));
    s.on('end', () => connectionOver('closed'));
    s.on('error', (err) => {
      this.host.log.debug('session.socket_error', { sessionId: this.id, error: errorMessage(err) });
      connectionOver('closed');
    });
    s.on('close', () => connectionOver('closed'));
    // Upstream first: on a spare, `start` must precede anything the buffer may send.
    this.openUpstream();
    this.host.buffer()?.attach(this);
    this.armIdle();
    s.resume();
  }

  /**
   * Shutdown ran out of time before `finalised`: the job goes to the recovery queue (and from
   * there to disk) rather than being lost with this process.
   */
  handOver(): void {
    if (this.phase === 'done') return;
    this.ws?.terminate();
    this.end({ kind: 'upstreamLost', message: `${UPSTREAM_LOST_MESSAGE} (the bridge shut down before the job was finalised)` });
  }

  /** The listener is going away: end the job now (held bytes are released at once). */
  stop(): Promise<void> {
    this.end(this.phase === 'waiting' ? { kind: 'notAdmitted' } : { kind: 'connection', reason: 'stopped' });
    return this.done;
  }

  /** The one way a job ends, whatever ended it. */
  private end(cause: EndCause): void {
    switch (cause.kind) {
      case 'connection': return this.connectionEnded(cause.reason);
      case 'upstreamLost': return this.upstreamLost(cause.message);
      case 'printerGone': return this.printerGone();
      case 'notAdmitted': return this.notAdmitted();
    }
  }

  /** Whether the TCP side is still open (waiting for admission or receiving). */
  private get connectionOpen(): boolean {
    return this.phase === 'waiting' || this.phase === 'receiving';
  }

  private get upstreamGone(): boolean {
    return this.upstream === 'lost' || this.upstream === 'printerGone';
  }

  // ---- TCP side -------------------------------------------------------------------------

  private onData(chunk: Buffer): void {
    if (!this.connectionOpen) return;
    this.bytesRead += chunk.length;
    const max = this.host.spec().maxJobBytes;
    const room = max - this.bytesReceived;
    if (chunk.length > room) {
      if (room > 0) this.accept(chunk.subarray(0, room));
      this.end({ kind: 'connection', reason: 'maxJobBytes' });
      return;
    }
    this.accept(chunk);
    this.armIdle();
  }

  private accept(chunk: Buffer): void {
    this.bytesReceived += chunk.length;
    this.copy.push(chunk);
    const buffer = this.host.buffer();
    if (buffer) buffer.push(this, chunk);
    else this.forward(chunk);
  }

  /**
   * The idle timer measures the client's silence, so it does not run while we ourselves hold
   * the socket back (buffer emulation, or the Worker's WebSocket not draining): a client blocked
   * by our backpressure is not idle.
   */
  private armIdle(): void {
    if (!this.connectionOpen || this.pauseReasons.size > 0) return;
    if (this.idleTimer) {
      this.idleTimer.refresh();
      return;
    }
    this.idleTimer = setTimeout(() => this.end({ kind: 'connection', reason: 'idle' }), this.host.spec().idleTimeoutMs);
  }

  private disarmIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private setPaused(reason: string, on: boolean): void {
    if (on) this.pauseReasons.add(reason);
    else this.pauseReasons.delete(reason);
    if (!this.connectionOpen) return;
    if (this.pauseReasons.size > 0) {
      this.socket.pause();
      this.disarmIdle();
    } else {
      this.socket.resume();
      this.armIdle();
    }
  }

  private writeReply(data: Buffer): void {
    const acceptsReplies = this.phase !== 'closing' && this.phase !== 'done';
    if (!acceptsReplies || this.socket.destroyed || !this.socket.writable) {
      this.droppedReplyBytes += data.length;
      return;
    }
    this.writesPending++;
    this.socket.write(data, (err) => {
      this.writesPending--;
      if (!err) this.bytesSent += data.length;
      if (this.writesPending === 0) this.writesFlushed?.();
    });
  }

  private async flushWrites(): Promise<void> {
    if (this.writesPending === 0) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, WRITE_FLUSH_TIMEOUT_MS);
      this.writesFlushed = () => {
        clearTimeout(t);
        resolve();
      };
    });
    this.writesFlushed = null;
  }

  // ---- BufferClient ---------------------------------------------------------------------

  forward(chunk: Buffer): void {
    if (this.upstreamGone) return;
    if (this.upstream === 'open' && this.ws) this.sendFrame(chunk);
    else this.queue.push(chunk);
  }

  setHeld(held: boolean): void {
    this.setPaused('buffer', held);
  }

  sendBufferFigures(bufferedBytes: number, bufferedBytesDeltaBps: number): void {
    // Nothing after `finalised`: the WebSocket is a spare again, whose first message must be `start`.
    if (this.upstream !== 'open' || this.phase === 'done') return;
    this.sendFrame(encodeMessage({ type: 'buffer', bufferedBytes, bufferedBytesDeltaBps }));
  }

  // ---- WebSocket side -------------------------------------------------------------------

  private openUpstream(): void {
    const spare = this.host.takeSpare();
    this.attachUpstream(spare ?? this.openOwnSocket(), spare !== null);
  }

  private openOwnSocket(): WebSocket {
    return openSessionSocket(this.host.workerUrl, this.host.secret, this.printerId, { sessionId: this.id, clientAddress: this.clientAddress });
  }

  /**
   * The lent spare closed before `start` went out on it (the Worker had closed it already; its
   * close was still queued when the connection took it): the Worker never heard of this
   * session, so it is not lost but starts over on its own WebSocket, as a connection that found
   * no spare does. While the Worker is away that one fails too, and the job is an offline one.
   */
  private replaceDeadSpare(): void {
    const dead = this.ws!;
    for (const event of ['message', 'unexpected-response', 'error', 'close']) dead.removeAllListeners(event);
    dead.on('error', () => { /* closing */ });
    if (dead.readyState !== WebSocket.CLOSED) dead.terminate();
    this.host.log.debug('session.spare_dead', { sessionId: this.id, printerId: this.printerId });
    this.pendingStart = null;
    this.viaSpare = false;
    this.everOpened = false;
    this.upstream = 'connecting';
    this.host.giveBack(null, true); // the pool opens a replacement
    this.attachUpstream(this.openOwnSocket(), false);
  }

  private attachUpstream(ws: WebSocket, spare: boolean): void {
    this.ws = ws;
    if (spare) {
      this.viaSpare = true;
      this.upstream = 'open';
      this.everOpened = true;
      // Sent with the first frame that follows (in the same write): the Durable Object has
      // nothing to do for the session before its first byte.
      this.pendingStart = startMessage({ sessionId: this.id, clientAddress: this.clientAddress });
    } else {
      ws.on('open', () => {
        if (this.upstreamGone) {
          ws.terminate();
          return;
        }
        this.upstream = 'open';
        this.everOpened = true;
        for (const item of this.queue.splice(0)) this.sendFrame(item);
      });
    }
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) {
        this.writeReply(buf);
        return;
      }
      const parsed = parseWorkerSession(buf.toString('utf8'));
      if (!parsed.ok) {
        this.host.log.warn('session.bad_message', { sessionId: this.id, reason: parsed.reason });
        return;
      }
      const msg = parsed.message;
      if (msg.type === 'finalising') {
        this.onFinalising?.();
        return;
      }
      if (msg.type === 'finalised') {
        this.documentId = msg.documentId;
        this.upstream = 'finalised';
        this.finalisedMs = this.endSentAt ? performance.now() - this.endSentAt : null;
        this.finalisedResolve?.();
      }
    });
    ws.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      ws.terminate();
      if (status === 404) this.end({ kind: 'printerGone' });
      else this.end({ kind: 'upstreamLost', message: `${UPSTREAM_LOST_MESSAGE} (session upgrade answered ${status})` });
    });
    ws.on('error', (err) => {
      this.host.log.debug('session.ws_error', { sessionId: this.id, error: errorMessage(err) });
    });
    ws.on('close', (code) => {
      if (this.pendingStart !== null && !this.upstreamGone && this.phase !== 'done') this.replaceDeadSpare();
      else if (this.upstream !== 'finalised') this.end({ kind: 'upstreamLost', message: `${UPSTREAM_LOST_MESSAGE} (code ${code})` });
    });
  }

  private sendFrame(item: Buffer | string): void {
    const ws = this.ws!;
    if (this.pendingStart !== null && ws.readyState !== WebSocket.OPEN) {
      // The lent spare is closing: nothing went out on it yet.
      this.queue.push(item);
      this.replaceDeadSpare();
      return;
    }
    corkForTick(tcpSocketOf(ws));
    if (this.pendingStart !== null) {
      const start = this.pendingStart;
      this.pendingStart = null;
      this.sendFrame(start);
    }
    const n = item.length;
    this.wsPending += n;
    if (this.wsPending > UPSTREAM_HIGH_WATER) this.setPaused('upstream', true);
    ws.send(item, { binary: typeof item !== 'string' }, () => {
      this.wsPending -= n;
      if (this.wsPending < UPSTREAM_LOW_WATER && this.pauseReasons.has('upstream')) this.setPaused('upstream', false);
    });
  }

  // ---- Ending ---------------------------------------------------------------------------

  /** The connection is over on its own terms: the job is whole; `end` follows once held bytes are out. */
  private connectionEnded(reason: EndReason): void {
    if (this.phase !== 'receiving') return;
    this.phase = 'draining';
    this.outcome = reason;
    this.endReason = reason;
    this.disarmIdle();
    if (reason !== 'closed') this.socket.pause();
    void this.runEnd(reason).catch((err) => {
      this.host.log.error('session.end_failed', { sessionId: this.id, error: errorMessage(err) });
    });
  }

  private async runEnd(reason: EndReason): Promise<void> {
    const buffer = this.host.buffer();
    if (buffer) {
      if (reason === 'stopped' || this.upstreamGone) buffer.flush(this);
      else await buffer.settle(this);
      buffer.detach(this);
    }
    if (this.phase === 'done') return;
    // No more reply bytes from here: bytesSent is final once pending writes are flushed.
    this.phase = 'closing';
    await this.flushWrites();
    if (this.isDone()) return;
    const s = this.socket;
    if (reason === 'maxJobBytes' || reason === 'maxJobSeconds' || reason === 'stopped') s.destroy();
    else if (!s.destroyed) {
      s.end();
      setTimeout(() => s.destroy(), 5_000).unref();
    }
    if (this.upstreamGone) {
      // Offline session (the Worker was unreachable when it started): the whole job goes to recovery.
      this.submitRecovery();
      this.complete();
      return;
    }

    const finalised = new Promise<void>((resolve) => (this.finalisedResolve = resolve));
    const endMsg = encodeMessage({ type: 'end', reason, bytesSent: this.bytesSent });
    this.endSentAt = performance.now();
    if (this.upstream === 'open') this.sendFrame(endMsg);
    else this.queue.push(endMsg);
    const quietMs = this.host.finaliseQuietMs ?? FINALISE_QUIET_MS;
    const giveUpAt = performance.now() + FINALISE_CEILING_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => {
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => r('timeout'), Math.max(0, Math.min(quietMs, giveUpAt - performance.now())));
      };
      this.onFinalising = arm;
      arm();
    });
    const lost = new Promise<void>((r) => (this.onLost = r));
    const result = await Promise.race([finalised, timeout, lost]);
    clearTimeout(timer);
    this.onFinalising = null;
    if (this.isDone()) return; // the upstream was lost meanwhile
    if (result === 'timeout' && this.upstream !== 'finalised') {
      this.ws?.terminate();
      this.end({ kind: 'upstreamLost', message: `${UPSTREAM_LOST_MESSAGE} (no finalised, nor sign of the Worker, within ${quietMs} ms)` });
      return;
    }
    this.complete();
  }

  private pendingStart: string | null = null;
  private onLost: (() => void) | null = null;
  /** Restarts the finalise wait: the printer's object said it is still working on the job. */
  private onFinalising: (() => void) | null = null;
  private endSentAt = 0;
  /** Time from `end` to `finalised` (the Worker's share of the job's latency). */
  private finalisedMs: number | null = null;
  private isDone(): boolean {
    return this.phase === 'done';
  }
  private recoverySubmitted = false;
  private jobTimer: NodeJS.Timeout | null = null;

  /**
   * Upstream gone before `finalised`. A session that never reached the Worker keeps receiving
   * (offline) and submits the whole job when it ends; otherwise the TCP side is closed now and
   * what arrived is submitted through route 3 (idempotent with what the Durable Object kept).
   */
  private upstreamLost(message: string): void {
    if (this.upstream === 'lost' || this.upstream === 'printerGone' || this.upstream === 'finalised' || this.phase === 'done') return;
    this.upstream = 'lost';
    this.lostError = message;
    this.queue.length = 0;
    if (this.connectionOpen && !this.everOpened) {
      this.host.log.warn('session.offline', { printerId: this.printerId, sessionId: this.id, client: this.clientAddress, error: message });
      this.host.buffer()?.detach(this);
      return;
    }
    if (this.connectionOpen) {
      this.phase = 'closing';
      this.outcome = 'upstream-lost';
      this.disarmIdle();
      this.host.buffer()?.detach(this);
      this.socket.destroy();
    }
    this.submitRecovery();
    this.onLost?.();
    this.complete();
  }

  /** Hands the WebSocket back to the spare pool when it can serve the printer's next connection. */
  private releaseUpstream(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      for (const event of ['open', 'message', 'unexpected-response', 'error', 'close']) ws.removeAllListeners(event);
      ws.on('error', () => { /* closing, or the pool's now */ });
    }
    const reusable = ws !== null && this.upstream === 'finalised' && ws.readyState === WebSocket.OPEN;
    if (!reusable && ws && ws.readyState !== WebSocket.CLOSED) ws.terminate();
    this.host.giveBack(reusable ? ws : null, this.viaSpare);
  }

  private submitRecovery(): void {
    if (this.recoverySubmitted) return;
    this.recoverySubmitted = true;
    if (this.bytesReceived > 0 || this.bytesSent > 0) {
      this.host.recovery.add({
        printerId: this.printerId,
        sessionId: this.id,
        clientAddress: this.clientAddress,
        bytesSent: this.bytesSent,
        // A job that ended on its own terms is whole: every byte is in `copy`, no error.
        error: this.endReason === null ? UPSTREAM_LOST_MESSAGE : this.everOpened ? '' : OFFLINE_MESSAGE,
        endReason: this.endReason,
        body: Buffer.concat(this.copy),
      });
    }
    this.copy.length = 0;
  }

  private printerGone(): void {
    if (this.phase === 'done') return;
    this.upstream = 'printerGone';
    this.outcome = 'printer-not-found';
    this.host.buffer()?.detach(this);
    this.socket.destroy();
    this.copy.length = 0;
    this.onLost?.();
    this.complete();
  }

  private notAdmitted(): void {
    if (this.phase !== 'waiting') return;
    this.phase = 'done';
    this.outcome = 'rejected';
    this.socket.destroy();
    this.host.onDone(this);
    this.resolveDone();
  }

  /** The job is over: the upstream goes back to the spare pool (or closes) and the connection is logged. */
  private complete(): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.disarmIdle();
    if (this.jobTimer) clearTimeout(this.jobTimer);
    this.copy.length = 0;
    this.releaseUpstream();
    if (!this.socket.destroyed) setTimeout(() => this.socket.destroy(), 5_000).unref();
    this.host.log.info('connection', {
      printerId: this.printerId,
      port: this.port,
      sessionId: this.id,
      client: this.clientAddress,
      allowed: true,
      spare: this.viaSpare,
      bytesIn: this.bytesRead,
      bytesReceived: this.bytesReceived,
      bytesOut: this.bytesSent,
      droppedReplyBytes: this.droppedReplyBytes || undefined,
      outcome: this.upstreamGone ? (this.outcome === 'printer-not-found' ? 'printer-not-found' : 'upstream-lost') : this.outcome,
      endReason: this.outcome,
      error: this.lostError ?? undefined,
      documentId: this.documentId ?? undefined,
      durationMs: Date.now() - this.startedAt,
      finaliseMs: this.finalisedMs === null ? undefined : Math.round(this.finalisedMs * 10) / 10,
    });
    this.host.onDone(this);
    this.resolveDone();
  }
}
