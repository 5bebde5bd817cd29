/**
 * Warm spares (internal-protocol.md section 2): one session WebSocket per listening printer,
 * opened ahead of time, so that an accepted TCP connection does not wait for an upgrade.
 *
 * - `ensure` after a successful bind (and on every later `listeners` set): keeps a spare for
 *   the printer; a spare whose upgrade was answered with an HTTP status (404 deleted printer,
 *   401, 5xx) is tried again only here.
 * - `take` lends the printer's open spare to a new session (which sends `start` first); null
 *   when none is open (the caller opens a session itself).
 * - `giveBack` when a session is over: a WebSocket whose job was finalised is a spare again
 *   (internal-protocol.md), so it becomes the printer's open spare unless one is open already;
 *   a lent spare that did not come back is replaced. A steady stream of jobs thus needs no
 *   upgrade at all, which matters most when many printers print at once.
 * - Back to back: a client's next connection usually arrives while its last job is still being
 *   finalised (the TCP side closes first), its spare still lent. That connection upgrades its
 *   own session; given back, its socket is kept as an extra spare of the printer (at most
 *   `MAX_EXTRA_SPARES` per printer and `maxSpares` in all, closed after `EXTRA_IDLE_MS`
 *   without connections), so a
 *   printer printing steadily needs no upgrade at all (each one costs the Worker about as much
 *   CPU as the whole document: without them the storage bench upgraded for a quarter of its jobs).
 * - A spare the Worker closes (wrangler reload: 1006) or that cannot connect is reopened with
 *   backoff (250 ms doubling to 10 s, jittered; reset once a spare was open that long or taken).
 * - `remove` when the listener closes, `closeAll` at shutdown: nothing is left open.
 *
 * Bounded: at most `maxSpares` (default 200) printers hold a spare (each costs ~15-35 KB of
 * bridge memory, and keeps the printer's Durable Object awake). A printer without a connection
 * (or bind) for `idleMs` (default 10 min) lets its spare go; so does one that finds the pool
 * full. Such a "dormant" printer's next connection opens its own session as before and asks
 * for a spare again, granted when there is room (printers that asked within `idleMs` first).
 *
 * Spare upgrades are opened a few at a time, so they never queue in front of the upgrades of
 * connections that found no spare.
 *
 * A spare is a long-lived outgoing connection: its ephemeral local port can be a port a printer
 * is about to listen on (printer ports in the ephemeral range, 32768+ on Linux). `releasePort`
 * resets such a spare (RST, so that no TIME_WAIT keeps the port) for the bind to be retried.
 */
import WebSocket from 'ws';
import { Backoff } from './backoff.ts';
import { errorMessage, type Logger } from './log.ts';
import { openSessionSocket } from './session-socket.ts';
import { tcpSocketOf } from './worker-socket.ts';

export interface SparePoolOptions {
  workerUrl: string;
  secret: string;
  log: Logger;
  /** Spare upgrades in flight at once (default 8). */
  maxConnecting?: number;
  /** Printers holding a spare at most (default 200). */
  maxSpares?: number;
  /** A spare unused this long after the printer's last connection or bind is closed (default 10 min). */
  idleMs?: number;
  backoff?: () => Backoff;
}

/**
 * Extra spares a printer keeps besides its spare (sockets of sessions that found none open):
 * enough for the jobs of a client printing back to back that are finalised at once (the
 * storage bench with 10 printers had up to 4). The whole pool keeps at most `maxSpares` extras.
 */
export const MAX_EXTRA_SPARES = 4;
/** Extra spares close once their printer had no connection for this long (back-to-back jobs only need them). */
export const EXTRA_IDLE_MS = 30_000;

/** queued/connecting/open/lent/waiting (backoff) hold a place in the pool; failed/dormant do not. */
type SlotState = 'queued' | 'connecting' | 'open' | 'lent' | 'waiting' | 'failed' | 'dormant';
const HOLDING: ReadonlySet<SlotState> = new Set(['queued', 'connecting', 'open', 'lent', 'waiting']);
/** States in which a WebSocket given back becomes the printer's spare. */
const ADOPTING: ReadonlySet<SlotState> = new Set(['queued', 'lent', 'waiting']);

