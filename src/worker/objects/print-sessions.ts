import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinter, setDrawers } from '../data/printers.ts';
import type { EngineEvent, PushResult } from '../../engines/canvas/printer-context.ts';
import { readSettings } from '../config.ts';
import { prepareDocument, streamDocument } from '../services/document-store.ts';
import { deleteNvImage, saveNvImage } from '../services/nv-images.ts';
import { publishPrinterChange } from '../services/notify.ts';
import { encodeMessage, parseEndReason, type EndReason } from '../../shared/bridge-protocol.ts';
import { parseSessionControl } from '../services/bridge-input.ts';
import { LiveSession, type SessionEnd } from './live-session.ts';
import { finishInSteps } from './slices.ts';
import type { PrinterDocuments } from './printer-documents.ts';
import type { PrinterFeeds } from './printer-feeds.ts';
import type { PrinterState } from './printer-state.ts';
import { prepareHttpJob, type HttpJobAnswer, type HttpJobRequest } from './http-job.ts';
import { ReadyWaiters } from './ready-waiters.ts';
import { jobStored } from './idle-collection.ts';
import type { Transport } from '../../shared/transports.ts';
import type { ArrivedJob } from './cloud-poller.ts';

/** A session's `finalising` heartbeat to the bridge after `end` (it waits 60 s without one). */
const FINALISING = encodeMessage({ type: 'finalising' });
const FINALISING_HEARTBEAT_MS = 10_000;
/** How long a recovery waits for the same job still being stored (see recover). */
const RECOVERY_WAIT_MS = 20_000;

/** A job the bridge kept because its session's upstream was lost (internal protocol route 3). */
export type RecoveredJob = { sessionId: string; clientAddress: string; bytesSent: number; error: string; endReason: EndReason | null; bytes: Uint8Array };

/**
 * The printer's print jobs: live sessions from the bridge (bytes in, status replies out at
 * once, side effects such as drawer kicks in order), imported jobs and recovered jobs, each
 * rendered, stored (PrinterDocuments) and announced (PrinterFeeds) by `finalise`.
 */
