import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import { findPrinter, listListeningPrinters, setRuntimeState } from '../data/printers.ts';
import { recordConnections, type ConnectionAttempt } from '../data/connections.ts';
import { parseWhitelist } from '../../shared/whitelist.ts';
import { readSettings } from '../config.ts';
import { publishPrinterChange } from '../services/notify.ts';
import { recordBridgeSeen } from '../data/bridges.ts';
import { BRIDGE_HEADERS } from '../services/bridge-auth.ts';
import { DropLog, parseControlMessage } from '../services/bridge-input.ts';
import { listenerSettingsOf } from '../schemas/printer-settings.ts';
import { encodeMessage, type ListenerSpec } from '../../shared/bridge-protocol.ts';

/** Storage key of the bridge's LPD port (its `hello`). */
const LPD_PORT_KEY = 'lpdPort';

/** Connection attempts held for one flush at most; a bridge sending more loses the rest (logged). */
const MAX_PENDING_CONNECTIONS = 5_000;

/**
 * Connection attempts are listed at most this much later than they happen: one D1 statement
 * per second of connections at most (the printing path's D1 budget), written after the
 * documents are announced.
 */
const CONNECTION_FLUSH_MS = 1_000;

/**
 * One bridge's end of the control channel (docs/internal-protocol.md section 1): one hub per
 * bridge (idFromName of its id) and one for the deployment's shared bridge. Pushes the set
 * of printers that bridge should listen for, and turns bind reports into runtime states.
 * Create / start requests wait here for their bind result.
 */
type BindOutcome = { kind: 'bound' } | { kind: 'failed'; error: string } | { kind: 'noBridge' } | { kind: 'timeout' };

interface ListenerInfo { printerId: string; workspaceId: string; port: number }

