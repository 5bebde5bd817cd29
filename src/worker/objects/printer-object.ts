import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinter, findPrinterStatement, setDrawers } from '../data/printers.ts';
import { createProtocolSession, newPrinterMemory, type PrinterMemory } from '../../engines/index.ts';
import type { EngineEvent, PrinterContext, PushResult } from '../../engines/canvas/printer-context.ts';
import type { Bitmap } from '../../engines/raster/bitmap.ts';
import { readSettings } from '../config.ts';
import { SseHub } from '../services/sse.ts';
import { documentJson, documentRaw, prepareDocument } from '../services/document-store.ts';
import { deleteStoredDocuments, type DeletionResult } from '../services/document-deletion.ts';
import { loadNvBitmaps, saveNvImage, deleteNvImage } from '../services/nv-images.ts';
import { publishPrinterChange, statusUpdate, workspaceStub, type PrinterChange } from '../services/notify.ts';
import { sidebarDto } from '../services/dto.ts';
import { recordRead, type Reader } from '../services/read-stamps.ts';
import { LiveSession, parseEndReason, type EndReason } from './live-session.ts';
import { finishInSteps, SlicePacer, yieldToOthers } from './slices.ts';
import { modelContext, type ModelContext } from '../../engines/models/index.ts';
import { modelChoiceOf } from '../services/printer-models.ts';
import { DocumentTable, type ListFilter } from './document-table.ts';
import { DocumentWaiters } from './document-waiters.ts';
import { documentReadyMessage } from '../services/webhooks.ts';
import type { PreparedDocument } from '../services/document-store.ts';
import { COUNTER_FLUSH_MS, CounterOutbox, type Owner } from './counter-outbox.ts';
import { importDocumentsFromD1 } from './d1-import.ts';
import { countD1Statements } from '../data/d1-statement-count.ts';
import { StoredKeys } from '../services/media-store.ts';
import { prepareHttpJob, type HttpJobAnswer, type HttpJobRequest } from './http-job.ts';
import { ReadyWaiters } from './ready-waiters.ts';
import { PendingMark } from './pending-mark.ts';
import { RecentPictures } from '../services/media-pack.ts';
import { parseSessionControl } from '../services/bridge-input.ts';
import { DeferredMediaPurge, deletePrinterRows, type RetireScope } from './printer-retirement.ts';
import { findPrinterEvenDeleted } from '../data/printers.ts';
import { settingFromRow } from '../schemas/printer-settings.ts';
import { CloudPoller, type ArrivedJob } from './cloud-poller.ts';
import { CloudStatusWriter } from './cloud-status.ts';

/** A session's `finalising` heartbeat to the bridge after `end` (it waits 60 s without one). */
const FINALISING = JSON.stringify({ type: 'finalising' });
const FINALISING_HEARTBEAT_MS = 10_000;

/** A canvas stream subscriber: whose read it is, and whether it wants status polls. */
type CanvasReader = Reader & ListFilter;

export interface DocumentPage {
  ok: boolean;
  itemsJson: string[];
  hasMore: boolean;
  next: { id: string; createdAt: string } | null;
  statusPollCount: number;
}

/** How often the object looks at its documents' retention when nothing else wakes it. */
const RETENTION_CHECK_MS = 86400_000;
const DAY_MS = 86400_000;
/** The shortest retention a workspace can set (schemas/workspace.ts). */
const MIN_RETENTION_DAYS = 1;
const SIDEBAR_INTERVAL_MS = 1_000;
/** How long a recovery waits for the same job still being stored (see recoverJob). */
const RECOVERY_WAIT_MS = 20_000;
/** A document list page stops adding documents past this much JSON (see listDocuments). */
const PAGE_JSON_BYTES = 8 * 1024 * 1024;

/**
 * One per printer. Owns the live print sessions (bytes in, status replies out, finalisation),
 * the runtime and canvas event streams, the live buffer figures, and the printer's documents
 * (its own SQLite storage: objects/document-table.ts) with their retention (the object's alarm).
 * Durable configuration (flags, drawers, settings) lives in D1; this object caches the row and
 * is told of changes. D1 hears of documents only through the counter outbox, flushed by the
 * alarm in one batch per `COUNTER_FLUSH_MS` at most, or sooner when a reader settles it
 * (services/settle.ts).
 */
