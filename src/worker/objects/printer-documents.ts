import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinterStatement } from '../data/printers.ts';
import { findRetentionDays } from '../data/workspaces.ts';
import { replacePrinterCounters } from '../data/document-counters.ts';
import { readSettings } from '../config.ts';
import { documentJson, documentRaw, documentRpcJson, type PreparedDocument } from '../services/document-store.ts';
import { deleteStoredDocuments, type DeletionResult } from '../services/document-deletion.ts';
import type { Reader } from '../services/read-stamps.ts';
import { StoredKeys } from '../services/media-store.ts';
import { RecentPictures } from '../services/media-pack.ts';
import { DocumentTable, type DocumentLocation, type ListFilter } from './document-table.ts';
import { COUNTER_FLUSH_MS, CounterOutbox, type Owner } from './counter-outbox.ts';
import { importDocumentsFromD1 } from './d1-import.ts';
import type { PrinterState } from './printer-state.ts';
import { DeferredMediaPurge, deletePrinterRows, type RetireScope } from './printer-retirement.ts';
import { PendingMark } from './pending-mark.ts';
import { workspaceStub } from '../services/notify.ts';
import type { RpcText } from '../services/rpc-text.ts';

export interface DocumentPage {
  ok: boolean;
  itemsJson: RpcText[];
  hasMore: boolean;
  next: { id: string; createdAt: string } | null;
  statusPollCount: number;
}

/** How often the object looks at its documents' retention when nothing else wakes it. */
export const RETENTION_CHECK_MS = 86400_000;
const DAY_MS = 86400_000;
/** The shortest retention a workspace can set (schemas/workspace.ts). */
const MIN_RETENTION_DAYS = 1;
/**
 * A document list page stops adding documents past this many characters of JSON (at least one
 * document, and hasMore with the cursor of the last one it holds): a call's result is capped
 * at 32 MiB, and a document longer than rpc-text.ts's INLINE_CHARS goes as a stream.
 */
const PAGE_JSON_BYTES = 8 * 1024 * 1024;

/**
 * The printer's documents in the object's own SQLite storage (document-table.ts): imported
 * from D1 once, listed, read, deleted, expired by retention on the object's alarm, and counted
 * for D1's statistics through the counter outbox, which the alarm flushes in one batch per
 * COUNTER_FLUSH_MS at most.
 */
export class PrinterDocuments {
  readonly table: DocumentTable;
  private readonly outbox: CounterOutbox;
  /** Images this object wrote to R2 lately (a logo on every receipt is written once). */
  readonly storedMedia: { storedKeys: StoredKeys; recent: RecentPictures };
  /** The one-time import of the printer's documents from D1 (before migration 0003). */
  private imported: Promise<void> | null = null;
  /** An alarm is set that flushes the outbox (saves asking storage per document). */
  private flushScheduled = false;
  /** An alarm is set (retention); the alarm handler sets the next one while documents remain. */
  private alarmKnown = false;
  /** Readers flush the outbox before reading D1; its workspace's object knows it is pending. */
  private readonly pending = new PendingMark();

  constructor(private readonly ctx: DurableObjectState, private readonly env: Env, private readonly state: PrinterState) {
    this.table = new DocumentTable(ctx.storage.sql);
    this.outbox = new CounterOutbox(ctx.storage.sql);
    this.storedMedia = { storedKeys: new StoredKeys(readSettings(env).mediaKeepRecentMs), recent: new RecentPictures() };
  }

  /** The printer's documents are here (imported from D1 once), and the object knows its printer. */
  async load(printerId: string): Promise<void> {
    const row = await this.state.load(printerId);
    if (!row) throw new Error('printer not found');
    this.imported ??= (async () => {
      this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS owner (printer_id TEXT PRIMARY KEY)');
      this.ctx.storage.sql.exec('INSERT OR IGNORE INTO owner (printer_id) VALUES (?)', row.id);
      await importDocumentsFromD1(this.env, this.ctx.storage.sql, this.table, row.id);
      // Retention needs an alarm even for a printer that never prints again.
      if ((await this.ctx.storage.getAlarm()) === null && this.table.oldestCreatedAt()) {
        await this.ctx.storage.setAlarm(Date.now() + 60_000);
      }
    })().catch((e) => {
      this.imported = null;
      throw e;
    });
    await this.imported;
  }

  /** Newest first; `ok: false` for a `beforeId` that is not a document of this printer. */
  async list(printerId: string, limit: number, beforeId: string | undefined, filter: ListFilter): Promise<DocumentPage> {
    await this.load(printerId);
    const statusPollCount = this.table.statusPollCount();
    const page = this.table.page(limit, beforeId, filter);
    if (!page) return { ok: false, itemsJson: [], hasMore: false, next: null, statusPollCount };
    const itemsJson: RpcText[] = [];
    let bytes = 0;
    for (const r of page.rows) {
      if (itemsJson.length > 0 && bytes >= PAGE_JSON_BYTES) break;
      const { json, chars } = await documentRpcJson(this.env, r, this.rawOf(r.id));
      itemsJson.push(json);
      // A long document (a stream, its length unknown) is the page's last.
      bytes += chars ?? PAGE_JSON_BYTES;
    }
    const hasMore = page.hasMore || itemsJson.length < page.rows.length;
    const last = page.rows[itemsJson.length - 1];
    return { ok: true, itemsJson, hasMore, next: hasMore && last ? { id: last.id, createdAt: last.createdAt } : null, statusPollCount };
  }