export class PrintSessions {
  private readonly sessions = new Set<LiveSession>();
  /** Side effects (drawer kicks, NV definitions) applied in order, off the reply path. */
  private effects: Promise<void> = Promise.resolve();
  /** Jobs whose end is known and that are being fed and stored, by session id (recover waits for them). */
  private readonly finalising = new Map<string, Promise<string | null>>();
  /** HTTP jobs waiting for the printer to be able to print (ePOS-Print `timeout`). */
  private readonly readyWaiters = new ReadyWaiters();

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly state: PrinterState,
    private readonly documents: PrinterDocuments,
    private readonly feeds: PrinterFeeds,
  ) {}

  /** The printer is gone: open sessions end without a document; jobs being stored finish first. */
  async endAll(): Promise<void> {
    for (const s of this.sessions) {
      s.ended = true;
      try { s.socket?.close(4004, 'printer deleted'); } catch { /* already closed */ }
    }
    this.sessions.clear();
    await Promise.allSettled([...this.finalising.values()]);
  }

  /** Flags or runtime changed: every open session's engine answers anew (ASB). */
  contextChanged(): void {
    for (const s of this.sessions) this.deliver(s, s.engine.contextChanged());
    if (this.state.row && !blockingConditions(this.state.row)) this.readyWaiters.ready();
  }

  /**
   * A job that arrived as one request (an HTTP printer endpoint, LPD; http-job.ts): rendered
   * like a TCP job, its raw bytes the request body as received, answered as the printer would.
   * An ePOS-Print job waits up to the request's timeout for cover open, paper out, offline or
   * an error to clear, as a TM printer does, then prints and answers with the flags of that moment.
   */
  async httpJob(printerId: string, bridgeId: string | null, req: HttpJobRequest): Promise<HttpJobAnswer> {
    const notFound = { documentId: null, status: 404, contentType: 'text/plain; charset=utf-8', body: 'printer not found' };
    const row = await this.state.load(printerId);
    if (!row || row.deleted_at) return notFound;
    if (bridgeId !== (row.bridge_id ?? null)) return { documentId: null, status: 403, contentType: 'text/plain; charset=utf-8', body: 'this printer is served by another bridge' };
    await this.state.loadNvImages();
    const job = prepareHttpJob(req);
    if (job.waitsForReady && blockingConditions(this.state.row!)) {
      await this.readyWaiters.wait(Math.min(req.timeoutMs, readSettings(this.env).maxJobSeconds * 1000));
      // Deleted while it waited (retire): nothing is stored.
      if (this.state.row!.deleted_at) return notFound;
    }
    const current = this.state.row!;
    const session = new LiveSession(req.sessionId, req.clientAddress, this.state.newEngine(current), req.transport);
    session.receivedAs(req.body);
    this.streamDocument(session);
    this.sessions.add(session);
    const answer = job.answer({ flags: this.state.flags(), drawer1State: current.drawer1_state });
    session.extraErrors.push(...job.errors);
    if (answer.error) session.extraErrors.push(answer.error);
    if (job.bytes) {
      await session.pacer.feed(job.bytes, (slice) => session.engine.push(slice), (result) => this.applyEffects(result.events));
    }
    const documentId = await this.track(session.id, session.light.storing(() => this.finalise(session, 'closed')));
    return { documentId, status: answer.status, contentType: answer.contentType, body: answer.body };
  }

  /**
   * A session WebSocket from the bridge. With `sessionId` in the URL the print session starts
   * at once; without, the socket is a warm spare the bridge opened ahead of time, and the
   * session starts with its first message, `start` (docs/internal-protocol.md), keeping the
   * upgrade off the path of a new TCP connection. After `finalised` the socket is a spare
   * again: the bridge reuses it for the printer's next connection, so a steady stream of jobs
   * needs no upgrade at all.
   */
  async open(request: Request, url: URL): Promise<Response> {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return new Response('expected websocket', { status: 426 });
    await this.state.loadNvImages();
    const { 0: client, 1: server } = new WebSocketPair();
    // Binary frames would otherwise arrive as Blobs (async to read, and easy to reorder).
    (server as unknown as { binaryType: string }).binaryType = 'arraybuffer';
    server.accept();
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    let session: LiveSession | null = null;
    const start = (sessionId: string, clientAddress: string) => {
      session = new LiveSession(sessionId, clientAddress, this.state.newEngine(this.state.row!));
      this.streamDocument(session);
      session.socket = server;
      this.sessions.add(session);
    };
    const presetId = url.searchParams.get('sessionId');
    if (presetId) start(presetId, url.searchParams.get('clientAddress') || 'unknown');

    server.addEventListener('message', (ev) => {
      const current = session as LiveSession | null;
      if (current === null) {
        const msg = typeof ev.data === 'string' ? parseSessionControl(ev.data) : null;
        if (msg?.ok && msg.value.type === 'start') start(msg.value.sessionId, msg.value.clientAddress);
        else {
          this.dropped(msg && !msg.ok ? msg.reason : 'a spare session must start with {"type":"start"}');
          server.close(1008, 'a spare session must start with a valid {"type":"start"}');
        }
        return;
      }
      if (current.ended) return;
      current.light.touch();
      if (typeof ev.data === 'string') {
        // Once finalised, the socket is a spare again, waiting for the next `start`.
        this.onMessage(current, ev.data, () => { if (session === current) session = null; });
        return;
      }
      if (!(ev.data instanceof ArrayBuffer)) {
        console.error('session frame of unexpected type; set binaryType');
        return;
      }
      const bytes = new Uint8Array(ev.data);
      current.fed = current.fed.then(() =>
        current.pacer.feed(bytes, (slice) => current.receive(slice, maxJobBytes), (result) => this.deliver(current, result)));
    });
    const lost = () => {
      const current = session as LiveSession | null;
      if (current === null || current.ended || current.endReceived) return;
      current.extraErrors.push('The connection from the TCP bridge was lost before the job ended; the document holds what arrived');
      this.ctx.waitUntil(this.track(current.id, current.fed.then(() => (current.ended ? null : this.finalise(current, 'lost')))).catch((e) => console.error('finalise failed', e)));
    };
    server.addEventListener('close', lost);
    server.addEventListener('error', lost);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A job the cloud poller fetched: rendered and stored like a TCP job, its raw bytes what the server sent. */
  async arrivedJob(job: ArrivedJob): Promise<string | null> {
    await this.state.loadNvImages();
    const session = new LiveSession(crypto.randomUUID(), job.clientAddress, this.state.newEngine(this.state.row!), job.transport);
    session.receivedAs(job.raw);
    this.streamDocument(session);
    session.extraErrors.push(...job.errors);
    await session.pacer.feed(job.bytes, (slice) => session.engine.push(slice), (result) => this.applyEffects(result.events));
    return this.track(session.id, this.finalise(session, 'closed'));
  }

  /** A document from the import endpoint: rendered as if printed, no replies sent. */
  async importJob(printerId: string, bytes: Uint8Array): Promise<string | null> {
    const row = await this.state.load(printerId);
    if (!row) throw new Error('printer not found');
    const session = await this.replay(row, crypto.randomUUID(), 'import', bytes, 'Import');
    return this.finalise(session, 'closed', true);
  }

  /**
   * A job the bridge kept because its session's upstream was lost. While the same job is still
   * being stored (its live session, or an earlier attempt of this recovery whose request timed
   * out) this waits for that and then decides, so a retried recovery never renders a job twice.
   */
  async recover(printerId: string, job: RecoveredJob): Promise<string | null> {
    // Bounded (under the bridge's 30 s request timeout): a finalisation that never settles
    // must not hold the recovery back for ever; past it the job is rendered again.
    const giveUpAt = Date.now() + RECOVERY_WAIT_MS;
    for (let pending = this.finalising.get(job.sessionId); pending && Date.now() < giveUpAt; pending = this.finalising.get(job.sessionId)) {
      await Promise.race([pending.catch(() => null), new Promise((r) => setTimeout(r, giveUpAt - Date.now()))]);
    }
    return this.track(job.sessionId, this.recoverNow(printerId, job));
  }

  private async recoverNow(printerId: string, job: RecoveredJob): Promise<string | null> {
    const row = await this.state.load(printerId);
    if (!row) throw new Error('printer not found');
    await this.documents.load(printerId);
    const existing = this.documents.findByJob(job.sessionId);
    // Idempotent for a job already stored whole; a job finalised short (its session dropped
    // before all bytes arrived) is replaced by the bridge's complete copy.
    if (existing && existing.bytesReceived >= job.bytes.length) return existing.id;
    if (existing) await this.documents.discard(existing.id);
    const session = await this.replay(row, job.sessionId, job.clientAddress, job.bytes);
    session.bytesSent = job.bytesSent;
    // A job the bridge saw end normally is whole: no error; the bridge names what went wrong otherwise.
    if (job.error) session.extraErrors.push(job.error);
    // On the printing path (a job the bridge recovered): counters batched like any printed job.
    return this.finalise(session, job.endReason ?? 'closed');
  }

  /** A session fed a whole job at once (imports, recovered jobs): replies go nowhere, side effects apply. */
  private async replay(row: PrinterRow, sessionId: string, clientAddress: string, bytes: Uint8Array, transport: Transport = 'Tcp'): Promise<LiveSession> {
    await this.state.loadNvImages();
    const session = new LiveSession(sessionId, clientAddress, this.state.newEngine(row), transport);
    this.streamDocument(session, row);
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    await session.pacer.feed(bytes, (slice) => session.receive(slice, maxJobBytes), (result) => this.applyEffects(result.events));
    return session;
  }

  /**
   * The job's document is written while it prints once it outgrows a batch of elements
   * (services/document-stream.ts): a long job's elements die young. The raw bytes it refers to
   * are the session's (as received: set before).
   */
  private streamDocument(session: LiveSession, row: PrinterRow = this.state.row!): void {
    if (!session.engine.streamTo) return;
    session.document = streamDocument(this.env, row, this.documents.storedMedia, () => session.rawSoFar());
    session.engine.streamTo(session.document.sink);
  }

  /** Remembers a job being stored under its session id until it is (see recover). */
  private track(sessionId: string, work: Promise<string | null>): Promise<string | null> {
    this.finalising.set(sessionId, work);
    const clear = () => { if (this.finalising.get(sessionId) === work) this.finalising.delete(sessionId); };
    work.then(clear, clear);
    return work;
  }

  private onMessage(session: LiveSession, text: string, reusable: () => void): void {
    const parsed = parseSessionControl(text);
    if (!parsed.ok) return this.dropped(parsed.reason);
    const msg = parsed.value;
    if (msg.type === 'buffer') {
      this.state.buffer = { bufferedBytes: msg.bufferedBytes, bufferedBytesDeltaBps: msg.bufferedBytesDeltaBps };
      this.feeds.bufferChanged();
    } else if (msg.type === 'end') {
      if (msg.bytesSent !== null) session.bytesSent = msg.bytesSent;
      // An ending this Worker does not know (a newer bridge's) is `closed`: the job is whole.
      const reason = parseEndReason(msg.reason) ?? 'closed';
      session.endReceived = true;
      // While the job is worked on (other sessions' jobs may go first), the bridge hears that it
      // is, so it keeps waiting for `finalised` instead of sending the job to be rendered again.
      const heartbeat = setInterval(() => {
        try {
          session.socket?.send(FINALISING);
        } catch { /* bridge already gone */ }
      }, FINALISING_HEARTBEAT_MS);
      this.ctx.waitUntil(
        this.track(session.id, session.light.storing(() => session.fed.then(() => this.finalise(session, reason))))
          .then((documentId) => {
            clearInterval(heartbeat);
            reusable();
            try {
              session.socket?.send(encodeMessage({ type: 'finalised', documentId }));
            } catch { /* bridge already gone */ }
          })
          .catch((e) => console.error('finalise failed', e))
          .finally(() => clearInterval(heartbeat)),
      );
    }
  }

  /** A session frame the Worker refused (services/bridge-input.ts), logged with its reason. */
  private dropped(reason: string): void {
    console.warn(JSON.stringify({ event: 'bridge.dropped', message: 'session', printerId: this.state.printerId, reason }));
  }

  /** Sends replies at once and queues side effects. */
  private deliver(session: LiveSession, result: PushResult): void {
    for (const reply of result.replies) {
      if (reply.length === 0) continue;
      try {
        session.socket?.send(reply);
        session.bytesSent += reply.length;
      } catch { /* socket closed; the session is finalised by the close handler */ }
    }
    this.applyEffects(result.events);
  }

  private applyEffects(events: EngineEvent[]): void {
    if (events.length === 0) return;
    this.effects = this.effects.then(async () => {
      for (const ev of events) {
        try {
          await this.applyEffect(ev);
        } catch (e) {
          console.error('printer side effect failed', e);
        }
      }
    });
  }

  private async applyEffect(ev: EngineEvent): Promise<void> {
    const row = this.state.row!;
    if (ev.type === 'drawerKick') {
      await setDrawers(this.env.DB, row.id, ev.drawer === 1 ? 'OpenedByCommand' : undefined, ev.drawer === 2 ? 'OpenedByCommand' : undefined);
      const fresh = await findPrinter(this.env.DB, row.id);
      if (fresh) await publishPrinterChange(this.env, fresh, { runtime: true });
    } else if (ev.type === 'nvImageDefined') {
      this.state.setNvImage(ev.slot, ev.bitmap);
      await saveNvImage(this.env, row, ev.slot, ev.bitmap);
    } else if (ev.type === 'nvImageDeleted') {
      this.state.setNvImage(ev.slot, null);
      await deleteNvImage(this.env, row.id, ev.slot);
    }
  }

  /**
   * Renders the job, stores it in this object, announces it and returns its id. A
   * connection that sent nothing (a port probe, a "is the printer there?" check) printed
   * nothing: no document, null. `writeNow` writes the counters through at once (imports: statistics read their own writes).
   */
  private async finalise(session: LiveSession, reason: SessionEnd, writeNow = false): Promise<string | null> {
    session.ended = true;
    this.sessions.delete(session);
    await this.effects;
    if (session.bytesReceived === 0 && !session.truncated) return null;
    await this.documents.load(this.state.row!.id);
    // Flags and drawers are pushed here as they change (printerChanged), so the cache is current for them.
    const row = this.state.row!;
    if (reason === 'maxJobSeconds') {
      session.extraErrors.push(`The job was still open after the maximum job duration of ${readSettings(this.env).maxJobSeconds} s; it was ended there and the connection closed`);
    }
    if (reason === 'maxJobBytes' || session.truncated) {
      session.extraErrors.push(`The job exceeded the maximum job size of ${readSettings(this.env).maxJobBytes} bytes; it was cut off there and the connection closed`);
    }
    const pause = () => session.light.yield();
    await finishInSteps(session.engine, pause);
    const conditions = activeConditions(row);
    if (conditions.length) session.extraErrors.push(`Printed while the printer reported: ${conditions.join(', ')}`);
    const prepared = await prepareDocument(this.env, row, session.engine.finish(), {
      documentId: crypto.randomUUID(),
      printJobId: session.id,
      clientAddress: session.clientAddress,
      bytesSent: session.bytesSent,
      raw: session.rawBytes(),
      extraErrors: session.extraErrors,
      transport: session.transport,
      awaited: this.feeds.documentAwaited(),
    }, this.documents.storedMedia, pause, session.document ?? undefined);
    await this.documents.markPending(row);
    // Stored before anything leaves the object: the output gate holds the stream event and the
    // bridge's `finalised` until this write is durable.
    this.documents.insert(prepared);
    const readers = this.feeds.documentStored(prepared);
    const fresh = await this.documents.counted(readers, prepared.createdAt, writeNow);
    jobStored(prepared.row.bytesReceived + prepared.media.reduce((n, m) => n + m.stored.size, 0), session.engine.workSpent?.() ?? 0);
    if (writeNow) {
      // Imports and recovered jobs are not the printing path: the printer re-read with the
      // counters (read stamps and workspace names change in D1 without passing through here).
      if (fresh && !fresh.deleted_at) this.feeds.publishPrinter(fresh);
    } else {
      // The printer's stamp is in the outbox for D1; its streams hear of it now.
      const current = this.state.row!;
      if (!current.deleted_at) this.feeds.publishPrinter({ ...current, last_document_received_at: prepared.createdAt });
    }
    return prepared.id;
  }
}

/** Cover open, paper out, offline or an error: what keeps a printer from printing. */
function blockingConditions(row: PrinterRow): boolean {
  return row.is_cover_open === 1 || row.is_paper_out === 1 || row.is_offline === 1 || row.has_error === 1;
}

function activeConditions(row: PrinterRow): string[] {
  const out: string[] = [];
  if (row.is_cover_open) out.push('cover open');
  if (row.is_paper_out) out.push('paper out');
  if (row.is_offline) out.push('offline');
  if (row.has_error) out.push('error');
  return out;
}