interface Slot {
  printerId: string;
  state: SlotState;
  ws: WebSocket | null;
  /** Removes the pool's handlers from `ws` (and releases its connecting place). */
  detach: (() => void) | null;
  openedAt: number;
  /** Last bind or connection of the printer. */
  lastActive: number;
  timer: NodeJS.Timeout | null;
  backoff: Backoff;
  /** Open extra spares (see MAX_EXTRA_SPARES), each with the function that stops following it. */
  extras: Map<WebSocket, () => void>;
}

export class SparePool {
  private readonly opts: SparePoolOptions;
  private readonly slots = new Map<string, Slot>();
  /** Slots waiting for a connecting place, in order. */
  private readonly queue = new Set<Slot>();
  /** Dormant slots whose printer asked for a spare while the pool was full, in order. */
  private readonly wanting = new Set<Slot>();
  private connecting = 0;
  /** Extra spares open in the whole pool (bounded by maxSpares, like the printers holding a spare). */
  private extraCount = 0;
  private stopped = false;
  private atCapacity = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(opts: SparePoolOptions) {
    this.opts = opts;
    this.sweeper = setInterval(() => this.sweep(), Math.min(EXTRA_IDLE_MS, this.idleMs / 4));
    this.sweeper.unref();
  }

  private get maxSpares(): number {
    return this.opts.maxSpares ?? 200;
  }

  private get idleMs(): number {
    return this.opts.idleMs ?? 10 * 60_000;
  }

  /** Printers with an open spare right now. */
  get openCount(): number {
    let n = 0;
    for (const s of this.slots.values()) if (s.state === 'open') n++;
    return n;
  }

  /** State of a printer's spare (tests, diagnostics). */
  stateOf(printerId: string): SlotState | 'none' {
    return this.slots.get(printerId)?.state ?? 'none';
  }

  /** The printer listens: keep a spare for it. Retries a spare whose upgrade was refused. */
  ensure(printerId: string): void {
    if (this.stopped) return;
    let slot = this.slots.get(printerId);
    if (!slot) {
      slot = {
        printerId,
        state: 'failed',
        ws: null,
        detach: null,
        openedAt: 0,
        lastActive: Date.now(),
        timer: null,
        backoff: this.opts.backoff?.() ?? new Backoff({ initialMs: 250, maxMs: 10_000, jitter: 0.5 }),
        extras: new Map(),
      };
      this.slots.set(printerId, slot);
    }
    if (slot.state === 'failed') this.arm(slot);
  }

  /**
   * The printer's open spare, lent to the caller (it must send `start` first and `giveBack`
   * when its session is over); null when none is open.
   */
  take(printerId: string): WebSocket | null {
    const slot = this.slots.get(printerId);
    if (!slot || this.stopped) return null;
    slot.lastActive = Date.now();
    if (slot.state === 'dormant') {
      this.wanting.delete(slot);
      this.arm(slot); // for the next connection
      return null;
    }
    if (slot.state !== 'open' || !slot.ws) return this.takeExtra(slot);
    const ws = slot.ws;
    this.release(slot);
    if (ws.readyState !== WebSocket.OPEN) {
      // Closing already (its close event is still queued): not usable, replace it.
      ws.terminate();
      this.retryLater(slot);
      return null;
    }
    slot.backoff.reset();
    slot.state = 'lent';
    return ws;
  }