export class PrinterObject extends DurableObject<Env> {
  private printerId: string | null = null;
  private row: PrinterRow | null = null;
  private nvImages: Map<number, Bitmap> | null = null;
  private buffer: { bufferedBytes: number; bufferedBytesDeltaBps: number } | null = null;
  /** EPL forms and graphics stored over TCP; kept across connections like a real printer's RAM. */
  private readonly memory: PrinterMemory = newPrinterMemory();
  private readonly sessions = new Set<LiveSession>();
  private readonly runtimeHub = new SseHub();
  private readonly canvasHub = new SseHub<CanvasReader>();
  /** Side effects (drawer kicks, NV definitions) applied in order, off the reply path. */
  private effects: Promise<void> = Promise.resolve();
  private readonly documents: DocumentTable;
  /** Callers of `documents/next` waiting for this printer's next document. */
  private readonly waiters = new DocumentWaiters();
  /** Whether the workspace has an enabled webhook: read from D1 once, reset by `webhookChanged`. */
  private webhookEnabled: Promise<boolean> | null = null;
  private readonly outbox: CounterOutbox;
  /** Readers flush the outbox before reading D1; its workspace's object knows it is pending. */
  private readonly pending = new PendingMark();
  /** Images this object wrote to R2 lately (a logo on every receipt is written once). */
  private readonly storedMedia: { storedKeys: StoredKeys; recent: RecentPictures };
  /** The one-time import of the printer's documents from D1 (before migration 0003). */
  private imported: Promise<void> | null = null;
  /** An alarm is set that flushes the outbox (saves asking storage per document). */
  private flushScheduled = false;
  /** An alarm is set (retention); the alarm handler sets the next one while documents remain. */
  private alarmKnown = false;
  /** A printer printing steadily updates the workspace's sidebar once a second, not per document. */
  private sidebarSentAt = 0;
  private sidebarTimer: ReturnType<typeof setTimeout> | null = null;
  /** Jobs whose end is known and that are being fed and stored, by session id (recoverJob waits for them). */
  private readonly finalising = new Map<string, Promise<string | null>>();
  /** HTTP jobs waiting for the printer to be able to print (ePOS-Print `timeout`). */
  private readonly readyWaiters = new ReadyWaiters();
  /** Polls the printer's cloud print server while it is Started (settings.cloudPrint). */
  private readonly cloud: CloudPoller;
  private readonly cloudStatus = new CloudStatusWriter();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    countD1Statements(env);
    this.documents = new DocumentTable(ctx.storage.sql);
    this.outbox = new CounterOutbox(ctx.storage.sql);
    this.storedMedia = { storedKeys: new StoredKeys(readSettings(env).mediaKeepRecentMs), recent: new RecentPictures() };
    this.cloud = new CloudPoller({
      printerId: () => this.row!.id,
      displayName: () => this.row!.display_name,
      state: () => ({ flags: this.context().flags, drawer1State: this.row!.drawer1_state }),
      description: () => ({ modelName: modelChoiceOf(this.row!).model.name, dpi: modelChoiceOf(this.row!).model.dpi, widthInDots: this.row!.width_in_dots, protocol: this.row!.protocol as 'StarPrnt' | 'StarLine' }),
      policy: () => ({ allowPrivateTargets: readSettings(env).allowPrivateTargets, ownHosts: [readSettings(env).publicHost] }),
      maxJobBytes: () => readSettings(env).maxJobBytes,
      print: (job) => this.printArrivedJob(job),
      report: (at, error) => {
        if (!this.row || this.row.deleted_at) return;
        this.row = { ...this.row, cloud_print_last_poll_at: at, cloud_print_last_error: error };
        if (this.runtimeHub.size) this.runtimeHub.broadcast('status', statusUpdate(this.env, this.row, { runtime: true }, this.buffer));
        const write = this.cloudStatus.write(this.env.DB, this.row.id, at, error);
        if (write) this.ctx.waitUntil(write.catch((e) => console.error('cloud status write failed', e)));
      },
      wakeBy: (at) => this.ensureAlarm(at),
    });
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const printerId = url.searchParams.get('printerId');
    if (!printerId) return new Response('printerId required', { status: 400 });
    const row = await this.load(printerId);
    if (!row || row.deleted_at) return new Response('printer not found', { status: 404 });
    switch (url.pathname) {
      case '/session':
        // Only the bridge that owns the printer (the shared one: empty) may print to it.
        if ((url.searchParams.get('bridgeId') || null) !== (row.bridge_id ?? null)) {
          return new Response('this printer is served by another bridge', { status: 403 });
        }
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
    // The poller's latest outcome is newer than D1's (written at most every 30 s).
    const polled = this.row?.id === row.id ? { cloud_print_last_poll_at: this.row.cloud_print_last_poll_at, cloud_print_last_error: this.row.cloud_print_last_error } : {};
    this.row = { ...row, ...polled };
    this.runtimeHub.broadcast('status', statusUpdate(this.env, this.row, change, change.runtime ? this.buffer : undefined));
    // An alarm that finds the object fresh reads its printer from the owner table: filled here.
    if (settingFromRow(row, 'cloudPrint') && !row.deleted_at) await this.loadDocuments(row.id);
    await this.cloud.follow(this.row, !!change.flags);
    if (change.flags || change.runtime) {
      for (const s of this.sessions) this.deliver(s, s.engine.contextChanged());
      if (!blockingConditions(row)) this.readyWaiters.ready();
    }
  }