  /** One document's RenderedDocumentDto JSON as a call carries it, null when it is not this printer's. */
  async json(printerId: string, documentId: string): Promise<RpcText | null> {
    await this.load(printerId);
    const loc = this.table.get(documentId);
    return loc ? (await documentRpcJson(this.env, loc, this.rawOf(loc.id))).json : null;
  }

  /** The first document (status polls excluded) stored after `afterId`; `unknown` when `afterId` is not this printer's. */
  async firstAfter(printerId: string, afterId: string): Promise<'unknown' | string | null> {
    await this.load(printerId);
    if (!this.table.has(afterId)) return 'unknown';
    const [stored] = this.table.after(afterId, 1, { includeStatusPolls: false });
    return stored ? documentJson(this.env, stored, this.rawOf(stored.id)) : null;
  }

  /** Documents stored after `afterId` that this reader may see, with their JSON (a stream's replay). */
  async replayAfter(afterId: string, limit: number, filter: ListFilter): Promise<{ id: string; json: string }[]> {
    await this.load(this.state.row!.id);
    return Promise.all(this.table.after(afterId, limit, filter).map(async (d: DocumentLocation) => ({ id: d.id, json: await documentJson(this.env, d, this.rawOf(d.id)) })));
  }

  /** A document's raw bytes when a reader of its body asks for them (compact bodies refer to them). */
  private rawOf(documentId: string): () => Promise<Uint8Array | null> {
    return async () => {
      const loc = this.table.raw(documentId);
      return loc ? documentRaw(this.env, loc) : null;
    };
  }

  /** Exactly the bytes a document was rendered from; null when it is not this printer's. */
  async raw(printerId: string, documentId: string): Promise<Uint8Array | null> {
    await this.load(printerId);
    const loc = this.table.raw(documentId);
    return loc ? documentRaw(this.env, loc) : null;
  }

  /** Documents created before `cutoff` (every one with null), and the media rows they use. */
  async count(printerId: string, cutoff: string | null): Promise<{ documents: number; media: number }> {
    await this.load(printerId);
    return this.table.countOlderThan(cutoff);
  }

  /** Deletes documents created before `cutoff` (all with null), oldest first, at most `max`. */
  async delete(printerId: string, cutoff: string | null, max?: number): Promise<DeletionResult> {
    await this.load(printerId);
    const result = await deleteStoredDocuments(this.env, this.table, this.outbox, cutoff, max);
    await this.flushOutbox();
    return result;
  }

  /** Deletes a document that a complete copy replaces; its counters leave with the next flush. */
  async discard(documentId: string): Promise<void> {
    await deleteStoredDocuments(this.env, this.table, this.outbox, null, undefined, [documentId]);
  }

  /** The document already stored for this print job (a recovered job's earlier copy). */
  findByJob(sessionId: string) {
    return this.table.findByJob(sessionId);
  }

  /** Rewrites this printer's statistics counters in D1 from its documents. */
  async rebuildCounters(printerId: string): Promise<void> {
    await this.load(printerId);
    await this.flushOutbox();
    await replacePrinterCounters(this.env.DB, this.owner(), this.table.countsByHour());
  }

  /** Moves documents in time (retention tests), counters included. */
  async backdate(printerId: string, documentIds: string[], createdAt: string): Promise<void> {
    await this.load(printerId);
    this.table.setCreatedAt(documentIds, createdAt);
    await this.rebuildCounters(printerId);
  }

  /** A reader is about to read D1 (services/settle.ts): what the outbox holds is written now. */
  async settle(): Promise<void> {
    this.pending.settling();
    if (!(this.state.row ?? (await this.ownerRow()))) return;
    await this.flushOutbox();
  }

  /** Before a document is stored (its counters pending): the workspace's object knows this printer has writes to settle. */
  async markPending(row: PrinterRow): Promise<void> {
    await this.pending.ensureMarked(() => workspaceStub(this.env, row.workspace_id).printerDirty(row.workspace_id, row.id));
  }

  /** Stores a rendered document and counts it. Nothing leaves the object before this write is durable (the output gate). */
  insert(prepared: PreparedDocument): void {
    this.table.insert(prepared.row);
    this.outbox.count(prepared.createdAt, 1);
    if (prepared.media.length) this.outbox.media(prepared.media);
  }

