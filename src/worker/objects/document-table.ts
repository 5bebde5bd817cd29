/**
 * A printer's documents in its own Durable Object (SQLite storage API). One object per
 * printer means one writer per printer and no shared database on the printing path: an insert
 * is a local write that commits with the object's output gate, so a document is durable before
 * anything it caused (the stream event, `finalised` to the bridge) leaves the object.
 *
 * Bodies (RenderedDocumentDto JSON) are stored gzip-compressed; compressed bodies above
 * `INLINE_BODY_LIMIT` and raw jobs above `INLINE_RAW_LIMIT` go to R2 (SQLite values are capped
 * at 2 MB, and large values slow every page read). The object also keeps an outbox of counter
 * deltas that its alarm flushes to D1 in one batch (statistics; see counter-outbox.ts).
 */

export const INLINE_BODY_LIMIT = 64 * 1024;
export const INLINE_RAW_LIMIT = 64 * 1024;

export interface StoredDocumentRow {
  id: string;
  printJobId: string;
  createdAt: string;
  isStatusPoll: boolean;
  bytesReceived: number;
  mediaCount: number;
  /** gzip of the RenderedDocumentDto JSON, or null when it is in R2 at bodyKey. */
  body: Uint8Array | null;
  bodyKey: string | null;
  raw: Uint8Array | null;
  rawKey: string | null;
  engineVersion: string;
  /** The printed text (renderText), lower-cased: what `Contains=` searches without re-rendering. */
  searchText: string;
}

/** Where a document's body and raw bytes are (what a reader or a deletion needs). */
export interface DocumentLocation {
  id: string;
  createdAt: string;
  isStatusPoll: boolean;
  body: Uint8Array | null;
  bodyKey: string | null;
}

export interface ListFilter {
  includeStatusPolls: boolean;
  /** Only documents whose printed text contains this (case-insensitive). */
  contains?: string;
}

/** The SQL condition and its arguments for a filter (appended after a WHERE clause). */
function filterSql(filter: ListFilter): { sql: string; args: SqlStorageValue[] } {
  // A text search never finds a status poll (it printed no text).
  let sql = filter.includeStatusPolls && !filter.contains ? '' : ' AND is_status_poll = 0';
  const args: SqlStorageValue[] = [];
  if (filter.contains) {
    // instr on lower-cased text: a plain substring test, no LIKE wildcards to escape.
    sql += ' AND instr(search_text, ?) > 0';
    args.push(filter.contains.toLowerCase());
  }
  return { sql, args };
}

type Row = Record<string, SqlStorageValue>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  print_job_id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  is_status_poll INTEGER NOT NULL DEFAULT 0,
  bytes_received INTEGER NOT NULL,
  media_count INTEGER NOT NULL DEFAULT 0,
  body BLOB,
  body_key TEXT,
  raw BLOB,
  raw_key TEXT,
  engine_version TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_by_time ON documents (created_at);