  /**
   * A job that arrived as one request (an HTTP printer endpoint, LPD; http-job.ts): rendered
   * like a TCP job, its raw bytes the request body as received, answered as the printer would.
   * An ePOS-Print job waits up to the request's timeout for cover open, paper out, offline or
   * an error to clear, as a TM printer does, then prints and answers with the flags of that moment.
   */
  async httpJob(printerId: string, bridgeId: string | null, req: HttpJobRequest): Promise<HttpJobAnswer> {
    const row = await this.load(printerId);
    if (!row || row.deleted_at) return { documentId: null, status: 404, contentType: 'text/plain; charset=utf-8', body: 'printer not found' };
    if (bridgeId !== (row.bridge_id ?? null)) return { documentId: null, status: 403, contentType: 'text/plain; charset=utf-8', body: 'this printer is served by another bridge' };
    await this.loadNvImages();
    const job = prepareHttpJob(req);
    if (job.waitsForReady && blockingConditions(this.row!)) {
      await this.readyWaiters.wait(Math.min(req.timeoutMs, readSettings(this.env).maxJobSeconds * 1000));
      // Deleted while it waited (retire): nothing is stored.
      if (this.row!.deleted_at) return { documentId: null, status: 404, contentType: 'text/plain; charset=utf-8', body: 'printer not found' };
    }
    const session = new LiveSession(req.sessionId, req.clientAddress, this.newEngine(this.row!), req.transport);
    session.receivedAs(req.body);
    this.sessions.add(session);
    const answer = job.answer({ flags: this.context().flags, drawer1State: this.row!.drawer1_state });
    session.extraErrors.push(...job.errors);
    if (answer.error) session.extraErrors.push(answer.error);
    if (job.bytes) {
      await session.pacer.feed(job.bytes, (slice) => session.engine.push(slice), (result) => this.applyEffects(result.events));
    }
    const documentId = await this.track(session.id, this.finalise(session, 'closed'));
    return { documentId, status: answer.status, contentType: answer.contentType, body: answer.body };
  }

  /**
   * NV images were uploaded or deleted through the API: reloaded now, because sessions start
   * on open spare sockets without a chance to load anything first.
   */
  async nvImagesChanged(printerId: string): Promise<void> {
    this.printerId ??= printerId.toLowerCase();
    this.nvImages = await loadNvBitmaps(this.env, this.printerId);
  }

  /** The workspace's webhook was set or removed (routes/webhooks.ts tells every printer). */
  async webhookChanged(): Promise<void> {
    this.webhookEnabled = null;
  }

  liveBuffer(): { bufferedBytes: number; bufferedBytesDeltaBps: number } | null {
    return this.buffer;
  }

  // ---- documents (services/documents.ts is the Worker's side of these) -------------------

  /** Newest first; `ok: false` for a `beforeId` that is not a document of this printer. */
  async listDocuments(printerId: string, limit: number, beforeId: string | undefined, filter: ListFilter): Promise<DocumentPage> {
    await this.loadDocuments(printerId);
    const statusPollCount = this.documents.statusPollCount();
    const page = this.documents.page(limit, beforeId, filter);
    if (!page) return { ok: false, itemsJson: [], hasMore: false, next: null, statusPollCount };
    // A page ends early once its JSON passes PAGE_JSON_BYTES (at least one document, and
    // hasMore with the cursor of the last one it holds): RPC results are capped at 32 MiB, and
    // 7 documents of 5 MB each (20,000 elements) failed the whole listing (issue 17).
    const itemsJson: string[] = [];
    let bytes = 0;
    for (const r of page.rows) {
      if (itemsJson.length > 0 && bytes >= PAGE_JSON_BYTES) break;
      const json = await documentJson(this.env, r);
      itemsJson.push(json);
      bytes += json.length;
    }
    const hasMore = page.hasMore || itemsJson.length < page.rows.length;
    const last = page.rows[itemsJson.length - 1];
    return { ok: true, itemsJson, hasMore, next: hasMore && last ? { id: last.id, createdAt: last.createdAt } : null, statusPollCount };
  }

