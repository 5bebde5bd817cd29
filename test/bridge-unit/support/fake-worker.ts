/**
 * A stand-in for the Worker side of docs/internal-protocol.md, for testing the bridge alone:
 * control channel (listeners/bound/connection/ping), session WebSockets (bytes in, DLE EOT
 * replies out, end -> finalised) opened with their query parameters or as warm spares started
 * by a `start` message, and recovered-job submissions. Can be taken down and
 * brought back on the same port to test resilience.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export interface FakeDocument {
  documentId: string;
  printerId: string;
  sessionId: string;
  clientAddress: string;
  bytes: Buffer;
  bytesSent: number;
  reason: string;
  via: 'session' | 'recovered' | 'lost';
  /** The session ran on a warm spare. */
  spare?: boolean;
  error?: string;
  /** A recovered job's ending as the bridge saw it (null: lost mid-job). */
  endReason?: string;
  bufferReports: Array<{ bufferedBytes: number; bufferedBytesDeltaBps: number; at: number }>;
}

export interface ControlMessage {
  type: string;
  [k: string]: unknown;
}

export class FakeWorker {
  readonly secret: string;
  port = 0;
  listeners: unknown[] = [];
  /** Printers whose sessions answer 404. */
  readonly gone = new Set<string>();
  readonly controlMessages: ControlMessage[] = [];
  readonly documents: FakeDocument[] = [];
  /** Reply to DLE EOT n with this byte. */
  status: Record<number, number> = { 1: 0x16, 2: 0x12, 3: 0x12, 4: 0x12 };
  /** Delay before answering `end` with finalised. */
  finaliseDelayMs = 0;
  /** When set, sessions never answer `end` (to test upstream loss after end). */
  holdFinalise = false;
  /** While finalising (finaliseDelayMs), send `finalising` this often, as the Durable Object does. */
  finalisingEveryMs: number | null = null;
  /** Delay before accepting a session upgrade (bytes must be queued meanwhile). */
  upgradeDelayMs = 0;
  /** When set, spare upgrades (no sessionId) are answered with this status instead. */
  rejectSparesWith: number | null = null;
  /** Every spare upgrade accepted, per printer (open, started or closed). */
  readonly spareUpgrades: Array<{ printerId: string; at: number; bridgePort: number }> = [];
  /** First message of every spare, as received (must be `start`). */
  readonly spareFirstMessages: Array<{ printerId: string; text: string | null; binary: boolean }> = [];
  private server: http.Server | null = null;
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private readonly controls = new Set<WebSocket>();
  private readonly sessions = new Set<WebSocket>();
  /** Spares not started yet, per WebSocket. */
  private readonly spares = new Map<WebSocket, string>();
  /** Session upgrades accepted but not completed yet (upgradeDelayMs): dropped by `stop` too. */
  private readonly upgrading = new Set<import('node:net').Socket>();
  private docWaiters: Array<() => void> = [];
  openSessions = 0;
  /** Session sockets that became spares again after `finalised` (no upgrade needed). */
  reusedSessions = 0;

  constructor(secret = 'test-secret') {
    this.secret = secret;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<void> {
    const server = http.createServer((req, res) => this.onRequest(req, res));
    server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket as import('node:net').Socket, head));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Session upgrades received and not completed yet. */
  get pendingUpgrades(): number {
    return this.upgrading.size;
  }

  /** Open spares not started yet (optionally of one printer). */
  openSpares(printerId?: string): number {
    let n = 0;
    for (const id of this.spares.values()) if (printerId === undefined || id === printerId) n++;
    return n;
  }

  /** Drops the open spares (as a wrangler reload does: the bridge sees 1006). */
  dropSpares(printerId?: string): void {
    for (const [ws, id] of this.spares) if (printerId === undefined || id === printerId) ws.terminate();
  }

  /** Drops the running print sessions' sockets (a lost upstream, as the bridge sees it). */
  dropSessions(): void {
    for (const ws of this.sessions) ws.terminate();
  }

