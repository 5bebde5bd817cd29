/**
 * Listener registry: one net.Server per started printer. Applies each complete `listeners`
 * message (planReconcile), reports binds, whitelists connections, records every attempt and
 * hands allowed connections to a Session. Keeps a warm spare per bound printer (spares.ts).
 */
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { errorMessage, type Logger } from './log.ts';
import { PrinterBuffer } from './printer-buffer.ts';
import { planReconcile, type CurrentListener, type ListenerStatus } from './reconcile.ts';
import type { RecoveryQueue } from './recovery.ts';
import { Session } from './session.ts';
import { SparePool } from './spares.ts';
import type { BridgeControlMessage, ListenerSpec } from '../src/shared/bridge-protocol.ts';
import { Admission } from './admission.ts';
import { sniff } from './sniff.ts';
import { HttpPrinter } from './http-printer.ts';
import type { TlsCredentials } from './certificate.ts';
import { Backoff } from './backoff.ts';
import { compileWhitelist, normalizeClientAddress, type CompiledWhitelist } from './whitelist.ts';

/** Jobs running at once in the whole bridge when not configured (bridge setting MAX_JOBS_TOTAL). */
export const DEFAULT_MAX_JOBS_TOTAL = 64;

/**
 * A connection silent this long is a raw job (HTTP and TLS clients speak first, at once); its
 * session then starts with the printer's idle timeout as before.
 */
const SNIFF_SILENCE_MS = 250;

/** How long a shutdown reads connections that were still waiting for a slot. */
const SHUTDOWN_READ_WAITING_MS = 250;

export interface ControlSink {
  send(message: BridgeControlMessage): boolean;
  sendOrQueue(message: BridgeControlMessage): void;
}

export interface RegistryOptions {
  bindHost: string;
  workerUrl: string;
  secret: string;
  log: Logger;
  control: ControlSink;
  recovery: RecoveryQueue;
  /** Jobs running at once in the whole bridge (MAX_JOBS_IN_FLIGHT per printer comes per listener). */
  maxJobsTotal?: number;
  /** SparePool limits (defaults there). */
  maxSpareConnecting?: number;
  maxSpares?: number;
  spareIdleMs?: number;
  /** Session finalise wait without a sign of the Worker (tests shorten it). */
  finaliseQuietMs?: number;
  /** The certificate for HTTPS on printer ports; null while it is being made. */
  tls?: () => TlsCredentials | null;
}

interface Entry {
  spec: ListenerSpec;
  status: ListenerStatus;
  error?: string;
  server: net.Server | null;
  sessions: Set<Session>;
  whitelist: CompiledWhitelist;
  buffer: PrinterBuffer | null;
  closed: boolean;
  /** HTTP and HTTPS on the printer's port, made on its first HTTP connection. */
  http: HttpPrinter | null;
}

export class ListenerRegistry {
  private readonly opts: RegistryOptions;
  private readonly entries = new Map<string, Entry>();
  readonly spares: SparePool;
  private pending: { listeners: ListenerSpec[]; resync: boolean } | null = null;
  private running: Promise<void> | null = null;
  private shuttingDown = false;
  readonly admission: Admission;
  /** The latest listeners set: a failed bind (a port another program holds) is retried with it. */
  private lastListeners: ListenerSpec[] = [];
  private readonly bindRetry = new Backoff({ initialMs: 1_000, maxMs: 10_000, jitter: 0.2 });
  private bindRetryTimer: NodeJS.Timeout | null = null;

  constructor(opts: RegistryOptions) {
    this.opts = opts;
    this.admission = new Admission(opts.maxJobsTotal ?? DEFAULT_MAX_JOBS_TOTAL);
    this.spares = new SparePool({
      workerUrl: opts.workerUrl,
      secret: opts.secret,
      log: opts.log,
      maxConnecting: opts.maxSpareConnecting,
      maxSpares: opts.maxSpares,
      idleMs: opts.spareIdleMs,
    });
  }

  get listenerCount(): number {
    return this.entries.size;
  }

  get sessionCount(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.sessions.size;
    return n;
  }

