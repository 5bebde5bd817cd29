import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import type { DeletionResult } from '../services/document-deletion.ts';
import type { PrinterChange } from '../services/notify.ts';
import { countD1Statements } from '../data/d1-statement-count.ts';
import type { ListFilter } from './document-table.ts';
import { PrinterState, type LiveBufferFigures } from './printer-state.ts';
import { PrinterDocuments, type DocumentPage } from './printer-documents.ts';
import { PrinterFeeds } from './printer-feeds.ts';
import { PrintSessions, type RecoveredJob } from './print-sessions.ts';
import type { HttpJobAnswer, HttpJobRequest } from './http-job.ts';
import type { RetireScope } from './printer-retirement.ts';
import { findPrinterEvenDeleted } from '../data/printers.ts';
import { toRpcText, type RpcText } from '../services/rpc-text.ts';
import { readSettings } from '../config.ts';
import { modelChoiceOf } from '../services/printer-models.ts';
import { settingFromRow } from '../schemas/printer-settings.ts';
import { CloudPoller } from './cloud-poller.ts';
import { CloudStatusWriter } from './cloud-status.ts';

export type { DocumentPage } from './printer-documents.ts';

/**
 * One per printer, composed of parts with one job each:
 * - PrinterState (printer-state.ts): the cached D1 row, NV images, buffer figures, engine context;
 * - PrintSessions (print-sessions.ts): live sessions from the bridge, imported and recovered jobs;
 * - PrinterDocuments (printer-documents.ts): the documents in the object's SQLite, retention, counters;
 * - PrinterFeeds (printer-feeds.ts): runtime and canvas streams, `documents/next` waiters, webhook, sidebar;
 * - CloudPoller (cloud-poller.ts): polls the printer's cloud print server while it is Started.
 * Durable configuration (flags, drawers, settings) lives in D1; this object caches the row and
 * is told of changes; D1 hears of documents through the counter outbox, flushed by the alarm
 * or sooner when a reader settles it (services/settle.ts). This class only routes requests
 * and RPC calls to the parts.
 */