  /**
   * After a stored document was announced to `readers`: their read stamps, the retention alarm
   * and the counters. `writeNow` writes the counters to D1 at once and returns the printer
   * re-read in the same batch (imports and recovered jobs: statistics read their own writes);
   * otherwise the alarm flushes them within COUNTER_FLUSH_MS and null is returned.
   */
  async counted(readers: Reader[], createdAt: string, writeNow: boolean): Promise<PrinterRow | null> {
    this.outbox.read(this.owner(), readers, createdAt);
    if (!this.alarmKnown) await this.ensureAlarm(Date.now() + RETENTION_CHECK_MS);
    if (writeNow) return this.outbox.flush<PrinterRow>(this.env.DB, this.owner(), findPrinterStatement(this.env.DB, this.state.row!.id));
    await this.scheduleFlush();
    return null;
  }

  /**
   * The printer was deleted: its documents, media, counters, connection attempts and NV images
   * go; images uploaded lately are left to the alarm (DeferredMediaPurge). Nothing is left to flush.
   */
  async retire(printerId: string, scope: RetireScope): Promise<void> {
    await this.load(printerId);
    const purge = new DeferredMediaPurge(this.ctx.storage.sql);
    // A whole workspace takes everyone who could share its keyed images: they go at once.
    const disposal = { purge: scope === 'workspace', keptRecent: (keys: string[]) => purge.add(keys) };
    await deleteStoredDocuments(this.env, this.table, this.outbox, null, undefined, undefined, disposal);
    this.outbox.clear();
    const nvKeys = await deletePrinterRows(this.env, printerId);
    if (scope === 'workspace') { if (nvKeys.length) await this.env.MEDIA.delete(nvKeys); } else purge.add(nvKeys);
    await this.ctx.storage.deleteAlarm();
    this.flushScheduled = false;
    const next = await purge.run(this.env);
    if (next !== null) await this.ctx.storage.setAlarm(next);
    this.alarmKnown = true; // retention has nothing left to do here
  }

  /** The alarm: flush the counter outbox, apply retention when due, and set the next alarm. */
  async alarm(): Promise<void> {
    // A deleted printer's alarm only deletes the images it left (printer-retirement.ts).
    const purge = new DeferredMediaPurge(this.ctx.storage.sql);
    if (!purge.isEmpty) {
      const next = await purge.run(this.env);
      if (next !== null) await this.ctx.storage.setAlarm(next);
      return;
    }
    this.flushScheduled = false;
    this.alarmKnown = false;
    const row = this.state.row ?? (await this.ownerRow());
    if (!row) return;
    await this.load(row.id);
    await this.flushOutbox();
    // Most alarms only flush counters: no document is old enough to expire under any retention
    // (at least a day), so the workspace's setting is not read (the printing path's D1 budget).
    const oldestNow = this.table.oldestCreatedAt();
    const mayExpire = oldestNow !== null && Date.now() - Date.parse(oldestNow) >= MIN_RETENTION_DAYS * DAY_MS;
    const days = mayExpire ? await findRetentionDays(this.env.DB, row.workspace_id) : oldestNow !== null ? MIN_RETENTION_DAYS : null;
    if (days !== null && mayExpire) {
      const cutoff = new Date(Date.now() - days * DAY_MS).toISOString();
      const result = await deleteStoredDocuments(this.env, this.table, this.outbox, cutoff);
      if (result.deletedDocuments) await this.flushOutbox();
    }
    const oldest = this.table.oldestCreatedAt();
    if (oldest && days !== null) {
      const due = Math.min(Date.parse(oldest) + days * DAY_MS, Date.now() + RETENTION_CHECK_MS);
      await this.ensureAlarm(Math.max(due, Date.now() + 60_000));
    }
  }

  private owner(): Owner {
    return { printerId: this.state.row!.id, workspaceId: this.state.row!.workspace_id };
  }

  /** Writes the outbox to D1 now (imports, deletions, the alarm). */
  private async flushOutbox(): Promise<void> {
    if (!this.state.row || this.outbox.isEmpty) return;
    await this.outbox.flush(this.env.DB, this.owner());
  }

  /** Makes sure an alarm flushes the outbox within COUNTER_FLUSH_MS. */
  private async scheduleFlush(): Promise<void> {
    if (this.flushScheduled) return;
    await this.ensureAlarm(Date.now() + COUNTER_FLUSH_MS);
    this.flushScheduled = true;
  }

  /** The alarm rings by `at` at the latest. */
  /** The object's one alarm rings by `at` (earlier wishes, such as a cloud poll's, stand). */
  async ensureAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
    this.alarmKnown = true;
  }

  /** The printer this object serves, for an alarm that finds the object freshly started. */
  private async ownerRow(): Promise<PrinterRow | null> {
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS owner (printer_id TEXT PRIMARY KEY)');
    const id = this.ctx.storage.sql.exec('SELECT printer_id FROM owner').toArray()[0]?.printer_id as string | undefined;
    return id ? this.state.load(id) : null;
  }
}