  /** One document's RenderedDocumentDto JSON, null when it is not this printer's. */
  async getDocument(printerId: string, documentId: string): Promise<string | null> {
    await this.loadDocuments(printerId);
    const loc = this.documents.get(documentId);
    return loc ? documentJson(this.env, loc) : null;
  }

  /**
   * The first document (status polls excluded) stored after `afterId`, or after now without
   * one; waits up to `timeoutMs` for it. `unknownAfter` when `afterId` is not this printer's.
   */
  async nextDocument(printerId: string, afterId: string | null, timeoutMs: number): Promise<{ unknownAfter: true } | { tooManyWaiters: true } | { unknownAfter: false; json: string | null }> {
    await this.loadDocuments(printerId);
    if (afterId !== null) {
      if (!this.documents.has(afterId)) return { unknownAfter: true };
      const [stored] = this.documents.after(afterId, 1, { includeStatusPolls: false });
      if (stored) return { unknownAfter: false, json: await documentJson(this.env, stored) };
    }
    if (this.waiters.isFull && timeoutMs > 0) return { tooManyWaiters: true };
    return { unknownAfter: false, json: await this.waiters.next(timeoutMs) };
  }

  /** Exactly the bytes a document was rendered from; null when it is not this printer's. */
  async getDocumentRaw(printerId: string, documentId: string): Promise<Uint8Array | null> {
    await this.loadDocuments(printerId);
    const loc = this.documents.raw(documentId);
    return loc ? documentRaw(this.env, loc) : null;
  }

  /** Documents created before `cutoff` (every one with null), and the media rows they use. */
  async countDocuments(printerId: string, cutoff: string | null): Promise<{ documents: number; media: number }> {
    await this.loadDocuments(printerId);
    return this.documents.countOlderThan(cutoff);
  }

  /** Deletes documents created before `cutoff` (all with null), oldest first, at most `max`. */
  async deleteDocuments(printerId: string, cutoff: string | null, max?: number): Promise<DeletionResult> {
    await this.loadDocuments(printerId);
    const result = await deleteStoredDocuments(this.env, this.documents, this.outbox, cutoff, max);
    await this.flushOutbox();
    return result;
  }

  /**
   * Rewrites this printer's statistics counters in D1 from its documents (repair, and tests that
   * move documents in time).
   */
  async rebuildCounters(printerId: string): Promise<void> {
    await this.loadDocuments(printerId);
    await this.flushOutbox();
    const row = this.row!;
    const hours = this.documents.countsByHour();
    await this.env.DB.batch([
      this.env.DB.prepare('DELETE FROM document_counters WHERE printer_id = ?').bind(row.id),
      ...hours.map((h) =>
        this.env.DB.prepare('INSERT INTO document_counters (printer_id, workspace_id, hour, documents, last_at) VALUES (?, ?, ?, ?, ?)')
          .bind(row.id, row.workspace_id, h.hour, h.documents, h.lastAt)),
    ]);
  }

  /** Test support: moves documents in time (retention tests), counters included. */
  async backdateDocuments(printerId: string, documentIds: string[], createdAt: string): Promise<void> {
    await this.loadDocuments(printerId);
    this.documents.setCreatedAt(documentIds, createdAt);
    await this.rebuildCounters(printerId);
  }

  /** A reader is about to read D1 (services/settle.ts): what the outbox holds is written now. */
  async settle(): Promise<void> {
    this.pending.settling();
    if (!(this.row ?? (await this.ownerRow()))) return;
    await this.flushOutbox();
  }