  /** Simulates the Worker going away: every socket dropped, port closed. */
  async stop(): Promise<void> {
    for (const ws of [...this.controls, ...this.sessions, ...this.spares.keys()]) ws.terminate();
    // Detached from the HTTP server, these would otherwise complete their upgrade after it
    // closed: a session alive through the outage, and `server.close` waiting on it.
    for (const socket of this.upgrading) socket.destroy();
    this.upgrading.clear();
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  setListeners(listeners: unknown[]): void {
    this.listeners = listeners;
    for (const ws of this.controls) ws.send(JSON.stringify({ type: 'listeners', listeners }));
  }

  /** Sends a text frame as is on every control channel (a malformed one, for the bridge's parser). */
  sendControlText(text: string): void {
    for (const ws of this.controls) ws.send(text);
  }

  get controlConnected(): number {
    return this.controls.size;
  }

  messages(type: string): ControlMessage[] {
    return this.controlMessages.filter((m) => m.type === type);
  }

  async waitFor<T>(fn: () => T | undefined | null | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = fn();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  waitForDocuments(n: number, timeoutMs = 5000): Promise<FakeDocument[]> {
    return this.waitFor(() => (this.documents.length >= n ? this.documents.slice(0, n) : null), timeoutMs, `${n} documents`);
  }

  private authorised(req: http.IncomingMessage): boolean {
    return req.headers.authorization === `Bearer ${this.secret}`;
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/internal\/bridge\/printers\/([^/]+)\/jobs$/.exec(url.pathname);
    if (!this.authorised(req)) {
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"status":401}');
      return;
    }
    if (req.method === 'POST' && m) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const printerId = decodeURIComponent(m[1]);
        if (this.gone.has(printerId)) {
          res.writeHead(404).end();
          return;
        }
        const sessionId = url.searchParams.get('sessionId') ?? '';
        const existing = this.documents.find((d) => d.sessionId === sessionId);
        if (existing) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ documentId: existing.documentId }));
          return;
        }
        const doc: FakeDocument = {
          documentId: randomUUID(),
          printerId,
          sessionId,
          clientAddress: url.searchParams.get('clientAddress') ?? '',
          bytes: Buffer.concat(chunks),
          bytesSent: Number(url.searchParams.get('bytesSent')),
          reason: 'recovered',
          via: 'recovered',
          error: url.searchParams.get('error') ?? undefined,
          endReason: url.searchParams.get('endReason') ?? undefined,
          bufferReports: [],
        };
        this.addDocument(doc);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ documentId: doc.documentId }));
      });
      return;
    }
    res.writeHead(404).end();
  }

  private onUpgrade(req: http.IncomingMessage, socket: import('node:net').Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const reject = (status: number) => {
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    };
    if (!this.authorised(req)) return reject(401);
    if (url.pathname === '/internal/bridge/control') {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onControl(ws));
      return;
    }
    const m = /^\/internal\/bridge\/printers\/([^/]+)\/session$/.exec(url.pathname);
    if (m) {
      const printerId = decodeURIComponent(m[1]);
      if (this.gone.has(printerId)) return reject(404);
      const sessionId = url.searchParams.get('sessionId');
      if (!sessionId && this.rejectSparesWith !== null) return reject(this.rejectSparesWith);
      this.upgrading.add(socket);
      setTimeout(() => {
        if (!this.upgrading.delete(socket)) return; // dropped by `stop`
        this.wss.handleUpgrade(req, socket, head, (ws) => {
          if (sessionId) this.onSession(ws, printerId, sessionId, url.searchParams.get('clientAddress') ?? '', false);
          else this.onSpare(ws, printerId, req.socket.remotePort ?? 0);
        });
      }, this.upgradeDelayMs);
      return;
    }
    reject(404);
  }

  private onControl(ws: WebSocket): void {
    this.controls.add(ws);
    ws.on('close', () => this.controls.delete(ws));
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as ControlMessage;
      this.controlMessages.push(msg);
      if (msg.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
    ws.send(JSON.stringify({ type: 'listeners', listeners: this.listeners }));
  }

  /**
   * A spare: nothing until its first message, which must be `start` (else 1008). `bridgePort`
   * is null for a session socket that became a spare again after `finalised`.
   */
  private onSpare(ws: WebSocket, printerId: string, bridgePort: number | null): void {
    this.spares.set(ws, printerId);
    if (bridgePort === null) this.reusedSessions++;
    else this.spareUpgrades.push({ printerId, at: Date.now(), bridgePort });
    const forget = () => this.spares.delete(ws);
    ws.on('close', forget);
    ws.once('message', (data, isBinary) => {
      ws.off('close', forget);
      this.spares.delete(ws);
      const text = isBinary ? null : (data as Buffer).toString();
      this.spareFirstMessages.push({ printerId, text, binary: isBinary });
      let msg: { type?: string; sessionId?: string; clientAddress?: string } | null = null;
      try {
        msg = text === null ? null : JSON.parse(text);
      } catch {
        /* not JSON */
      }
      if (msg?.type !== 'start') {
        ws.close(1008, 'a spare session must start with {"type":"start"}');
        return;
      }
      this.onSession(ws, printerId, String(msg.sessionId ?? ''), String(msg.clientAddress ?? ''), true);
    });
  }

  /** Stops reading every open session socket for `ms` (a Worker too busy to take frames). */
  stallSessions(ms: number): void {
    for (const ws of this.sessions) {
      const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
      socket.pause();
      setTimeout(() => socket.resume(), ms);
    }
  }

  private onSession(ws: WebSocket, printerId: string, sessionId: string, clientAddress: string, spare: boolean): void {
    this.sessions.add(ws);
    this.openSessions++;
    const chunks: Buffer[] = [];
    const reports: FakeDocument['bufferReports'] = [];
    let dle = 0;
    let ended = false;
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
      const buf = data as Buffer;
      if (isBinary) {
        chunks.push(buf);
        // Answer DLE EOT n as the bytes arrive (a tiny state machine, so frames may split it).
        for (const b of buf) {
          if (dle === 2) {
            if (this.status[b] !== undefined) ws.send(Buffer.from([this.status[b]]));
            dle = 0;
          } else if (dle === 1) dle = b === 0x04 ? 2 : b === 0x10 ? 1 : 0;
          else if (b === 0x10) dle = 1;
        }
        return;
      }
      const msg = JSON.parse(buf.toString());
      if (msg.type === 'buffer') reports.push({ bufferedBytes: msg.bufferedBytes, bufferedBytesDeltaBps: msg.bufferedBytesDeltaBps, at: Date.now() });
      if (msg.type === 'end') {
        ended = true;
        if (this.holdFinalise) return;
        const doc: FakeDocument = {
          documentId: randomUUID(),
          printerId,
          sessionId,
          clientAddress,
          bytes: Buffer.concat(chunks),
          bytesSent: msg.bytesSent,
          reason: msg.reason,
          via: 'session',
          spare,
          bufferReports: reports,
        };
        const heartbeat = this.finalisingEveryMs === null ? null : setInterval(() => ws.send(JSON.stringify({ type: 'finalising' })), this.finalisingEveryMs);
        setTimeout(() => {
          if (heartbeat) clearInterval(heartbeat);
          this.addDocument(doc);
          // As the Durable Object does: the socket is a spare again once finalised.
          ws.off('message', onMessage);
          ws.off('close', onClose);
          this.sessions.delete(ws);
          this.openSessions--;
          if (ws.readyState === WebSocket.OPEN) this.onSpare(ws, printerId, null);
          ws.send(JSON.stringify({ type: 'finalised', documentId: doc.documentId }));
        }, this.finaliseDelayMs);
      }
    };
    const onClose = () => {
      this.sessions.delete(ws);
      this.openSessions--;
      if (!ended && chunks.length > 0) {
        // What a Durable Object does on a lost session: finalise with what arrived.
        this.addDocument({
          documentId: randomUUID(),
          printerId,
          sessionId,
          clientAddress,
          bytes: Buffer.concat(chunks),
          bytesSent: 0,
          reason: 'lost',
          via: 'lost',
          error: 'upstream connection lost',
          bufferReports: reports,
        });
      }
    };
    ws.on('message', onMessage);
    ws.on('close', onClose);
  }

  private addDocument(doc: FakeDocument): void {
    this.documents.push(doc);
    for (const w of this.docWaiters.splice(0)) w();
  }
}

/** A listener entry of the control channel's `listeners` message, for printer `printer-<i>`. */
export function listenerSpec(i: number, port: number, extra: Record<string, unknown> = {}) {
  return {
    printerId: `printer-${i}`,
    workspaceId: 'ws-1',
    port,
    protocol: 'EscPos',
    whitelist: { enabled: false, entries: [] },
    buffer: null,
    idleTimeoutMs: 500,
    maxJobBytes: 1_000_000,
    ...extra,
  };
}