export class PrinterObject extends DurableObject<Env> {
  private readonly state: PrinterState;
  private readonly documents: PrinterDocuments;
  private readonly feeds: PrinterFeeds;
  private readonly sessions: PrintSessions;
  private readonly cloud: CloudPoller;
  private readonly cloudStatus = new CloudStatusWriter();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    countD1Statements(env);
    this.state = new PrinterState(env);
    this.documents = new PrinterDocuments(ctx, env, this.state);
    this.feeds = new PrinterFeeds(ctx, env, this.state, this.documents);
    this.sessions = new PrintSessions(ctx, env, this.state, this.documents, this.feeds);
    this.cloud = new CloudPoller({
      printerId: () => this.state.row!.id,
      displayName: () => this.state.row!.display_name,
      state: () => ({ flags: this.state.flags(), drawer1State: this.state.row!.drawer1_state }),
      description: () => {
        const row = this.state.row!;
        const { model } = modelChoiceOf(row);
        return { modelName: model.name, dpi: model.dpi, widthInDots: row.width_in_dots, protocol: row.protocol as 'StarPrnt' | 'StarLine' };
      },
      policy: () => ({ allowPrivateTargets: readSettings(env).allowPrivateTargets, ownHosts: [readSettings(env).publicHost] }),
      maxJobBytes: () => readSettings(env).maxJobBytes,
      print: (job) => this.sessions.arrivedJob(job),
      report: (at, error) => this.cloudPolled(at, error),
      wakeBy: (at) => this.documents.ensureAlarm(at),
    });
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const printerId = url.searchParams.get('printerId');
    if (!printerId) return new Response('printerId required', { status: 400 });
    const row = await this.state.load(printerId);
    if (!row || row.deleted_at) return new Response('printer not found', { status: 404 });
    switch (url.pathname) {
      case '/session':
        // Only the bridge that owns the printer (the shared one: empty) may print to it.
        if ((url.searchParams.get('bridgeId') || null) !== (row.bridge_id ?? null)) {
          return new Response('this printer is served by another bridge', { status: 403 });
        }
        return this.sessions.open(request, url);
      case '/runtime/stream':
        return this.feeds.openRuntimeStream();
      case '/canvas/stream':
        return this.feeds.openCanvasStream(request, url);
      default:
        return new Response('not found', { status: 404 });
    }
  }

  override async alarm(): Promise<void> {
    const row = this.state.row;
    if (row) await this.cloud.follow(row);
    // The poll goes on beside the counters and retention (ensureAlarm keeps the earliest alarm).
    const polled = this.cloud.onAlarm();
    await this.documents.alarm();
    await polled;
  }

  // ---- RPC from the Worker: the printer ------------------------------------------------

  /** The printer row changed (flags, drawers, settings, state): refresh, stream, re-send ASB. */
  async printerChanged(row: PrinterRow, change: PrinterChange): Promise<void> {
    // The poller's latest outcome is newer than D1's (written at most every 30 s).
    const cached = this.state.row;
    const current = cached?.id === row.id ? { ...row, cloud_print_last_poll_at: cached.cloud_print_last_poll_at, cloud_print_last_error: cached.cloud_print_last_error } : row;
    this.state.changed(current);
    this.feeds.printerChanged(current, change);
    // An alarm that finds the object fresh reads its printer from the owner table: filled here.
    if (settingFromRow(row, 'cloudPrint') && !row.deleted_at) await this.documents.load(row.id);
    await this.cloud.follow(current, !!change.flags);
    if (change.flags || change.runtime) this.sessions.contextChanged();
  }

  /** A cloud poll ended: its time and error on the runtime stream now, in D1 when they change (cloud-status.ts). */
  private cloudPolled(at: string, error: string | null): void {
    const row = this.state.row;
    if (!row || row.deleted_at) return;
    const polled = { ...row, cloud_print_last_poll_at: at, cloud_print_last_error: error };
    this.state.changed(polled);
    this.feeds.printerChanged(polled, { runtime: true });
    const write = this.cloudStatus.write(this.env.DB, row.id, at, error);
    if (write) this.ctx.waitUntil(write.catch((e) => console.error('cloud status write failed', e)));
  }

  /**
   * NV images were uploaded or deleted through the API: reloaded now, because sessions start
   * on open spare sockets without a chance to load anything first.
   */
  async nvImagesChanged(printerId: string): Promise<void> {
    await this.state.reloadNvImages(printerId);
  }

  /** The workspace's webhook was set or removed (routes/webhooks.ts tells every printer). */
  async webhookChanged(): Promise<void> {
    this.feeds.webhookChanged();
  }

  liveBuffer(): LiveBufferFigures | null {
    return this.state.buffer;
  }

  /**
   * The printer was deleted, alone or with its workspace (D1 says so already): its sessions end
   * now without a document, new ones are refused from here on (its row is marked deleted), jobs
   * being stored finish first, and then its documents, media, counters, connection attempts and
   * NV images go (printer-retirement.ts). Nothing is left to flush.
   */
  async retire(printerId: string, scope: RetireScope): Promise<void> {
    const id = printerId.toLowerCase();
    const row = (this.state.printerId === id ? this.state.row : null) ?? (await findPrinterEvenDeleted(this.env.DB, id));
    if (!row) return;
    this.state.changed({ ...row, deleted_at: row.deleted_at ?? new Date().toISOString() });
    await this.cloud.follow(this.state.row!);
    await this.sessions.endAll();
    await this.documents.retire(id, scope);
  }

  // ---- RPC from the Worker: jobs --------------------------------------------------------

  importJob(printerId: string, bytes: Uint8Array): Promise<string | null> {
    return this.sessions.importJob(printerId, bytes);
  }

  recoverJob(printerId: string, job: RecoveredJob): Promise<string | null> {
    return this.sessions.recover(printerId, job);
  }

  /** A job that arrived as one request through the bridge (HTTP printers, LPD): stored and answered as the printer would. */
  httpJob(printerId: string, bridgeId: string | null, req: HttpJobRequest): Promise<HttpJobAnswer> {
    return this.sessions.httpJob(printerId, bridgeId, req);
  }

  // ---- RPC from the Worker: documents (services/documents.ts is the Worker's side) ------

  listDocuments(printerId: string, limit: number, beforeId: string | undefined, filter: ListFilter): Promise<DocumentPage> {
    return this.documents.list(printerId, limit, beforeId, filter);
  }

  getDocument(printerId: string, documentId: string): Promise<RpcText | null> {
    return this.documents.json(printerId, documentId);
  }

  /**
   * The first document (status polls excluded) stored after `afterId`, or after now without
   * one; waits up to `timeoutMs` for it. `unknownAfter` when `afterId` is not this printer's.
   */
  async nextDocument(printerId: string, afterId: string | null, timeoutMs: number): Promise<{ unknownAfter: true } | { tooManyWaiters: true } | { unknownAfter: false; json: RpcText | null }> {
    await this.documents.load(printerId);
    if (afterId !== null) {
      const stored = await this.documents.firstAfter(printerId, afterId);
      if (stored === 'unknown') return { unknownAfter: true };
      if (stored !== null) return { unknownAfter: false, json: toRpcText(stored) };
    }
    if (this.feeds.waiters.isFull && timeoutMs > 0) return { tooManyWaiters: true };
    const json = await this.feeds.waiters.next(timeoutMs);
    return { unknownAfter: false, json: json === null ? null : toRpcText(json) };
  }

  getDocumentRaw(printerId: string, documentId: string): Promise<Uint8Array | null> {
    return this.documents.raw(printerId, documentId);
  }

  countDocuments(printerId: string, cutoff: string | null): Promise<{ documents: number; media: number }> {
    return this.documents.count(printerId, cutoff);
  }

  deleteDocuments(printerId: string, cutoff: string | null, max?: number): Promise<DeletionResult> {
    return this.documents.delete(printerId, cutoff, max);
  }

  /** Rewrites this printer's statistics counters in D1 from its documents (repair, and tests that move documents in time). */
  rebuildCounters(printerId: string): Promise<void> {
    return this.documents.rebuildCounters(printerId);
  }

  /** A reader is about to read D1 (services/settle.ts): the counters waiting in the outbox are written now. */
  settle(): Promise<void> {
    return this.documents.settle();
  }

  /** Test support: moves documents in time (retention tests), counters included. */
  backdateDocuments(printerId: string, documentIds: string[], createdAt: string): Promise<void> {
    return this.documents.backdate(printerId, documentIds, createdAt);
  }
}