  /**
   * The printer was deleted, alone or with its workspace (D1 says so already): its sessions end
   * now without a document, new ones are refused from here on (its row is marked deleted), jobs
   * being stored finish first, and then its documents, media, counters, connection attempts and
   * NV images go (printer-retirement.ts). Nothing is left to flush.
   */
  async retire(printerId: string, scope: RetireScope): Promise<void> {
    const id = printerId.toLowerCase();
    const row = (this.printerId === id ? this.row : null) ?? (await findPrinterEvenDeleted(this.env.DB, id));
    if (!row) return;
    this.printerId = id;
    this.row = { ...row, deleted_at: row.deleted_at ?? new Date().toISOString() };
    for (const s of this.sessions) {
      s.ended = true;
      try { s.socket?.close(4004, 'printer deleted'); } catch { /* already closed */ }
    }
    this.sessions.clear();
    await this.cloud.follow(this.row);
    await Promise.allSettled([...this.finalising.values()]);
    await this.loadDocuments(id);
    const purge = new DeferredMediaPurge(this.ctx.storage.sql);
    // A whole workspace takes everyone who could share its keyed images: they go at once.
    const disposal = { purge: scope === 'workspace', keptRecent: (keys: string[]) => purge.add(keys) };
    await deleteStoredDocuments(this.env, this.documents, this.outbox, null, undefined, undefined, disposal);
    this.outbox.clear();
    const nvKeys = await deletePrinterRows(this.env, id);
    if (scope === 'workspace') { if (nvKeys.length) await this.env.MEDIA.delete(nvKeys); } else purge.add(nvKeys);
    await this.ctx.storage.deleteAlarm();
    this.flushScheduled = false;
    const next = await purge.run(this.env);
    if (next !== null) await this.ctx.storage.setAlarm(next);
    this.alarmKnown = true; // retention has nothing left to do here
  }

  /** The alarm: flush the counter outbox, apply retention when due, and set the next alarm. */
  override async alarm(): Promise<void> {
    // A deleted printer's alarm only deletes the images it left (printer-retirement.ts).
    const purge = new DeferredMediaPurge(this.ctx.storage.sql);
    if (!purge.isEmpty) {
      const next = await purge.run(this.env);
      if (next !== null) await this.ctx.storage.setAlarm(next);
      return;
    }
    this.flushScheduled = false;
    this.alarmKnown = false;
    const row = this.row ?? (await this.ownerRow());
    if (!row) return;
    await this.cloud.follow(row);
    // The poll goes on beside the counters and retention below (wakeBy keeps the earliest alarm).
    const polled = this.cloud.onAlarm();
    await this.loadDocuments(row.id);
    await this.flushOutbox();
    // Most alarms only flush counters: no document is old enough to expire under any retention
    // (at least a day), so the workspace's setting is not read (the printing path's D1 budget).
    const oldestNow = this.documents.oldestCreatedAt();
    const mayExpire = oldestNow !== null && Date.now() - Date.parse(oldestNow) >= MIN_RETENTION_DAYS * DAY_MS;
    const days = mayExpire
      ? await this.env.DB.prepare('SELECT document_retention_days AS d FROM workspaces WHERE id = ?').bind(row.workspace_id).first<{ d: number }>()
      : oldestNow !== null ? { d: MIN_RETENTION_DAYS } : null;
    if (days && mayExpire) {
      const cutoff = new Date(Date.now() - days.d * DAY_MS).toISOString();
      const result = await deleteStoredDocuments(this.env, this.documents, this.outbox, cutoff);
      if (result.deletedDocuments) await this.flushOutbox();
    }
    const oldest = this.documents.oldestCreatedAt();
    if (oldest && days) {
      const due = Math.min(Date.parse(oldest) + days.d * DAY_MS, Date.now() + RETENTION_CHECK_MS);
      await this.ensureAlarm(Math.max(due, Date.now() + 60_000));
    }
    await polled;
  }

  /** A job the cloud poller fetched: rendered and stored like a TCP job, its raw bytes what the server sent. */
  private async printArrivedJob(job: ArrivedJob): Promise<string | null> {
    await this.loadNvImages();
    const session = new LiveSession(crypto.randomUUID(), job.clientAddress, this.newEngine(this.row!), job.transport);
    session.receivedAs(job.raw);
    session.extraErrors.push(...job.errors);
    await session.pacer.feed(job.bytes, (slice) => session.engine.push(slice), (result) => this.applyEffects(result.events));
    return this.track(session.id, this.finalise(session, 'closed'));
  }

  /** A document from the import endpoint: rendered as if printed, no replies sent. */
  async importJob(printerId: string, bytes: Uint8Array): Promise<string | null> {
    const row = await this.load(printerId);
    if (!row) throw new Error('printer not found');
    await this.loadNvImages();
    const session = new LiveSession(crypto.randomUUID(), 'import', this.newEngine(row), 'Import');
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    await new SlicePacer().feed(bytes, (slice) => session.receive(slice, maxJobBytes), (result) => this.applyEffects(result.events));
    return this.finalise(session, 'closed', true);
  }

