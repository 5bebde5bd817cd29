/**
 * What a printer's documents change in D1, collected in the printer's Durable Object and
 * written in one D1 batch per flush instead of per document: the per-hour document counters
 * (statistics and retention candidates, table `document_counters`), the printer's
 * `last_document_received_at`, and the read stamps of stream subscribers who received
 * documents, and the media index rows of the documents' images (their bytes are already in R2
 * under a content-derived key, so their URLs work without the row). The outbox is in the object's SQLite storage, so a flush lost with the object is
 * done by the next one.
 */
import type { Reader } from '../services/read-stamps.ts';
import { insertMediaRowsStatement, MEDIA_ROWS_PER_STATEMENT, type MediaIndexRow } from '../services/media-store.ts';

/**
 * How long a change may wait for others before its flush: the printing path's D1 budget. With
 * 10,000 printers all printing, at most 10,000 / 30 s = 333 batches/s reach D1 (docs/capacity.md).
 */
export const COUNTER_FLUSH_MS = 30_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS counter_outbox (hour TEXT PRIMARY KEY, delta INTEGER NOT NULL, last_at TEXT);
CREATE TABLE IF NOT EXISTS stamp_outbox (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS media_outbox (id TEXT PRIMARY KEY, document_id TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL, storage_key TEXT NOT NULL, created_at TEXT NOT NULL);
`;

type StampName = 'last_document_received_at' | 'last_api_read_at' | 'last_web_read_at';

export interface Owner {
  printerId: string;
  workspaceId: string;
}

/** The UTC hour bucket of an ISO timestamp: `2026-11-24T13`. */
export const hourOf = (iso: string): string => iso.slice(0, 13);

export class CounterOutbox {
  /** Flushes run one at a time: two at once would both write the same pending rows. */
  private flushing: Promise<unknown> = Promise.resolve();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  /** A document was stored (+1) or deleted (-1) that was created at `createdAt`. */
  count(createdAt: string, delta: number): void {
    this.sql.exec(
      `INSERT INTO counter_outbox (hour, delta, last_at) VALUES (?1, ?2, CASE WHEN ?2 > 0 THEN ?3 END)
       ON CONFLICT (hour) DO UPDATE SET delta = delta + ?2, last_at = CASE WHEN ?2 > 0 THEN MAX(COALESCE(last_at, ''), ?3) ELSE last_at END`,
      hourOf(createdAt), delta, createdAt,
    );
    // The printer's `last_document_received_at` is the counters' latest `last_at` at the flush:
    // no stamp row written per document (one statement less on the printing path).
  }

  /** Readers who received documents (read stamps; only the owning workspace's count). */
  read(owner: Owner, readers: readonly Reader[], at: string): void {
    for (const r of readers) {
      if (r.workspaceId === owner.workspaceId) this.stamp(r.client === 'web' ? 'last_web_read_at' : 'last_api_read_at', at);
    }
  }

  /** Media index rows of a stored document's images, for D1 with the next flush. */
  media(rows: readonly Omit<MediaIndexRow, 'workspaceId' | 'printerId'>[]): void {
    for (const m of rows) {
      this.sql.exec(
        'INSERT OR IGNORE INTO media_outbox (id, document_id, size, sha256, storage_key, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        m.id, m.documentId, m.stored.size, m.stored.sha256, m.stored.storageKey, m.createdAt,
      );
    }
  }

  /**
   * Documents being deleted before their media rows reached D1: their pending rows are dropped
   * and their storage keys returned (candidates for deletion from R2).
   */
  dropMedia(documentIds: readonly string[]): string[] {
    const keys = new Set<string>();
    for (const id of documentIds) {
      for (const r of this.sql.exec('DELETE FROM media_outbox WHERE document_id = ? RETURNING storage_key', id)) keys.add(r.storage_key as string);
    }
    return [...keys];
  }

  /** Storage keys that pending media rows still use (not to be deleted from R2). */
  pendingMediaKeys(): Set<string> {
    return new Set(this.sql.exec('SELECT DISTINCT storage_key FROM media_outbox').toArray().map((r) => r.storage_key as string));
  }

  /** Forgets everything pending: the printer was deleted, and nothing of it may reach D1 later. */
  clear(): void {
    this.sql.exec('DELETE FROM counter_outbox; DELETE FROM stamp_outbox; DELETE FROM media_outbox');
  }

  get isEmpty(): boolean {
    return (this.sql.exec('SELECT (SELECT COUNT(*) FROM counter_outbox) + (SELECT COUNT(*) FROM stamp_outbox) + (SELECT COUNT(*) FROM media_outbox) AS n').one().n as number) === 0;
  }

  /**
   * Writes everything pending in one D1 batch, then forgets it. With `andThen`, that statement
   * runs last in the same batch and its first row is returned (e.g. the printer as it is now).
   */
  flush<T>(db: D1Database, owner: Owner, andThen?: D1PreparedStatement): Promise<T | null> {
    const run = this.flushing.then(() => this.flushNow<T>(db, owner, andThen));
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async flushNow<T>(db: D1Database, owner: Owner, andThen?: D1PreparedStatement): Promise<T | null> {
    const counters = this.sql.exec('SELECT hour, delta, last_at FROM counter_outbox').toArray();
    const stamps = new Map(this.sql.exec('SELECT name, value FROM stamp_outbox').toArray().map((r) => [r.name as StampName, r.value as string]));
    // Documents counted since the last flush: the latest is the printer's last document (a
    // stamp row of it is only there from objects of before).
    for (const c of counters) {
      const at = c.last_at as string | null;
      if (at && at > (stamps.get('last_document_received_at') ?? '')) stamps.set('last_document_received_at', at);
    }
    const media: MediaIndexRow[] = this.sql.exec('SELECT id, document_id, size, sha256, storage_key, created_at FROM media_outbox').toArray().map((r) => ({
      id: r.id as string, workspaceId: owner.workspaceId, printerId: owner.printerId, documentId: r.document_id as string,
      stored: { size: r.size as number, sha256: r.sha256 as string, storageKey: r.storage_key as string }, createdAt: r.created_at as string,
    }));
    if (counters.length === 0 && stamps.size === 0 && media.length === 0 && !andThen) return null;
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < media.length; i += MEDIA_ROWS_PER_STATEMENT) statements.push(insertMediaRowsStatement(db, media.slice(i, i + MEDIA_ROWS_PER_STATEMENT)));
    const changed = counters.filter((c) => c.delta !== 0);
    // D1 binds at most 100 parameters per statement: 20 hours of 5 per statement.
    for (let i = 0; i < changed.length; i += 20) {
      const rows = changed.slice(i, i + 20);
      statements.push(
        db.prepare(
          `INSERT INTO document_counters (printer_id, workspace_id, hour, documents, last_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}
           ON CONFLICT (printer_id, hour) DO UPDATE SET documents = documents + excluded.documents,
             last_at = MAX(COALESCE(last_at, ''), COALESCE(excluded.last_at, ''))`,
        ).bind(...rows.flatMap((c) => [owner.printerId, owner.workspaceId, c.hour, c.delta, c.last_at])),
      );
    }
    if (changed.length) {
      if (changed.some((c) => (c.delta as number) < 0)) {
        statements.push(db.prepare('DELETE FROM document_counters WHERE printer_id = ? AND documents <= 0').bind(owner.printerId));
      }
    }
    // `last_document_received_at` is set by the counters' upsert (migration 0004's triggers);
    // only read stamps need statements of their own.
    const v = (n: StampName) => stamps.get(n) ?? null;
    const reads = stamps.has('last_api_read_at') || stamps.has('last_web_read_at');
    const receivedOnly = stamps.has('last_document_received_at') && changed.some((c) => c.last_at === v('last_document_received_at'));
    if (stamps.size && (reads || !receivedOnly)) {
      statements.push(
        db.prepare(
          `UPDATE printers SET last_document_received_at = MAX(COALESCE(last_document_received_at, ''), COALESCE(?1, '')),
             last_api_read_at = COALESCE(?2, last_api_read_at), last_web_read_at = COALESCE(?3, last_web_read_at) WHERE id = ?4`,
        ).bind(v('last_document_received_at'), v('last_api_read_at'), v('last_web_read_at'), owner.printerId),
      );
      if (reads) {
        statements.push(
          db.prepare('UPDATE workspaces SET last_api_read_at = COALESCE(?, last_api_read_at), last_web_read_at = COALESCE(?, last_web_read_at) WHERE id = ?')
            .bind(v('last_api_read_at'), v('last_web_read_at'), owner.workspaceId),
        );
      }
    }
    if (andThen) statements.push(andThen);
    const results = await db.batch<T>(statements);
    // Only what was written is forgotten: changes made while the batch ran stay for the next flush.
    for (const c of counters) {
      this.sql.exec('UPDATE counter_outbox SET delta = delta - ? WHERE hour = ?', c.delta, c.hour);
    }
    this.sql.exec('DELETE FROM counter_outbox WHERE delta = 0');
    for (const m of media) this.sql.exec('DELETE FROM media_outbox WHERE id = ?', m.id);
    for (const [name, value] of stamps) this.sql.exec('DELETE FROM stamp_outbox WHERE name = ? AND value = ?', name, value);
    return andThen ? (results.at(-1)?.results[0] ?? null) : null;
  }

  private stamp(name: StampName, at: string): void {
    this.sql.exec(
      'INSERT INTO stamp_outbox (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = MAX(value, ?2)',
      name, at,
    );
  }
}