  /** Queue a complete listeners set; sets arriving while one is applied collapse to the latest. */
  apply(listeners: ListenerSpec[], resync: boolean): Promise<void> {
    this.lastListeners = listeners;
    const prevResync = this.pending?.resync ?? false;
    this.pending = { listeners, resync: resync || prevResync };
    if (!this.running) {
      this.running = this.loop().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** Resolves when every queued listeners set has been applied. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(): Promise<void> {
    while (this.pending && !this.shuttingDown) {
      const { listeners, resync } = this.pending;
      this.pending = null;
      try {
        await this.reconcile(listeners, resync);
      } catch (err) {
        this.opts.log.error('listeners.reconcile_failed', { error: errorMessage(err) });
      }
    }
  }

  private async reconcile(specs: ListenerSpec[], resync: boolean): Promise<void> {
    const current = new Map<string, CurrentListener>();
    for (const [id, e] of this.entries) current.set(id, { spec: e.spec, status: e.status });
    const plan = planReconcile(current, specs);

    const closing = plan.close.map((id) => this.close(id, plan.bind.some((b) => b.printerId === id) ? 'rebind' : 'removed'));
    await Promise.all(closing);

    for (const spec of plan.update) this.update(spec);
    // A spare refused by the Worker (e.g. 404) is tried again on each listeners set only.
    for (const spec of [...plan.unchanged, ...plan.update]) {
      if (this.entries.get(spec.printerId)?.status === 'bound') this.spares.ensure(spec.printerId);
    }
    if (resync) {
      for (const spec of [...plan.unchanged, ...plan.update]) {
        const e = this.entries.get(spec.printerId);
        if (e && e.status === 'bound') this.opts.control.send({ type: 'bound', printerId: spec.printerId, port: spec.port, ok: true });
      }
    }
    await Promise.all(plan.bind.map((spec) => this.bind(spec)));
    this.scheduleBindRetry();
    if (plan.bind.length || plan.close.length || plan.update.length) {
      this.opts.log.info('listeners.reconciled', {
        listening: this.entries.size,
        bound: plan.bind.length,
        closed: plan.close.length,
        updated: plan.update.length,
        resync,
        sparesOpen: this.spares.openCount,
      });
    }
  }

  /** While a bind failed, the latest set is applied again (1 s, backing off to 10 s) until it binds. */
  private scheduleBindRetry(): void {
    if (![...this.entries.values()].some((e) => e.status === 'failed')) {
      this.bindRetry.reset();
      return;
    }
    if (this.bindRetryTimer || this.shuttingDown) return;
    this.bindRetryTimer = setTimeout(() => {
      this.bindRetryTimer = null;
      if (!this.shuttingDown) void this.apply(this.lastListeners, false);
    }, this.bindRetry.next());
    this.bindRetryTimer.unref();
  }

  private bind(spec: ListenerSpec): Promise<void> {
    const entry: Entry = {
      spec,
      status: 'binding',
      server: null,
      sessions: new Set(),
      whitelist: compileWhitelist(spec.whitelist),
      buffer: spec.buffer ? new PrinterBuffer(spec.buffer) : null,
      closed: false,
      http: null,
    };
    if (entry.whitelist.invalid.length) this.opts.log.warn('whitelist.invalid_entries', { printerId: spec.printerId, entries: entry.whitelist.invalid });
    this.entries.set(spec.printerId, entry);
    this.admission.open(spec.printerId, () => entry.spec);
    const server = net.createServer({ pauseOnConnect: true, noDelay: true });
    entry.server = server;
    server.on('connection', (socket) => this.onConnection(entry, socket));
    return new Promise<void>((resolve) => {
      let retries = 0;
      let released = false;
      const listen = () => {
        try {
          server.listen({ port: spec.port, host: this.opts.bindHost, exclusive: true, backlog: 511 });
        } catch (err) {
          onError(err as Error);
        }
      };
      const onError = (err: Error) => {
        const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (inUse && !entry.closed && retries < 5 && (released || (released = this.spares.releasePort(spec.port)))) {
          // One of our own spares held the port as its local port: it is reset; the kernel
          // frees the port once the socket is gone, so bind again after a short wait.
          retries++;
          server.once('error', onError);
          setTimeout(listen, 20 * retries).unref();
          return;
        }
        server.removeListener('listening', onListening);
        entry.status = 'failed';
        entry.server = null;
        entry.error = errorMessage(err);
        server.close();
        this.opts.log.warn('listener.bind_failed', { printerId: spec.printerId, port: spec.port, error: entry.error });
        this.opts.control.send({ type: 'bound', printerId: spec.printerId, port: spec.port, ok: false, error: entry.error });
        resolve();
      };
      const onListening = () => {
        server.removeListener('error', onError);
        server.on('error', (err) => this.opts.log.error('listener.error', { printerId: spec.printerId, port: spec.port, error: errorMessage(err) }));
        entry.status = 'bound';
        if (entry.closed) {
          server.close();
          resolve();
          return;
        }
        this.opts.log.info('listener.bound', { printerId: spec.printerId, port: spec.port, host: this.opts.bindHost });
        this.opts.control.send({ type: 'bound', printerId: spec.printerId, port: spec.port, ok: true });
        this.spares.ensure(spec.printerId);
        resolve();
      };
      server.once('error', onError);
      server.once('listening', onListening);
      listen();
    });
  }

  private update(spec: ListenerSpec): void {
    const e = this.entries.get(spec.printerId);
    if (!e) return;
    const before = e.spec;
    e.spec = spec;
    e.whitelist = compileWhitelist(spec.whitelist);
    if (spec.buffer && e.buffer) e.buffer.reconfigure(spec.buffer);
    else if (spec.buffer && !e.buffer) {
      // Open sessions keep forwarding directly; new data of all sessions goes through the buffer.
      e.buffer = new PrinterBuffer(spec.buffer);
    } else if (!spec.buffer && e.buffer) {
      e.buffer.disable();
      e.buffer = null;
    }
    this.opts.log.info('listener.updated', {
      printerId: spec.printerId,
      port: spec.port,
      whitelistEnabled: spec.whitelist.enabled,
      whitelistEntries: spec.whitelist.entries.length,
      buffer: spec.buffer,
      idleTimeoutMs: spec.idleTimeoutMs !== before.idleTimeoutMs ? spec.idleTimeoutMs : undefined,
      maxJobBytes: spec.maxJobBytes !== before.maxJobBytes ? spec.maxJobBytes : undefined,
    });
  }

  /** Every session of every listener, including those of listeners already closed but not done. */
  private readonly openSessions = new Set<Session>();

  private async close(printerId: string, why: 'rebind' | 'removed' | 'shutdown'): Promise<void> {
    const e = this.entries.get(printerId);
    if (!e) return;
    this.entries.delete(printerId);
    e.closed = true;
    this.spares.remove(printerId);
    const wasBound = e.status === 'bound';
    const server = e.server;
    e.server = null;
    if (server) {
      await new Promise<void>((resolve) => {
        // close() stops accepting at once; its callback waits for open connections, so do not wait for it.
        server.close();
        setImmediate(resolve);
      });
    }
    const waiting = this.admission.close(printerId);
    if (why === 'shutdown' && waiting.length > 0) {
      // Connections that waited for a slot may have written their jobs into the kernel's
      // buffers: read what is there for a moment, so a client that sent its job does not lose
      // it to a shutdown. The job is finalised as `stopped` with what arrived.
      for (const w of waiting) w.admit();
      await new Promise((r) => setTimeout(r, SHUTDOWN_READ_WAITING_MS));
    } else {
      // The printer is gone or moves port: nothing of theirs was read, nothing is lost.
      for (const w of waiting) w.abandon();
    }
    e.http?.close();
    const sessions = [...e.sessions];
    const ended = Promise.all(sessions.map((s) => s.stop()));
    if (why === 'shutdown') await ended;
    else void ended;
    e.buffer?.disable();
    if (wasBound) {
      if (why !== 'shutdown') this.opts.control.send({ type: 'unbound', printerId, port: e.spec.port });
      this.opts.log.info('listener.closed', { printerId, port: e.spec.port, reason: why, openConnections: sessions.length });
    }
  }

  private onConnection(entry: Entry, socket: net.Socket): void {
    const client = normalizeClientAddress(socket.remoteAddress);
    socket.on('error', () => {
      /* handled by the session, or irrelevant for refused sockets */
    });
    if (entry.closed || this.shuttingDown) {
      socket.destroy();
      return;
    }
    const { printerId, port } = entry.spec;
    const allowed = entry.whitelist.allows(client);
    this.opts.control.sendOrQueue({ type: 'connection', printerId, clientIp: client, allowed, at: new Date().toISOString() });
    if (!allowed) {
      socket.destroy();
      this.opts.log.info('connection', { printerId, port, client, allowed: false, bytesIn: 0, bytesOut: 0, outcome: 'refused' });
      return;
    }
    const session = new Session(socket, client, {
      workerUrl: this.opts.workerUrl,
      secret: this.opts.secret,
      log: this.opts.log,
      recovery: this.opts.recovery,
      spec: () => entry.spec,
      buffer: () => entry.buffer,
      takeSpare: () => this.spares.take(printerId),
      giveBack: (ws, lent) => this.spares.giveBack(printerId, ws, lent),
      finaliseQuietMs: this.opts.finaliseQuietMs,
      onDone: (s) => {
        entry.sessions.delete(s);
        this.openSessions.delete(s);
        if (s.started && this.entries.get(printerId) === entry) this.admission.finished(printerId);
      },
    });
    entry.sessions.add(session);
    this.openSessions.add(session);
    const result = this.admission.arrive(printerId, {
      get alive() { return !socket.destroyed && !entry.closed; },
      admit: () => this.sniffThenStart(entry, socket, client, session),
      abandon: () => session.abandon(),
    });
    if (result === 'refused') {
      session.abandon();
      this.opts.log.warn('connection', { printerId, port, client, allowed: true, bytesIn: 0, bytesOut: 0, outcome: 'over-capacity', maxConnections: entry.spec.maxConnections });
    } else if (result === 'waiting') {
      this.opts.log.debug('connection.waiting', { printerId, client, running: this.admission.totalRunning, waiting: this.admission.totalWaiting });
    }
  }

  /**
   * An admitted connection: HTTPS, HTTP or a raw job, from its first bytes (sniff.ts). A raw
   * job's bytes are put back and its session starts as it always did; an HTTP connection is
   * served by the printer's HTTP endpoint (http-printer.ts) and gives its job slot back.
   */
  private sniffThenStart(entry: Entry, socket: net.Socket, client: string, session: Session): void {
    void sniff(socket, SNIFF_SILENCE_MS).then(({ kind, head, ended }) => {
      if (kind === 'raw' && !ended) {
        if (head.length) socket.unshift(head);
        session.start();
        return;
      }
      // Not a raw session after all: it never starts, and its slot goes to the next connection.
      entry.sessions.delete(session);
      this.openSessions.delete(session);
      if (this.entries.get(entry.spec.printerId) === entry) this.admission.finished(entry.spec.printerId);
      if (entry.closed || this.shuttingDown) socket.destroy();
      else if (kind === 'raw') this.endedWhileSniffing(entry, client, head);
      else {
        entry.http ??= new HttpPrinter(
          { workerUrl: this.opts.workerUrl, secret: this.opts.secret, log: this.opts.log, tls: this.opts.tls ?? (() => null) },
          { spec: () => entry.spec },
        );
        entry.http.accept(socket, head, kind, client);
      }
    });
  }

  /**
   * A raw job the client ended while its few first bytes could still have begun an HTTP
   * request ("P", "GE"): the connection is gone, so the job is printed through the recovery
   * route, whole and without an error, as a TCP job.
   */
  private endedWhileSniffing(entry: Entry, client: string, head: Buffer): void {
    const { printerId, port } = entry.spec;
    this.opts.log.info('connection', { printerId, port, client, allowed: true, bytesIn: head.length, bytesOut: 0, outcome: 'closed', viaRecovery: head.length > 0 });
    if (head.length === 0) return;
    this.opts.recovery.add({ printerId, sessionId: randomUUID(), clientAddress: client, bytesSent: 0, error: '', endReason: 'closed', body: head });
  }

  /**
   * The listening printer an LPD queue name names: its id, its port as text, or its display name
   * (any case) when no other listening printer has that name ('ambiguous' then).
   */
  lpdQueue(name: string): { spec: ListenerSpec; allows(client: string): boolean } | 'ambiguous' | null {
    const wanted = name.trim().toLowerCase();
    if (!wanted) return null;
    let byName: Entry | null = null;
    let named = 0;
    for (const e of this.entries.values()) {
      if (e.status !== 'bound') continue;
      const { printerId, port, displayName } = e.spec;
      if (printerId.toLowerCase() === wanted || String(port) === wanted) return this.queueOf(e);
      if (displayName.toLowerCase() === wanted) {
        byName = e;
        named++;
      }
    }
    // Display names are not unique (on the shared bridge, not even within a workspace): a name
    // two printers share names neither, rather than printing into whichever came first.
    if (named > 1) return 'ambiguous';
    return byName ? this.queueOf(byName) : null;
  }

  private queueOf(e: Entry): { spec: ListenerSpec; allows(client: string): boolean } {
    return { spec: e.spec, allows: (client) => e.whitelist.allows(client) };
  }

  /** Sessions still waiting for `finalised` (shutdown's deadline passed) hand their jobs to recovery. */
  handOverOpenSessions(): number {
    let n = 0;
    for (const session of this.openSessions) {
      session.handOver();
      n++;
    }
    return n;
  }

  /** Stops accepting everywhere and ends every open session (jobs are finalised). */
  async closeAll(): Promise<void> {
    this.shuttingDown = true;
    this.pending = null;
    if (this.bindRetryTimer) clearTimeout(this.bindRetryTimer);
    this.spares.closeAll();
    await this.idle();
    await Promise.all([...this.entries.keys()].map((id) => this.close(id, 'shutdown')));
  }
}