  /**
   * A job the bridge kept because its session's upstream was lost (internal protocol 3). While
   * the same job is still being stored (its live session, or an earlier attempt of this
   * recovery whose request timed out) this waits for that and then decides: issue 17b found
   * 16 MiB recoveries timing out at the bridge and each retry rendering the job once more.
   */
  async recoverJob(printerId: string, job: RecoveredJob): Promise<string | null> {
    // Bounded (under the bridge's 30 s request timeout): a finalisation that never settles
    // must not hold the recovery back for ever; past it the job is rendered again as before.
    const giveUpAt = Date.now() + RECOVERY_WAIT_MS;
    for (let pending = this.finalising.get(job.sessionId); pending && Date.now() < giveUpAt; pending = this.finalising.get(job.sessionId)) {
      await Promise.race([pending.catch(() => null), new Promise((r) => setTimeout(r, giveUpAt - Date.now()))]);
    }
    return this.track(job.sessionId, this.recoverNow(printerId, job));
  }

  /** Remembers a job being stored under its session id until it is (see recoverJob). */
  private track(sessionId: string, work: Promise<string | null>): Promise<string | null> {
    this.finalising.set(sessionId, work);
    const clear = () => { if (this.finalising.get(sessionId) === work) this.finalising.delete(sessionId); };
    work.then(clear, clear);
    return work;
  }