  /**
   * A session of the printer is over. `ws` is its WebSocket when the job was finalised and the
   * socket is still open (a spare again), else null; `lent` says it came from `take`.
   */
  giveBack(printerId: string, ws: WebSocket | null, lent: boolean): void {
    const slot = this.slots.get(printerId);
    const usable = ws !== null && ws.readyState === WebSocket.OPEN;
    if (usable && slot && !this.stopped && ADOPTING.has(slot.state)) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      this.queue.delete(slot);
      slot.lastActive = Date.now();
      this.watch(slot, ws, null);
      this.markOpen(slot);
      return;
    }
    if (usable && slot && !this.stopped && HOLDING.has(slot.state) && slot.extras.size < MAX_EXTRA_SPARES && this.extraCount < this.maxSpares) {
      slot.lastActive = Date.now();
      this.keepExtra(slot, ws);
    } else if (ws) closeSpare(ws);
    // The lent spare is gone (upstream lost, Worker restarted): open a replacement.
    if (lent && slot?.state === 'lent' && !this.stopped) {
      slot.state = 'dormant'; // not holding a place until armed again, just below
      this.arm(slot);
    }
  }

  /** The listener is gone: close its spare and forget it. */
  remove(printerId: string): void {
    const slot = this.slots.get(printerId);
    if (!slot) return;
    this.slots.delete(printerId);
    this.discard(slot, 'failed');
    this.fill();
  }

  /**
   * A bind failed with EADDRINUSE: reset the spares whose socket holds `port` locally (they are
   * reopened with backoff, on other ports). True when one did, so the bind is worth retrying.
   */
  releasePort(port: number): boolean {
    let released = false;
    for (const slot of this.slots.values()) {
      for (const ws of slot.extras.keys()) {
        const socket = tcpSocketOf(ws);
        if (!socket || socket.localPort !== port) continue;
        this.dropExtra(slot, ws);
        socket.resetAndDestroy();
        released = true;
      }
      const socket = slot.ws ? tcpSocketOf(slot.ws) : null;
      if (!socket || socket.localPort !== port) continue;
      this.release(slot);
      this.queue.delete(slot);
      socket.resetAndDestroy();
      this.opts.log.info('spare.port_released', { printerId: slot.printerId, port });
      this.retryLater(slot);
      released = true;
    }
    return released;
  }

  /** Shutdown: close every spare, open no more. */
  closeAll(): void {
    this.stopped = true;
    const n = this.openCount;
    clearInterval(this.sweeper);
    for (const slot of this.slots.values()) this.discard(slot, 'failed');
    this.slots.clear();
    this.wanting.clear();
    if (n > 0) this.opts.log.debug('spares.closed', { spares: n });
  }

  // ---- internals ------------------------------------------------------------------------

  private holders(): number {
    let n = 0;
    for (const s of this.slots.values()) if (HOLDING.has(s.state)) n++;
    return n;
  }

  /** Opens a spare for the slot when the pool has room; otherwise the slot waits, dormant. */
  private arm(slot: Slot): void {
    if (this.holders() >= this.maxSpares) {
      slot.state = 'dormant';
      this.wanting.add(slot);
      if (!this.atCapacity) {
        this.atCapacity = true;
        this.opts.log.info('spares.at_capacity', { maxSpares: this.maxSpares });
      }
      return;
    }
    this.enqueue(slot);
  }

  /** Room in the pool: arm the printers that asked for a spare recently. */
  private fill(): void {
    if (this.stopped) return;
    let holders = this.holders();
    const now = Date.now();
    for (const slot of this.wanting) {
      if (holders >= this.maxSpares) return;
      this.wanting.delete(slot);
      if (slot.state !== 'dormant' || now - slot.lastActive > this.idleMs || this.slots.get(slot.printerId) !== slot) continue;
      this.enqueue(slot);
      holders++;
    }
    this.atCapacity = false;
  }

  /** Spares of printers without a connection for idleMs are closed. */
  private sweep(): void {
    const now = Date.now();
    let closed = 0;
    for (const slot of this.slots.values()) {
      if (slot.extras.size > 0 && now - slot.lastActive > EXTRA_IDLE_MS) this.closeExtras(slot);
      if ((slot.state === 'open' || slot.state === 'waiting') && now - slot.lastActive > this.idleMs) {
        this.discard(slot, 'dormant');
        closed++;
      }
    }
    if (closed > 0) {
      this.opts.log.debug('spares.idle_closed', { spares: closed });
      this.fill();
    }
  }

  private enqueue(slot: Slot): void {
    if (this.stopped || this.slots.get(slot.printerId) !== slot) return;
    slot.state = 'queued';
    this.queue.add(slot);
    this.pump();
  }

  private pump(): void {
    const max = this.opts.maxConnecting ?? 8;
    for (const slot of this.queue) {
      if (this.connecting >= max || this.stopped) return;
      this.queue.delete(slot);
      this.connect(slot);
    }
  }

  private connect(slot: Slot): void {
    const ws = openSessionSocket(this.opts.workerUrl, this.opts.secret, slot.printerId, null);
    slot.state = 'connecting';
    this.connecting++;
    this.watch(slot, ws, performance.now());
  }

  private markOpen(slot: Slot): void {
    slot.state = 'open';
    slot.openedAt = Date.now();
  }

  /**
   * Makes `ws` the slot's spare and follows it: a connecting one (`connectStartedAt` set) holds
   * a connecting place until it opens or fails; an open one is watched for its close.
   */
  private watch(slot: Slot, ws: WebSocket, connectStartedAt: number | null): void {
    const { log } = this.opts;
    slot.ws = ws;
    let connecting = connectStartedAt !== null;
    const settle = () => {
      if (!connecting) return;
      connecting = false;
      this.connecting--;
      // Later: the slot's own handlers finish first, so a slot never jumps its own queue.
      queueMicrotask(() => this.pump());
    };
    const current = () => slot.ws === ws && this.slots.get(slot.printerId) === slot;

    const onOpen = () => {
      settle();
      if (!current()) return;
      this.markOpen(slot);
      log.debug('spare.opened', { printerId: slot.printerId, upgradeMs: Math.round(performance.now() - (connectStartedAt ?? 0)) });
    };
    const onUnexpected = (_req: unknown, res: { statusCode?: number; resume(): void }) => {
      res.resume();
      settle();
      if (current()) {
        this.release(slot);
        slot.state = 'failed'; // until the next bind / listeners set
        log.warn('spare.rejected', { printerId: slot.printerId, status: res.statusCode ?? 0 });
      }
      ws.terminate();
      this.fill();
    };
    const onError = (err: Error) => log.debug('spare.error', { printerId: slot.printerId, error: errorMessage(err) });
    const onClose = (code: number) => {
      settle();
      if (!current()) return;
      const openMs = slot.state === 'open' ? Date.now() - slot.openedAt : -1;
      this.release(slot);
      log.debug('spare.closed', { printerId: slot.printerId, code, openMs: openMs >= 0 ? openMs : undefined });
      // A spare that served for a while earns a quick reopen; one that keeps failing backs off.
      if (openMs >= slot.backoff.maxMs) slot.backoff.reset();
      this.retryLater(slot);
    };
    const onMessage = () => {
      /* the Worker says nothing on a spare before `start` */
    };
    ws.on('open', onOpen);
    ws.on('unexpected-response', onUnexpected);
    ws.on('error', onError);
    ws.on('close', onClose);
    ws.on('message', onMessage);
    slot.detach = () => {
      settle();
      ws.off('open', onOpen);
      ws.off('unexpected-response', onUnexpected);
      ws.off('error', onError);
      ws.off('close', onClose);
      ws.off('message', onMessage);
    };
  }

  /** Detaches the slot from its WebSocket (left as it is, but never without an error listener). */
  private release(slot: Slot): void {
    slot.detach?.();
    slot.detach = null;
    slot.ws?.on('error', ignore);
    slot.ws = null;
  }

  private retryLater(slot: Slot): void {
    if (this.stopped) return;
    slot.state = 'waiting';
    const delay = slot.backoff.next();
    slot.timer = setTimeout(() => {
      slot.timer = null;
      this.enqueue(slot);
    }, delay);
    slot.timer.unref();
  }

  /** An open extra spare, lent like the spare itself (null when there is none). */
  private takeExtra(slot: Slot): WebSocket | null {
    for (const ws of [...slot.extras.keys()]) {
      this.dropExtra(slot, ws);
      if (ws.readyState === WebSocket.OPEN) return ws;
      ws.terminate();
    }
    return null;
  }

  /** Keeps a session's socket, a spare again, as an extra spare of the printer until it closes. */
  private keepExtra(slot: Slot, ws: WebSocket): void {
    const forget = () => {
      if (slot.extras.delete(ws)) this.extraCount--;
    };
    ws.on('close', forget);
    ws.on('error', ignore);
    this.extraCount++;
    slot.extras.set(ws, () => {
      ws.off('close', forget);
      forget();
    });
  }

  /** Stops following an extra spare (taken, or being closed). */
  private dropExtra(slot: Slot, ws: WebSocket): void {
    slot.extras.get(ws)?.();
  }

  private closeExtras(slot: Slot): void {
    for (const ws of [...slot.extras.keys()]) {
      this.dropExtra(slot, ws);
      closeSpare(ws);
    }
  }

  private discard(slot: Slot, state: 'failed' | 'dormant'): void {
    this.closeExtras(slot);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    this.queue.delete(slot);
    this.wanting.delete(slot);
    const ws = slot.ws;
    this.release(slot);
    slot.state = state;
    if (ws) closeSpare(ws);
  }
}

function closeSpare(ws: WebSocket): void {
  ws.on('error', ignore);
  if (ws.readyState === WebSocket.OPEN) {
    ws.close(1000, 'spare not needed');
    // The Worker answers the close at once; do not wait 30 s if it does not.
    setTimeout(() => ws.terminate(), 2_000).unref();
  } else ws.terminate();
}

function ignore(): void {
  /* errors of a WebSocket the pool let go of (it is being closed, or a session owns it) */
}
