import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinter, setDrawers } from '../data/printers.ts';
import { createProtocolSession, newEplPrinterMemory, type PrinterMemory } from '../../engines/index.ts';
import type { EngineEvent, PrinterContext, PushResult } from '../../engines/canvas/printer-context.ts';
import type { Bitmap } from '../../engines/raster/bitmap.ts';
import { readSettings } from '../config.ts';
import { SseHub } from '../services/sse.ts';
import { commitDocuments, documentsAfter, findDocumentByJob, prepareDocument, type PreparedDocument } from '../services/document-store.ts';
import { deleteDocumentsWhere } from '../services/document-deletion.ts';
import { loadNvBitmaps, saveNvImage, deleteNvImage } from '../services/nv-images.ts';
import { publishPrinterChange, statusUpdate, workspaceStub, type PrinterChange } from '../services/notify.ts';
import { sidebarDto } from '../services/dto.ts';
import { recordRead, type Reader } from '../services/read-stamps.ts';
import { LiveSession, parseEndReason, type EndReason } from './live-session.ts';
import { DocumentWriteQueue } from './document-write-queue.ts';
import { SlicePacer } from './slices.ts';

/**
 * How long a finalised document may wait for others of the printer before its D1 write; long
 * enough that a burst of printers finishing at once is announced before any of them is written.
 */
const DOCUMENT_WRITE_WINDOW_MS = 150;

/**
 * One per printer. Owns the live print sessions (bytes in, status replies out, finalisation),
 * the runtime and canvas event streams, and the live buffer figures. Durable configuration
 * (flags, drawers, settings) lives in D1; this object caches the row and is told of changes.
 */