  private async recoverNow(printerId: string, job: RecoveredJob): Promise<string | null> {
    const row = await this.load(printerId);
    if (!row) throw new Error('printer not found');
    await this.loadDocuments(printerId);
    const existing = this.documents.findByJob(job.sessionId);
    // Idempotent for a job already stored whole; a job finalised short (its session dropped
    // before all bytes arrived) is replaced by the bridge's complete copy.
    if (existing && existing.bytesReceived >= job.bytes.length) return existing.id;
    if (existing) await deleteStoredDocuments(this.env, this.documents, this.outbox, null, undefined, [existing.id]);
    await this.loadNvImages();
    const session = new LiveSession(job.sessionId, job.clientAddress, this.newEngine(row));
    const maxJobBytes = readSettings(this.env).maxJobBytes;
    await new SlicePacer().feed(job.bytes, (slice) => session.receive(slice, maxJobBytes), (result) => this.applyEffects(result.events));
    session.bytesSent = job.bytesSent;
    // A job the bridge saw end normally is whole: no error (issue 17: complete recovered jobs
    // were flagged "upstream connection lost"); the bridge names what went wrong otherwise.
    if (job.error) session.extraErrors.push(job.error);
    // On the printing path (a job the bridge recovered): counters batched like any printed job.
    return this.finalise(session, job.endReason ?? 'closed');
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
        const msg = typeof ev.data === 'string' ? parseSessionControl(ev.data) : null;
        if (msg?.ok && msg.value.type === 'start') start(msg.value.sessionId, msg.value.clientAddress);
        else {
          console.warn(JSON.stringify({ event: 'bridge.dropped', message: 'session', printerId: this.printerId, reason: msg && !msg.ok ? msg.reason : 'a spare session must start with {"type":"start"}' }));
          server.close(1008, 'a spare session must start with a valid {"type":"start"}');
        }
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
      this.ctx.waitUntil(this.track(current.id, current.fed.then(() => (current.ended ? null : this.finalise(current, 'lost')))).catch((e) => console.error('finalise failed', e)));
    };
    server.addEventListener('close', lost);
    server.addEventListener('error', lost);
    return new Response(null, { status: 101, webSocket: client });
  }

  private onControl(session: LiveSession, text: string, reusable: () => void): void {
    const parsed = parseSessionControl(text);
    if (!parsed.ok) return console.warn(JSON.stringify({ event: 'bridge.dropped', message: 'session', printerId: this.printerId, reason: parsed.reason }));
    const msg = parsed.value;
    if (msg.type === 'buffer') {
      this.buffer = { bufferedBytes: msg.bufferedBytes, bufferedBytesDeltaBps: msg.bufferedBytesDeltaBps };
      if (this.row) this.runtimeHub.broadcast('status', statusUpdate(this.env, this.row, { runtime: true }, this.buffer));
    } else if (msg.type === 'end') {
      if (msg.bytesSent !== null) session.bytesSent = msg.bytesSent;
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
        this.track(session.id, session.fed.then(() => this.finalise(session, reason)))
          .then((documentId) => {
            clearInterval(heartbeat);
            reusable();
            try {
              session.socket?.send(JSON.stringify({ type: 'finalised', documentId }));
            } catch { /* bridge already gone */ }
          })
          .catch((e) => console.error('finalise failed', e))
          .finally(() => clearInterval(heartbeat)),
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
   * Renders the job, stores it in this object, announces it and returns its id. A
   * connection that sent nothing (a port probe, a "is the printer there?" check) printed
   * nothing: no document, null. `writeNow` writes the counters through at once (imports: statistics read their own writes).
   */
  private async finalise(session: LiveSession, reason: EndReason, writeNow = false): Promise<string | null> {
    session.ended = true;
    this.sessions.delete(session);
    await this.effects;
    if (session.bytesReceived === 0 && !session.truncated) return null;
    await this.loadDocuments(this.row!.id);
    // Flags and drawers are pushed here as they change (printerChanged), so the cache is current for them.
    const row = this.row!;
    if (reason === 'maxJobSeconds') {
      session.extraErrors.push(`The job was still open after the maximum job duration of ${readSettings(this.env).maxJobSeconds} s; it was ended there and the connection closed`);
    }
    if (reason === 'maxJobBytes' || session.truncated) {
      session.extraErrors.push(`The job exceeded the maximum job size of ${readSettings(this.env).maxJobBytes} bytes; it was cut off there and the connection closed`);
    }
    await finishInSteps(session.engine);
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
    }, this.storedMedia, yieldToOthers);
    await this.pending.ensureMarked(() => workspaceStub(this.env, row.workspace_id).printerDirty(row.workspace_id, row.id));
    // Stored before anything leaves the object: the output gate holds the stream event and the
    // bridge's `finalised` until this write is durable.
    this.documents.insert(prepared.row);
    this.outbox.count(prepared.createdAt, 1);
    if (prepared.media.length) this.outbox.media(prepared.media);
    const readers = this.announce(prepared.id, prepared.json, prepared.isStatusPoll);
    if (!prepared.isStatusPoll) {
      this.waiters.documentStored(prepared.json);
      this.ctx.waitUntil(this.enqueueWebhook(prepared).catch((e) => console.error('webhook enqueue failed', e)));
    }
    this.outbox.read(this.owner(), readers, prepared.createdAt);
    if (!this.alarmKnown) await this.ensureAlarm(Date.now() + RETENTION_CHECK_MS);
    if (writeNow) {
      // Imports and recovered jobs are not the printing path: written through at once, and the
      // printer re-read in the same batch (read stamps and workspace names change in D1 without
      // passing through here).
      const fresh = await this.outbox.flush<PrinterRow>(this.env.DB, this.owner(), findPrinterStatement(this.env.DB, this.row!.id));
      if (fresh && !fresh.deleted_at) this.publishPrinter(fresh);
    } else {
      await this.scheduleFlush();
      // The printer's stamp is in the outbox for D1; its streams hear of it now.
      const current = this.row!;
      if (!current.deleted_at) this.publishPrinter({ ...current, last_document_received_at: prepared.createdAt });
    }
    return prepared.id;
  }

  /** One queue message per document when the workspace has a webhook (services/webhooks.ts delivers it). */
  private async enqueueWebhook(d: PreparedDocument): Promise<void> {
    const { id: printerId, workspace_id: workspaceId } = this.row!;
    this.webhookEnabled ??= this.env.DB.prepare('SELECT 1 AS on_ FROM webhooks WHERE workspace_id = ? AND is_enabled = 1')
      .bind(workspaceId).first()
      .then((r) => r !== null)
      .catch((e) => {
        this.webhookEnabled = null;
        throw e;
      });
    if (!(await this.webhookEnabled)) return;
    await this.env.WEBHOOKS.send(documentReadyMessage({
      workspaceId, printerId, documentId: d.id, timestamp: d.createdAt, bytesReceived: d.row.bytesReceived, text: d.text,
    }));
  }

  /** The printer section changed (a new document): runtime stream, and the sidebar (at most once a second). */
  private publishPrinter(row: PrinterRow): void {
    this.row = row;
    if (this.runtimeHub.size) this.runtimeHub.broadcast('status', statusUpdate(this.env, row, { printer: true }));
    const wait = this.sidebarSentAt + SIDEBAR_INTERVAL_MS - Date.now();
    if (wait <= 0) this.sendSidebar();
    else this.sidebarTimer ??= setTimeout(() => this.sendSidebar(), wait);
  }

  /** The sidebar hears the printer as it is now (nothing once it is deleted). */
  private sendSidebar(): void {
    if (this.sidebarTimer) clearTimeout(this.sidebarTimer);
    this.sidebarTimer = null;
    const row = this.row;
    if (!row || row.deleted_at) return;
    this.sidebarSentAt = Date.now();
    this.ctx.waitUntil(workspaceStub(this.env, row.workspace_id).publishSidebar(sidebarDto(row)).catch((e) => console.error('sidebar publish failed', e)));
  }

  private owner(): Owner {
    return { printerId: this.row!.id, workspaceId: this.row!.workspace_id };
  }

  /** Writes the outbox to D1 now (imports, deletions, the alarm). */
  private async flushOutbox(): Promise<void> {
    if (!this.row || this.outbox.isEmpty) return;
    await this.outbox.flush(this.env.DB, this.owner());
  }

  /** Makes sure an alarm flushes the outbox within COUNTER_FLUSH_MS. */
  private async scheduleFlush(): Promise<void> {
    if (this.flushScheduled) return;
    await this.ensureAlarm(Date.now() + COUNTER_FLUSH_MS);
    this.flushScheduled = true;
  }

  /** The alarm rings by `at` at the latest. */
  private async ensureAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
    this.alarmKnown = true;
  }

  /** The printer this object serves, for an alarm that finds the object freshly started. */
  private async ownerRow(): Promise<PrinterRow | null> {
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS owner (printer_id TEXT PRIMARY KEY)');
    const id = this.ctx.storage.sql.exec('SELECT printer_id FROM owner').toArray()[0]?.printer_id as string | undefined;
    return id ? this.load(id) : null;
  }

  /** The printer's documents are here (imported from D1 once), and the object knows its printer. */
  private async loadDocuments(printerId: string): Promise<void> {
    const row = await this.load(printerId);
    if (!row) throw new Error('printer not found');
    this.imported ??= (async () => {
      this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS owner (printer_id TEXT PRIMARY KEY)');
      this.ctx.storage.sql.exec('INSERT OR IGNORE INTO owner (printer_id) VALUES (?)', row.id);
      await importDocumentsFromD1(this.env, this.ctx.storage.sql, this.documents, row.id);
      // Retention needs an alarm even for a printer that never prints again.
      if ((await this.ctx.storage.getAlarm()) === null && this.documents.oldestCreatedAt()) {
        await this.ctx.storage.setAlarm(Date.now() + 60_000);
      }
    })().catch((e) => {
      this.imported = null;
      throw e;
    });
    await this.imported;
  }

  // ---- canvas stream -------------------------------------------------------------------

  private async openCanvasStream(request: Request, url: URL): Promise<Response> {
    const reader: CanvasReader = {
      workspaceId: url.searchParams.get('readerWorkspaceId') ?? '',
      client: url.searchParams.get('client') === 'web' ? 'web' : 'api',
      includeStatusPolls: url.searchParams.get('includeStatusPolls') !== 'false',
    };
    // Subscribed before anything is awaited: a document finalised meanwhile must reach it.
    const channel = this.canvasHub.open(reader);
    const lastEventId = request.headers.get('last-event-id');
    if (lastEventId) {
      // Documents announced while the missed ones are read come after them, once each.
      channel.hold();
      try {
        await this.loadDocuments(this.row!.id);
        const missed = await Promise.all(
          this.documents.after(lastEventId, 100, reader).map(async (d) => ({ id: d.id, json: await documentJson(this.env, d) })),
        );
        channel.replay(missed.map((d) => ({ event: 'documentCanvasReady', ...d })));
        if (missed.length) await recordRead(this.env, this.row!, reader);
      } catch (e) {
        this.canvasHub.drop(channel); // its response is never returned
        throw e;
      }
    }
    return channel.response;
  }

  /** Sends a stored document to the canvas stream (status polls not to those who left them out); returns who got it. */
  private announce(documentId: string, json: () => string, isStatusPoll: boolean): Reader[] {
    return this.canvasHub.broadcastRaw('documentCanvasReady', json, documentId, isStatusPoll ? (r) => r.includeStatusPolls : undefined);
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

  private context(): PrinterContext & ModelContext {
    const row = this.row!;
    const { model, multiByteEncoding } = modelChoiceOf(row);
    return {
      ...modelContext(model, multiByteEncoding),
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

type RecoveredJob = { sessionId: string; clientAddress: string; bytesSent: number; error: string; endReason: EndReason | null; bytes: Uint8Array };

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
