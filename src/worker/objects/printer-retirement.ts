import type { Env } from '../env.ts';
import { readSettings } from '../config.ts';
import { recentlyUploaded, unreferencedKeys } from '../services/document-deletion.ts';

/**
 * What deleting a printer (alone, or with its workspace) removes besides its documents, and
 * what its Durable Object keeps doing afterwards: extensions.md "Boundaries", docs/decisions.md
 * "Deleting leaves nothing behind".
 */
export type RetireScope = 'printer' | 'workspace';

/**
 * The printer's D1 rows other than its documents' media rows: statistics counters, connection
 * attempts, NV images with their media rows, legacy document rows. Returns the R2 keys of its
 * NV images that no row uses any more (for the caller to delete, now or once not recent).
 */
export async function deletePrinterRows(env: Env, printerId: string): Promise<string[]> {
  const [{ results: nv }] = await env.DB.batch<{ storage_key: string }>([
    env.DB.prepare('SELECT DISTINCT storage_key FROM media WHERE printer_id = ?').bind(printerId),
    env.DB.prepare('DELETE FROM nv_images WHERE printer_id = ?').bind(printerId),
    env.DB.prepare('DELETE FROM media WHERE printer_id = ?').bind(printerId),
    env.DB.prepare('DELETE FROM documents WHERE printer_id = ?').bind(printerId),
    env.DB.prepare('DELETE FROM document_counters WHERE printer_id = ?').bind(printerId),
    env.DB.prepare('DELETE FROM tcp_connections WHERE printer_id = ?').bind(printerId),
  ]);
  return unreferencedKeys(env.DB, nv.map((r) => r.storage_key));
}

/**
 * R2 images a deleted printer could not delete at once: uploaded lately, so another printer of
 * its workspace may have just used them with its media row still in that printer's outbox. The
 * retired printer's alarm deletes each once no row uses it and it is no longer recent: within
 * MEDIA_KEEP_RECENT_MS plus a minute. Meanwhile routes/media.ts answers 404 for them.
 */
export class DeferredMediaPurge {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS media_purge (storage_key TEXT PRIMARY KEY)');
  }

  add(keys: readonly string[]): void {
    for (const k of keys) this.sql.exec('INSERT OR IGNORE INTO media_purge (storage_key) VALUES (?)', k);
  }

  get isEmpty(): boolean {
    return this.sql.exec('SELECT 1 FROM media_purge LIMIT 1').toArray().length === 0;
  }

  /** Deletes what can go now; returns when to look again (null: nothing left). */
  async run(env: Env): Promise<number | null> {
    const keys = this.sql.exec('SELECT storage_key FROM media_purge').toArray().map((r) => r.storage_key as string);
    if (keys.length === 0) return null;
    const keepMs = readSettings(env).mediaKeepRecentMs;
    const unused = new Set(await unreferencedKeys(env.DB, keys));
    const recent = await recentlyUploaded(env.MEDIA, [...unused], keepMs);
    const gone = [...unused].filter((k) => !recent.has(k));
    if (gone.length) await env.MEDIA.delete(gone);
    // Used again by a live printer: no longer this printer's to delete.
    for (const k of keys) if (!recent.has(k)) this.sql.exec('DELETE FROM media_purge WHERE storage_key = ?', k);
    return recent.size ? Date.now() + Math.min(keepMs, 60_000) : null;
  }
}
