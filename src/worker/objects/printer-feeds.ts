import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { hasEnabledWebhook } from '../data/webhooks.ts';
import { SseHub } from '../services/sse.ts';
import { statusUpdate, workspaceStub, type PrinterChange } from '../services/notify.ts';
import { sidebarDto } from '../services/dto.ts';
import { recordRead, type Reader } from '../services/read-stamps.ts';
import { documentReadyMessage } from '../services/webhooks.ts';
import type { PreparedDocument } from '../services/document-store.ts';
import type { ListFilter } from './document-table.ts';
import { DocumentWaiters } from './document-waiters.ts';
import type { PrinterDocuments } from './printer-documents.ts';
import type { PrinterState } from './printer-state.ts';

/** A canvas stream subscriber: whose read it is, and whether it wants status polls. */
type CanvasReader = Reader & ListFilter;

const SIDEBAR_INTERVAL_MS = 1_000;

/**
 * Everyone who hears of the printer as it changes: the runtime stream (status), the canvas
 * stream (documents, with replay after Last-Event-ID), callers of `documents/next` waiting for
 * the next document, the workspace's webhook (one queue message per document) and the
 * workspace's sidebar (at most once a second).
 */
export class PrinterFeeds {
  private readonly runtimeHub = new SseHub();
  private readonly canvasHub = new SseHub<CanvasReader>();
  /** Callers of `documents/next` waiting for this printer's next document. */
  readonly waiters = new DocumentWaiters();
  /** Whether the workspace has an enabled webhook: read from D1 once, reset by `webhookChanged`. */
  private webhookEnabled: Promise<boolean> | null = null;
  private sidebarSentAt = 0;
  private sidebarTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly state: PrinterState,
    private readonly documents: PrinterDocuments,
  ) {}

  /** Open canvas streams (a client that left is dropped at the next write). */
  get canvasSubscriberCount(): number {
    return this.canvasHub.size;
  }

  openRuntimeStream(): Response {
    return this.runtimeHub.open(undefined).response;
  }

  /** The runtime stream hears of a change the Worker made (buffer figures with runtime changes). */
  printerChanged(row: PrinterRow, change: PrinterChange): void {
    this.runtimeHub.broadcast('status', statusUpdate(this.env, row, change, change.runtime ? this.state.buffer : undefined));
  }

  /** New buffer figures from the bridge. */
  bufferChanged(): void {
    if (this.state.row) this.runtimeHub.broadcast('status', statusUpdate(this.env, this.state.row, { runtime: true }, this.state.buffer));
  }

  webhookChanged(): void {
    this.webhookEnabled = null;
  }

  /** Whether a stored document's DTO JSON will be sent at once (canvas stream subscribers, waiters). */
  documentAwaited(): boolean {
    return this.canvasHub.size > 0 || this.waiters.size > 0;
  }

  /**
   * A document was stored: the canvas stream (status polls not to those who left them out), and for a
   * real document the waiters and the webhook. Returns the readers who got it (read stamps).
   */
  documentStored(d: PreparedDocument): Reader[] {
    const readers = this.canvasHub.broadcastRaw('documentCanvasReady', d.jsonUtf8, d.id, d.isStatusPoll ? (r) => r.includeStatusPolls : undefined);
    if (!d.isStatusPoll) {
      this.waiters.documentStored(d.json);
      this.ctx.waitUntil(this.enqueueWebhook(d).catch((e) => console.error('webhook enqueue failed', e)));
    }
    return readers;
  }

  /** The printer section changed (a new document): runtime stream, and the sidebar (at most once a second). */
  publishPrinter(row: PrinterRow): void {
    this.state.row = row;
    if (this.runtimeHub.size) this.runtimeHub.broadcast('status', statusUpdate(this.env, row, { printer: true }));
    const wait = this.sidebarSentAt + SIDEBAR_INTERVAL_MS - Date.now();
    if (wait <= 0) this.sendSidebar();
    else this.sidebarTimer ??= setTimeout(() => this.sendSidebar(), wait);
  }

  async openCanvasStream(request: Request, url: URL): Promise<Response> {
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
        const missed = await this.documents.replayAfter(lastEventId, 100, reader);
        channel.replay(missed.map((d) => ({ event: 'documentCanvasReady', ...d })));
        if (missed.length) await recordRead(this.env, this.state.row!, reader);
      } catch (e) {
        this.canvasHub.drop(channel); // its response is never returned
        throw e;
      }
    }
    return channel.response;
  }

  /** One queue message per document when the workspace has a webhook (services/webhooks.ts delivers it). */
  private async enqueueWebhook(d: PreparedDocument): Promise<void> {
    const { id: printerId, workspace_id: workspaceId } = this.state.row!;
    this.webhookEnabled ??= hasEnabledWebhook(this.env.DB, workspaceId).catch((e) => {
      this.webhookEnabled = null;
      throw e;
    });
    if (!(await this.webhookEnabled)) return;
    await this.env.WEBHOOKS.send(documentReadyMessage({
      workspaceId, printerId, documentId: d.id, timestamp: d.createdAt, bytesReceived: d.row.bytesReceived, text: d.text,
    }));
  }

  /** The sidebar hears the printer as it is now (nothing once it is deleted). */
  private sendSidebar(): void {
    if (this.sidebarTimer) clearTimeout(this.sidebarTimer);
    this.sidebarTimer = null;
    const row = this.state.row;
    if (!row || row.deleted_at) return;
    this.sidebarSentAt = Date.now();
    this.ctx.waitUntil(workspaceStub(this.env, row.workspace_id).publishSidebar(sidebarDto(row)).catch((e) => console.error('sidebar publish failed', e)));
  }
}