export class BridgeHub extends DurableObject<Env> {
  private bridge: WebSocket | null = null;
  private listeners = new Map<string, ListenerInfo>();
  /** Last bind report per printer while the current bridge is connected. */
  private bindResults = new Map<string, { port: number; ok: boolean; error?: string }>();
  private waiters = new Map<string, ((outcome: BindOutcome) => void)[]>();
  /** Connection attempts waiting to be written: one D1 batch for a burst of connections. */
  private pendingConnections: ConnectionAttempt[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last connection write (they run one after the other). */
  private connectionWrites: Promise<void> = Promise.resolve();
  /** The bridge this hub serves: its id, or null for the shared one. Set by every upgrade. */
  private bridgeId: string | null = null;
  /** Every printer this bridge connection was told to serve: an `unbound` may come after it left the set. */
  private served = new Set<string>();
  /** The first listener set of the current connection is known (messages wait for it). */
  private listenersKnown: Promise<void> = Promise.resolve();
  private readonly dropped = new DropLog(() => this.bridgeId ?? 'shared');
  /** The current bridge connection has been sent its listener set (readiness). */
  private listenersSent = false;

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return new Response('expected websocket', { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    server.accept();
    const previous = this.bridge;
    this.bridge = server;
    this.bindResults.clear();
    this.served.clear();
    this.listenersSent = false;
    this.bridgeId = request.headers.get(BRIDGE_HEADERS.bridgeId) || null;
    const bridgeId = this.bridgeId;
    if (bridgeId) {
      const seen = { remoteAddress: request.headers.get(BRIDGE_HEADERS.remoteAddress), version: request.headers.get(BRIDGE_HEADERS.version) };
      this.ctx.waitUntil(recordBridgeSeen(this.env.DB, bridgeId, seen).catch((e) => console.error('recording bridge failed', e)));
    }
    if (previous) try { previous.close(1012, 'replaced by a new bridge connection'); } catch { /* already closed */ }
    server.addEventListener('message', (ev) => {
      this.onMessage(server, ev.data).catch((e) => console.error('bridge message failed', e));
    });
    const onGone = () => {
      if (this.bridge !== server) return;
      this.bridge = null;
      this.bindResults.clear();
      this.ctx.waitUntil(this.markAllStarting());
      if (bridgeId) this.ctx.waitUntil(recordBridgeSeen(this.env.DB, bridgeId, {}).catch(() => { /* revoked: row gone */ }));
    };
    server.addEventListener('close', onGone);
    server.addEventListener('error', onGone);
    this.listenersKnown = this.sendListeners().catch((e) => console.error('sending listeners failed', e));
    this.ctx.waitUntil(this.listenersKnown);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Called by the API after any change to which printers listen or how. */
  async listenersChanged(): Promise<void> {
    await this.sendListeners();
  }

  get bridgeConnected(): boolean {
    return this.bridge !== null;
  }

  /**
   * For GET /api/health (services/readiness.ts): the bridge is connected and has reported every
   * listener of the set it was sent; and which printers file (digest) was applied last.
   */
  async readiness(): Promise<{ bridgeConnected: boolean; listenersBound: boolean; declaredFileDigest: string | null }> {
    const listenersBound = this.bridge !== null && this.listenersSent && [...this.listeners.keys()].every((id) => this.bindResults.has(id));
    return { bridgeConnected: this.bridge !== null, listenersBound, declaredFileDigest: (await this.ctx.storage.get<string>('declaredFileDigest')) ?? null };
  }

  /** The printers file with this digest is applied (the shared hub keeps it for readiness). */
  async declaredFileApplied(digest: string): Promise<void> {
    await this.ctx.storage.put('declaredFileDigest', digest);
  }

  /**
   * The LPD port the bridge said it listens on (its last `hello`, kept while it is away): null
   * when it serves no LPD, undefined when it never said (it has not connected since).
   */
  async lpdPort(): Promise<number | null | undefined> {
    return this.ctx.storage.get<number | null>(LPD_PORT_KEY);
  }

  /** For BridgeDto: connected now, and how many of its printers it has bound. */
  status(): { isConnected: boolean; listeningPrinterCount: number } {
    let bound = 0;
    for (const r of this.bindResults.values()) if (r.ok) bound++;
    return { isConnected: this.bridge !== null, listeningPrinterCount: bound };
  }

  /**
   * The bridge was revoked: it is told to listen for nothing (it closes every listener at
   * once), then disconnected. Its token no longer authenticates, so it cannot come back.
   */
  revoke(): void {
    const ws = this.bridge;
    if (!ws) return;
    try {
      ws.send(encodeMessage({ type: 'listeners', listeners: [] }));
      ws.close(4001, 'bridge revoked');
    } catch { /* already closed */ }
    this.bridge = null;
    this.bindResults.clear();
    this.ctx.waitUntil(this.markAllStarting());
  }

  /** Waits (at most `timeoutMs`) for the bridge to report the bind of this printer's port. */
  async awaitBind(printerId: string, port: number, timeoutMs: number): Promise<BindOutcome> {
    if (!this.bridge) return { kind: 'noBridge' };
    const known = this.bindResults.get(printerId);
    if (known && known.port === port) return known.ok ? { kind: 'bound' } : { kind: 'failed', error: known.error ?? 'bind failed' };
    return new Promise<BindOutcome>((resolve) => {
      const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
      const finish = (o: BindOutcome) => {
        clearTimeout(timer);
        const list = this.waiters.get(printerId)?.filter((f) => f !== finish) ?? [];
        if (list.length) this.waiters.set(printerId, list); else this.waiters.delete(printerId);
        resolve(o);
      };
      this.waiters.set(printerId, [...(this.waiters.get(printerId) ?? []), finish]);
    });
  }

  private async sendListeners(): Promise<void> {
    if (!this.bridge) return;
    const rows = await listListeningPrinters(this.env.DB, this.bridgeId);
    const settings = readSettings(this.env);
    this.listeners = new Map(rows.map((r) => [r.id, { printerId: r.id, workspaceId: r.workspace_id, port: r.tcp_listen_port }]));
    for (const id of this.listeners.keys()) this.served.add(id);
    // A bind result only counts for a printer that is still meant to listen on that port.
    for (const [id, res] of this.bindResults) if (this.listeners.get(id)?.port !== res.port) this.bindResults.delete(id);
    const listeners = rows.map((r): ListenerSpec => {
      // Stored entries were validated on PATCH; the normalised forms go to the bridge.
      const { entries } = parseWhitelist(r.ws_whitelist_entries);
      return {
        printerId: r.id,
        workspaceId: r.workspace_id,
        port: r.tcp_listen_port,
        displayName: r.display_name,
        ...listenerSettingsOf(r),
        whitelist: { enabled: r.ws_whitelist_enabled === 1, entries },
        idleTimeoutMs: settings.listenerIdleTimeoutMs,
        maxJobBytes: settings.maxJobBytes,
        maxConnections: settings.maxConnectionsPerPrinter,
        maxJobsInFlight: settings.maxJobsInFlight,
        maxJobSeconds: settings.maxJobSeconds,
      };
    });
    try {
      this.bridge?.send(encodeMessage({ type: 'listeners', listeners }));
      this.listenersSent = this.bridge !== null;
    } catch { /* closed; onGone handles it */ }
  }

  /**
   * A bridge speaks only about the printers it serves (docs/contract/extensions.md "Boundaries"): its listener
   * set, and for `unbound` the printers it was told to serve on this connection. Anything else,
   * or a malformed message, is dropped and logged with the reason.
   */
  private async onMessage(ws: WebSocket, data: unknown): Promise<void> {
    const parsed = parseControlMessage(data);
    if (!parsed.ok) return this.dropped.drop('control', parsed.reason);
    const msg = parsed.value;
    if (msg.type === 'ping') {
      ws.send(encodeMessage({ type: 'pong' }));
      return;
    }
    if (msg.type === 'hello') {
      await this.ctx.storage.put(LPD_PORT_KEY, msg.lpdPort);
      return;
    }
    await this.listenersKnown;
    const listener = this.listeners.get(msg.printerId);
    if (msg.type === 'unbound' ? !this.served.has(msg.printerId) : !listener) {
      return this.dropped.drop(msg.type, 'not a printer this bridge serves', msg.printerId);
    }
    switch (msg.type) {
      case 'bound': {
        const { printerId, port, ok, error } = msg;
        if (listener!.port !== port) return; // stale report
        this.bindResults.set(printerId, { port, ok, error });
        await this.setState(printerId, ok ? 'Started' : 'Error');
        for (const w of this.waiters.get(printerId) ?? []) w(ok ? { kind: 'bound' } : { kind: 'failed', error: error ?? 'bind failed' });
        return;
      }
      case 'unbound': {
        this.bindResults.delete(msg.printerId);
        const row = await findPrinter(this.env.DB, msg.printerId);
        if (row && row.target_state === 'Stopped' && (row.bridge_id ?? null) === this.bridgeId) await this.setState(msg.printerId, 'Stopped');
        return;
      }
      case 'connection': {
        if (this.pendingConnections.length >= MAX_PENDING_CONNECTIONS) return this.dropped.drop('connection', 'too many connection records in one flush', msg.printerId);
        // The time is the Worker's: a bridge's clock (or its word) does not order the log.
        this.pendingConnections.push({ workspaceId: listener!.workspaceId, printerId: msg.printerId, clientIp: msg.clientIp, allowed: msg.allowed, at: new Date().toISOString() });
        this.flushConnectionsSoon();
        return;
      }
    }
  }

  private async setState(printerId: string, state: 'Started' | 'Error' | 'Stopped' | 'Starting'): Promise<void> {
    if (!(await setRuntimeState(this.env.DB, printerId, state))) return;
    const row = await findPrinter(this.env.DB, printerId);
    if (row) await publishPrinterChange(this.env, row, { runtime: true });
  }

  private flushConnectionsSoon(): void {
    this.flushTimer ??= setTimeout(() => this.ctx.waitUntil(this.flushConnections().catch((e) => console.error('recording connections failed', e))), CONNECTION_FLUSH_MS);
  }

  /**
   * Writes the attempts batched so far, and waits for writes already under way: a reader of the
   * connection log calls this first, so it lists every attempt the hub has heard of.
   */
  async flushConnections(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.pendingConnections.splice(0);
    const write = this.connectionWrites.catch(() => undefined).then(() => recordConnections(this.env.DB, batch));
    this.connectionWrites = write;
    await write;
  }

  /** Without a bridge nothing listens: every started printer is back to `Starting`. */
  private async markAllStarting(): Promise<void> {
    for (const id of this.listeners.keys()) await this.setState(id, 'Starting');
  }
}