export class PrinterObject extends DurableObject<Env> {
  private printerId: string | null = null;
  private row: PrinterRow | null = null;
  private nvImages: Map<number, Bitmap> | null = null;
  private buffer: { bufferedBytes: number; bufferedBytesDeltaBps: number } | null = null;
  /** EPL forms and graphics stored over TCP; kept across connections like a real printer's RAM. */
  private readonly memory: PrinterMemory = { epl: newEplPrinterMemory() };
  private readonly sessions = new Set<LiveSession>();
  private readonly runtimeHub = new SseHub();
  private readonly canvasHub = new SseHub<Reader>();
  /** Side effects (drawer kicks, NV definitions) applied in order, off the reply path. */
  private effects: Promise<void> = Promise.resolve();
  private readonly writes = new DocumentWriteQueue<PreparedDocument>((docs) => this.commit(docs), DOCUMENT_WRITE_WINDOW_MS);

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const printerId = url.searchParams.get('printerId');
    if (!printerId) return new Response('printerId required', { status: 400 });
    const row = await this.load(printerId);
    if (!row || row.deleted_at) return new Response('printer not found', { status: 404 });
    switch (url.pathname) {
      case '/session':
        return this.openSession(request, url);
      case '/runtime/stream':
        return this.runtimeHub.open(undefined).response;
      case '/canvas/stream':
        return this.openCanvasStream(request, url);
      default:
        return new Response('not found', { status: 404 });
    }
  }

  // ---- RPC from the Worker -------------------------------------------------------------

  /** The printer row changed (flags, drawers, settings, state): refresh, stream, re-send ASB. */
  async printerChanged(row: PrinterRow, change: PrinterChange): Promise<void> {
    this.printerId = row.id;
    this.row = row;
    this.runtimeHub.broadcast('status', statusUpdate(this.env, row, change, change.runtime ? this.buffer : undefined));
    if (change.flags || change.runtime) {
      for (const s of this.sessions) this.deliver(s, s.engine.contextChanged());
    }
  }

  /**
   * NV images were uploaded or deleted through the API: reloaded now, because sessions start
   * on open spare sockets without a chance to load anything first.
   */
  async nvImagesChanged(printerId: string): Promise<void> {
    this.printerId ??= printerId.toLowerCase();
    this.nvImages = await loadNvBitmaps(this.env, this.printerId);
  }

  liveBuffer(): { bufferedBytes: number; bufferedBytesDeltaBps: number } | null {
    return this.buffer;
  }

  /** Every document announced so far is in D1 (call before reading or deleting them there). */
  async documentsSettled(): Promise<void> {
    await this.writes.settled();
  }

  /** A document from the import endpoint: rendered as if printed, no replies sent. */
  async importJob(printerId: string, bytes: Uint8Array): Promise<string | null> {
    const row = await this.load(printerId);
    if (!row) throw new Error('printer not found');
    await this.loadNvImages();
    const session = new LiveSession(crypto.randomUUID(), 'import', this.newEngine(row));
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    await new SlicePacer().feed(bytes, (slice) => session.receive(slice, maxJobBytes), (result) => this.applyEffects(result.events));
    return this.finalise(session, 'closed', true);
  }

  /** A job the bridge kept because its session's upstream was lost (internal protocol 3). */
  async recoverJob(printerId: string, job: { sessionId: string; clientAddress: string; bytesSent: number; error: string; endReason: EndReason | null; bytes: Uint8Array }): Promise<string | null> {
    await this.writes.settled();
    const existing = await findDocumentByJob(this.env.DB, job.sessionId);
    // Idempotent for a job already stored whole; a job finalised short (its session dropped
    // before all bytes arrived) is replaced by the bridge's complete copy.
    if (existing && existing.bytes_received >= job.bytes.length) return existing.id;
    if (existing) await deleteDocumentsWhere(this.env, 'id = ?', [existing.id]);
    const row = await this.load(printerId);
    if (!row) throw new Error('printer not found');
    await this.loadNvImages();
    const session = new LiveSession(job.sessionId, job.clientAddress, this.newEngine(row));
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    await new SlicePacer().feed(job.bytes, (slice) => session.receive(slice, maxJobBytes), (result) => this.applyEffects(result.events));
    session.bytesSent = job.bytesSent;
    // A job the bridge saw end normally is whole: no error (issue 17: complete recovered jobs
    // were flagged "upstream connection lost"); the bridge names what went wrong otherwise.
    if (job.error) session.extraErrors.push(job.error);
    return this.finalise(session, job.endReason ?? 'closed', true);
  }

  // ---- sessions ------------------------------------------------------------------------

  /**
   * A session WebSocket from the bridge. With `sessionId` in the URL the print session starts
   * at once; without, the socket is a warm spare the bridge opened ahead of time, and the
   * session starts with its first message `{"type":"start","sessionId","clientAddress"}`
   * (docs/internal-protocol.md), keeping the upgrade off the path of a new TCP connection.
   * After `finalised` the socket is a spare again: the bridge reuses it for the printer's next
   * connection, so a steady stream of jobs needs no upgrade at all.
   */
  private async openSession(request: Request, url: URL): Promise<Response> {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return new Response('expected websocket', { status: 426 });
    await this.loadNvImages();
    const { 0: client, 1: server } = new WebSocketPair();
    // Binary frames would otherwise arrive as Blobs (async to read, and easy to reorder).
    (server as unknown as { binaryType: string }).binaryType = 'arraybuffer';
    server.accept();
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    let session: LiveSession | null = null;
    const start = (sessionId: string, clientAddress: string) => {
      session = new LiveSession(sessionId, clientAddress, this.newEngine(this.row!));
      session.socket = server;
      this.sessions.add(session);
    };
    const presetId = url.searchParams.get('sessionId');
    if (presetId) start(presetId, url.searchParams.get('clientAddress') || 'unknown');

    server.addEventListener('message', (ev) => {
      const current = session as LiveSession | null;
      if (current === null) {
        const msg = typeof ev.data === 'string' ? parseControl(ev.data) : null;
        if (msg?.type === 'start') start(String(msg.sessionId || crypto.randomUUID()), String(msg.clientAddress || 'unknown'));
        else server.close(1008, 'a spare session must start with {"type":"start"}');
        return;
      }
      if (current.ended) return;
      if (typeof ev.data === 'string') {
        // Once finalised, the socket is a spare again, waiting for the next `start`.
        this.onControl(current, ev.data, () => { if (session === current) session = null; });
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
      this.ctx.waitUntil(current.fed.then(() => (current.ended ? null : this.finalise(current, 'lost'))).catch((e) => console.error('finalise failed', e)));
    };
    server.addEventListener('close', lost);
    server.addEventListener('error', lost);
    return new Response(null, { status: 101, webSocket: client });
  }

  private onControl(session: LiveSession, text: string, reusable: () => void): void {
    const msg = parseControl(text);
    if (!msg) return;
    if (msg.type === 'buffer') {
      this.buffer = { bufferedBytes: Number(msg.bufferedBytes) || 0, bufferedBytesDeltaBps: Number(msg.bufferedBytesDeltaBps) || 0 };
      if (this.row) this.runtimeHub.broadcast('status', statusUpdate(this.env, this.row, { runtime: true }, this.buffer));
    } else if (msg.type === 'end') {
      if (typeof msg.bytesSent === 'number') session.bytesSent = msg.bytesSent;
      const reason = parseEndReason(msg.reason) ?? 'closed';
      session.endReceived = true;
      this.ctx.waitUntil(
        session.fed.then(() => this.finalise(session, reason))
          .then((documentId) => {
            reusable();
            try {
              session.socket?.send(JSON.stringify({ type: 'finalised', documentId }));
            } catch { /* bridge already gone */ }
          })
          .catch((e) => console.error('finalise failed', e)),
      );
    }
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
    const row = this.row!;
    if (ev.type === 'drawerKick') {
      await setDrawers(this.env.DB, row.id, ev.drawer === 1 ? 'OpenedByCommand' : undefined, ev.drawer === 2 ? 'OpenedByCommand' : undefined);
      const fresh = await findPrinter(this.env.DB, row.id);
      if (fresh) await publishPrinterChange(this.env, fresh, { runtime: true });
    } else if (ev.type === 'nvImageDefined') {
      this.nvImages?.set(ev.slot, ev.bitmap);
      await saveNvImage(this.env, row, ev.slot, ev.bitmap);
    } else if (ev.type === 'nvImageDeleted') {
      this.nvImages?.delete(ev.slot);
      await deleteNvImage(this.env, row.id, ev.slot);
    }
  }

  /**
   * Renders the job, announces it and resolves once it is durable (the write queue). A
   * connection that sent nothing (a port probe, a "is the printer there?" check) printed
   * nothing: no document, null. `writeNow` skips the write window (imports, recovered jobs).
   */
  private async finalise(session: LiveSession, reason: EndReason, writeNow = false): Promise<string | null> {
    session.ended = true;
    this.sessions.delete(session);
    await this.effects;
    if (session.bytesReceived === 0 && !session.truncated) return null;
    // Flags and drawers are pushed here as they change (printerChanged), so the cache is current for them.
    const row = this.row!;
    if (reason === 'maxJobSeconds') {
      session.extraErrors.push(`The job was still open after the maximum job duration of ${readSettings(this.env).maxJobSeconds} s; it was ended there and the connection closed`);
    }
    if (reason === 'maxJobBytes' || session.truncated) {
      session.extraErrors.push(`The job exceeded the maximum job size of ${readSettings(this.env).maxJobBytes} bytes; it was cut off there and the connection closed`);
    }
    const conditions = activeConditions(row);
    if (conditions.length) session.extraErrors.push(`Printed while the printer reported: ${conditions.join(', ')}`);
    const prepared = await prepareDocument(this.env, row, session.engine.finish(), {
      documentId: crypto.randomUUID(),
      printJobId: session.id,
      clientAddress: session.clientAddress,
      bytesSent: session.bytesSent,
      raw: session.rawBytes(),
      extraErrors: session.extraErrors,
      readers: [...this.canvasHub.channels.values()],
    });
    this.announce(prepared.id, prepared.json);
    await this.writes.add(prepared, writeNow);
    return prepared.id;
  }

  /** Writes a batch of this printer's documents, then publishes the printer's new stamps. */
  private async commit(docs: PreparedDocument[]): Promise<void> {
    const fresh = await commitDocuments(this.env, this.row!, docs);
    // Null: the printer was deleted meanwhile, and its sidebar entry must stay gone.
    if (!fresh) return;
    // The store re-read the printer: read stamps and workspace names change in D1 without
    // passing through here.
    await Promise.all([
      this.printerChanged(fresh, { printer: true }),
      workspaceStub(this.env, fresh.workspace_id).publishSidebar(sidebarDto(fresh)),
    ]);
  }

  // ---- canvas stream -------------------------------------------------------------------

  private async openCanvasStream(request: Request, url: URL): Promise<Response> {
    const reader: Reader = { workspaceId: url.searchParams.get('readerWorkspaceId') ?? '', client: url.searchParams.get('client') === 'web' ? 'web' : 'api' };
    const channel = this.canvasHub.open(reader);
    const lastEventId = request.headers.get('last-event-id');
    if (lastEventId) {
      // Documents announced while the missed ones are read come after them, once each.
      channel.hold();
      try {
        await this.writes.settled();
        const missed = await documentsAfter(this.env, this.row!.id, lastEventId);
        channel.replay(missed.map((d) => ({ event: 'documentCanvasReady', ...d })));
        if (missed.length) this.ctx.waitUntil(recordRead(this.env, this.row!, reader));
      } catch (e) {
        this.canvasHub.drop(channel); // its response is never returned
        throw e;
      }
    }
    return channel.response;
  }

  /** Sends a stored document to the canvas stream; its readers' stamps were stored with it. */
  private announce(documentId: string, json: string): void {
    this.canvasHub.broadcastRaw('documentCanvasReady', json, documentId);
  }

  // ---- state ---------------------------------------------------------------------------

  private async load(printerId: string): Promise<PrinterRow | null> {
    if (this.row && this.printerId === printerId.toLowerCase()) return this.row;
    this.printerId = printerId.toLowerCase();
    this.row = await findPrinter(this.env.DB, printerId);
    return this.row;
  }

  private async loadNvImages(): Promise<void> {
    this.nvImages ??= await loadNvBitmaps(this.env, this.printerId!);
  }

  private newEngine(row: PrinterRow) {
    return createProtocolSession(row.protocol, () => this.context(), this.memory);
  }

  private context(): PrinterContext {
    const row = this.row!;
    return {
      widthInDots: row.width_in_dots,
      heightInDots: row.height_in_dots,
      flags: {
        isCoverOpen: row.is_cover_open === 1,
        isPaperOut: row.is_paper_out === 1,
        isOffline: row.is_offline === 1,
        hasError: row.has_error === 1,
        isPaperNearEnd: row.is_paper_near_end === 1,
      },
      drawer1State: row.drawer1_state,
      drawer2State: row.drawer2_state,
      bufferFull: this.buffer !== null && row.buffer_max_capacity !== null && this.buffer.bufferedBytes >= row.buffer_max_capacity,
      nvImages: this.nvImages ?? new Map(),
    };
  }
}

type ControlMessage = { type?: string; [k: string]: unknown };

function parseControl(text: string): ControlMessage | null {
  try {
    const msg: unknown = JSON.parse(text);
    return msg !== null && typeof msg === 'object' ? (msg as ControlMessage) : null;
  } catch {
    return null;
  }
}

function activeConditions(row: PrinterRow): string[] {
  const out: string[] = [];
  if (row.is_cover_open) out.push('cover open');
  if (row.is_paper_out) out.push('paper out');
  if (row.is_offline) out.push('offline');
  if (row.has_error) out.push('error');
  return out;
}
