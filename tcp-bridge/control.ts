/**
 * Control channel client (internal-protocol.md section 1): one WebSocket per bridge to
 * `/internal/bridge/control`, ping every 10 s, a channel without a pong for 30 s counts as
 * lost, reconnects with exponential backoff (250 ms doubling to 10 s).
 */
import WebSocket from 'ws';
import { Backoff } from './backoff.ts';
import { corkForTick } from './cork.ts';
import { openWorkerSocket, tcpSocketOf } from './worker-socket.ts';
import { toWebSocketUrl } from './config.ts';
import { errorMessage, type Logger } from './log.ts';
import { encodeMessage, parseWorkerControl, type BridgeControlMessage, type ListenerSpec } from '../src/shared/bridge-protocol.ts';

export interface ControlChannelOptions {
  workerUrl: string;
  secret: string;
  log: Logger;
  /** A complete `listeners` message; `resync` is true for the first one after each (re)connect. */
  onListeners: (listeners: ListenerSpec[], resync: boolean) => void;
  onConnected?: () => void;
  onDisconnected?: () => void;
  /** The `hello` sent first on every connection (the bridge's facts as they are then). */
  hello?: () => BridgeControlMessage & { type: 'hello' };
  /** The Worker refused the bridge's credentials (wrong or revoked token): serve nothing. */
  onRefused?: () => void;
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  backoff?: Backoff;
  /** Messages kept while disconnected (connection records); oldest dropped beyond this. */
  maxQueued?: number;
}

export class ControlChannel {
  private readonly opts: ControlChannelOptions;
  private readonly backoff: Backoff;
  private ws: WebSocket | null = null;
  private open = false;
  private stopped = false;
  private resyncPending = false;
  private pingTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;
  private readonly queue: string[] = [];
  private dropped = 0;

  constructor(opts: ControlChannelOptions) {
    this.opts = opts;
    this.backoff = opts.backoff ?? new Backoff({ initialMs: 250, maxMs: 10_000 });
  }

  get connected(): boolean {
    return this.open;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Sends now when connected; otherwise drops (state is re-announced on resync). */
  send(message: BridgeControlMessage): boolean {
    if (!this.open || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(encodeMessage(message));
    return true;
  }

  /** Sends now, or keeps the message (bounded) until the channel is back. */
  sendOrQueue(message: BridgeControlMessage): void {
    const text = encodeMessage(message);
    if (this.open && this.ws && this.ws.readyState === WebSocket.OPEN) {
      corkForTick(tcpSocketOf(this.ws)); // a burst of connection records leaves in one write
      this.ws.send(text, (err) => {
        if (err) this.enqueue(text);
      });
      return;
    }
    this.enqueue(text);
  }

  private enqueue(text: string): void {
    this.queue.push(text);
    const max = this.opts.maxQueued ?? 10_000;
    while (this.queue.length > max) {
      this.queue.shift();
      this.dropped++;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.clearPing();
    const ws = this.ws;
    if (!ws) return;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          ws.terminate();
          resolve();
        }, 1000);
        ws.once('close', () => {
          clearTimeout(t);
          resolve();
        });
        if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'bridge shutting down');
        else ws.terminate();
      });
    }
  }

  private connect(): void {
    if (this.stopped) return;
    const url = toWebSocketUrl(this.opts.workerUrl, '/internal/bridge/control');
    const ws = openWorkerSocket(url, this.opts.secret);
    this.ws = ws;
    ws.on('open', () => {
      this.open = true;
      this.resyncPending = true;
      this.lastHeard = Date.now();
      this.opts.log.info('control.connected', { url, attemptsBefore: this.backoff.attempts });
      this.backoff.reset();
      this.startPing();
      if (this.dropped > 0) {
        this.opts.log.warn('control.queue_overflow', { droppedMessages: this.dropped });
        this.dropped = 0;
      }
      if (this.opts.hello) ws.send(encodeMessage(this.opts.hello()));
      const queued = this.queue.splice(0);
      for (const m of queued)
        ws.send(m, (err) => {
          if (err) this.enqueue(m);
        });
      this.opts.onConnected?.();
    });
    ws.on('message', (data, isBinary) => {
      this.lastHeard = Date.now();
      if (isBinary) return;
      const text = data.toString();
      const parsed = parseWorkerControl(text, (listener) => this.opts.log.warn('listeners.invalid', { listener }));
      if (!parsed.ok) {
        this.opts.log.warn('control.bad_message', { reason: parsed.reason, sample: text.slice(0, 200) });
        return;
      }
      const msg = parsed.message;
      if (msg.type === 'listeners') {
        const resync = this.resyncPending;
        this.resyncPending = false;
        try {
          this.opts.onListeners(msg.listeners, resync);
        } catch (err) {
          this.opts.log.error('control.listeners_failed', { error: errorMessage(err) });
        }
      }
      // pong: liveness only.
    });
    ws.on('unexpected-response', (_req, res) => {
      const level = res.statusCode === 401 ? 'error' : 'warn';
      this.opts.log[level]('control.rejected', {
        status: res.statusCode,
        hint: res.statusCode === 401 ? 'BRIDGE_TOKEN (or BRIDGE_SECRET) is wrong or was revoked' : undefined,
      });
      res.resume();
      ws.terminate();
      if (res.statusCode === 401) this.opts.onRefused?.();
    });
    ws.on('error', (err) => {
      this.opts.log.debug('control.error', { error: errorMessage(err) });
    });
    ws.on('close', (code) => {
      const wasOpen = this.open;
      this.open = false;
      this.clearPing();
      if (this.ws === ws) this.ws = null;
      if (wasOpen) {
        this.opts.log.warn('control.disconnected', { code });
        this.opts.onDisconnected?.();
      }
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.backoff.next();
    this.opts.log.debug('control.reconnect_in', { ms: delay });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private startPing(): void {
    this.clearPing();
    const interval = this.opts.pingIntervalMs ?? 10_000;
    const timeout = this.opts.pongTimeoutMs ?? 30_000;
    this.pingTimer = setInterval(() => {
      const ws = this.ws;
      if (!ws || !this.open) return;
      if (Date.now() - this.lastHeard > timeout) {
        this.opts.log.warn('control.pong_timeout', { silentMs: Date.now() - this.lastHeard });
        ws.terminate();
        return;
      }
      ws.send(encodeMessage({ type: 'ping' }));
    }, interval);
  }

  private clearPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}