`;

/** Columns added after the table first shipped (objects created earlier lack them). */
const ADDED_COLUMNS: Record<string, string> = { search_text: "TEXT NOT NULL DEFAULT ''" };

export class DocumentTable {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
    const present = new Set(sql.exec('PRAGMA table_info(documents)').toArray().map((r) => r.name as string));
    for (const [name, type] of Object.entries(ADDED_COLUMNS)) {
      if (!present.has(name)) sql.exec(`ALTER TABLE documents ADD COLUMN ${name} ${type}`);
    }
  }

  insert(d: StoredDocumentRow): void {
    this.sql.exec(
      `INSERT INTO documents (id, print_job_id, created_at, is_status_poll, bytes_received, media_count, body, body_key, raw, raw_key, engine_version, search_text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      d.id, d.printJobId, d.createdAt, d.isStatusPoll ? 1 : 0, d.bytesReceived, d.mediaCount,
      d.body, d.bodyKey, d.raw, d.rawKey, d.engineVersion, d.searchText,
    );
  }

  /** Newest first, keyset paging on the insertion sequence; null for a cursor not of this printer. */
  page(limit: number, beforeId: string | undefined, filter: ListFilter): { rows: DocumentLocation[]; hasMore: boolean } | null {
    let cursor = Number.MAX_SAFE_INTEGER;
    if (beforeId) {
      const c = this.seqOf(beforeId);
      if (c === null) return null;
      cursor = c;
    }
    const where = filterSql(filter);
    const rows = this.sql
      .exec(`SELECT id, created_at, is_status_poll, body, body_key FROM documents WHERE seq < ?${where.sql} ORDER BY seq DESC LIMIT ?`, cursor, ...where.args, limit + 1)
      .toArray()
      .map(location);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  /** Documents stored after `afterId`, oldest first (Last-Event-ID replay); [] for an unknown id. */
  after(afterId: string, max: number, filter: ListFilter): DocumentLocation[] {
    const c = this.seqOf(afterId);
    if (c === null) return [];
    const where = filterSql(filter);
    return this.sql
      .exec(`SELECT id, created_at, is_status_poll, body, body_key FROM documents WHERE seq > ?${where.sql} ORDER BY seq LIMIT ?`, c, ...where.args, max)
      .toArray()
      .map(location);
  }

  /** Whether the printer has this document (an `after` cursor must be one of its own). */
  has(id: string): boolean {
    return this.seqOf(id) !== null;
  }

  get(id: string): DocumentLocation | null {
    const row = this.sql.exec('SELECT id, created_at, is_status_poll, body, body_key FROM documents WHERE id = ?', id.toLowerCase()).toArray()[0];
    return row ? location(row) : null;
  }

  raw(id: string): { raw: Uint8Array | null; rawKey: string | null } | null {
    const row = this.sql.exec('SELECT raw, raw_key FROM documents WHERE id = ?', id.toLowerCase()).toArray()[0];
    return row ? { raw: blob(row.raw), rawKey: row.raw_key as string | null } : null;
  }

  findByJob(printJobId: string): { id: string; bytesReceived: number } | null {
    const row = this.sql.exec('SELECT id, bytes_received FROM documents WHERE print_job_id = ?', printJobId).toArray()[0];
    return row ? { id: row.id as string, bytesReceived: row.bytes_received as number } : null;
  }

  statusPollCount(): number {
    return this.sql.exec('SELECT COUNT(*) AS n FROM documents WHERE is_status_poll = 1').one().n as number;
  }

  /** Documents created before `cutoff` (all with null), and the media rows they use. */
  countOlderThan(cutoff: string | null): { documents: number; media: number } {
    const row = this.sql
      .exec('SELECT COUNT(*) AS n, COALESCE(SUM(media_count), 0) AS m FROM documents WHERE created_at < ?', cutoff ?? '\uffff')
      .one();
    return { documents: row.n as number, media: row.m as number };
  }

  /** Oldest first, at most `limit`, created before `cutoff` (any with null): what a deletion removes next. */
  oldest(cutoff: string | null, limit: number): DeletionRow[] {
    return this.sql
      .exec('SELECT id, created_at, body_key, raw_key, media_count FROM documents WHERE created_at < ? ORDER BY seq LIMIT ?', cutoff ?? '\uffff', limit)
      .toArray()
      .map(deletionRow);
  }

  /** The given documents, for deletion. */
  withIds(ids: readonly string[]): DeletionRow[] {
    return ids.flatMap((id) => this.sql.exec('SELECT id, created_at, body_key, raw_key, media_count FROM documents WHERE id = ?', id.toLowerCase()).toArray().map(deletionRow));
  }

  delete(ids: readonly string[]): void {
    for (const id of ids) this.sql.exec('DELETE FROM documents WHERE id = ?', id);
  }

  oldestCreatedAt(): string | null {
    return (this.sql.exec('SELECT MIN(created_at) AS t FROM documents').one().t as string | null) ?? null;
  }

  /** Documents per UTC hour (for rebuilding the statistics counters). */
  countsByHour(): { hour: string; documents: number; lastAt: string }[] {
    return this.sql
      .exec(`SELECT substr(created_at, 1, 13) AS hour, COUNT(*) AS n, MAX(created_at) AS last FROM documents GROUP BY hour`)
      .toArray()
      .map((r) => ({ hour: r.hour as string, documents: r.n as number, lastAt: r.last as string }));
  }

  /** Test and maintenance: moves documents' creation time (retention tests age documents). */
  setCreatedAt(ids: readonly string[], at: string): void {
    for (const id of ids) this.sql.exec('UPDATE documents SET created_at = ? WHERE id = ?', at, id.toLowerCase());
  }

  private seqOf(id: string): number | null {
    const row = this.sql.exec('SELECT seq FROM documents WHERE id = ?', id.toLowerCase()).toArray()[0];
    return row ? (row.seq as number) : null;
  }
}

export interface DeletionRow {
  id: string;
  createdAt: string;
  bodyKey: string | null;
  rawKey: string | null;
  mediaCount: number;
}

function deletionRow(r: Row): DeletionRow {
  return { id: r.id as string, createdAt: r.created_at as string, bodyKey: r.body_key as string | null, rawKey: r.raw_key as string | null, mediaCount: r.media_count as number };
}

function location(r: Row): DocumentLocation {
  return { id: r.id as string, createdAt: r.created_at as string, isStatusPoll: r.is_status_poll === 1, body: blob(r.body), bodyKey: r.body_key as string | null };
}

function blob(v: SqlStorageValue): Uint8Array | null {
  return v === null ? null : new Uint8Array(v as ArrayBuffer);
}
