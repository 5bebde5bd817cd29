import type { Env } from '../env.ts';
import type { DocumentTable } from '../objects/document-table.ts';
import type { CounterOutbox } from '../objects/counter-outbox.ts';
import { readSettings } from '../config.ts';

/**
 * Deleting a printer's documents (inside its Durable Object): their rows there, their media
 * rows in D1 (the media index), and the R2 objects no longer referenced (large bodies, raw bytes,
 * and content-addressed PNGs no remaining media row points at). The counter outbox hears of each
 * deleted document, so the statistics follow. Runs in chunks.
 */
export interface DeletionResult {
  deletedDocuments: number;
  deletedMedia: number;
}

const CHUNK = 50;

/**
 * How unreferenced images are treated: normally one uploaded lately is kept (another printer of
 * the workspace may have just used it); `purge` (the whole workspace goes, and with it everyone
 * who could use its keyed images) deletes them too; `keptRecent` hears of those kept.
 */
export interface MediaDisposal { purge?: boolean; keptRecent?: (keys: string[]) => void }

export async function deleteStoredDocuments(
  env: Env, table: DocumentTable, outbox: CounterOutbox, cutoff: string | null, limit?: number, onlyIds?: readonly string[],
  disposal: MediaDisposal = {},
): Promise<DeletionResult> {
  let deletedDocuments = 0, deletedMedia = 0;
  for (;;) {
    const take = limit === undefined ? CHUNK : Math.min(CHUNK, limit - deletedDocuments);
    if (take <= 0) break;
    const rows = onlyIds ? table.withIds(onlyIds) : table.oldest(cutoff, take);
    if (rows.length === 0) break;
    const ids = rows.map((r) => r.id);
    let mediaKeys: string[] = [];
    if (rows.some((r) => r.mediaCount > 0)) {
      // Rows still in the outbox never reach D1; the ones already flushed are deleted there.
      mediaKeys = outbox.dropMedia(ids);
      const marks = ids.map(() => '?').join(',');
      const [{ results }, deleted] = await env.DB.batch<{ storage_key: string }>([
        env.DB.prepare(`SELECT DISTINCT storage_key FROM media WHERE document_id IN (${marks})`).bind(...ids),
        env.DB.prepare(`DELETE FROM media WHERE document_id IN (${marks})`).bind(...ids),
      ]);
      mediaKeys = [...new Set([...mediaKeys, ...results.map((m) => m.storage_key)])];
      deletedMedia += deleted.meta.changes ?? 0;
    }
    table.delete(ids);
    for (const r of rows) outbox.count(r.createdAt, -1);
    const r2Keys = rows.flatMap((r) => [r.bodyKey, r.rawKey].filter((k): k is string => k !== null));
    const pending = outbox.pendingMediaKeys();
    const unreferenced = await unreferencedKeys(env.DB, mediaKeys.filter((k) => !pending.has(k)));
    const recent = disposal.purge ? new Set<string>() : await recentlyUploaded(env.MEDIA, unreferenced, readSettings(env).mediaKeepRecentMs);
    r2Keys.push(...unreferenced.filter((k) => !recent.has(k)));
    if (recent.size) disposal.keptRecent?.([...recent]);
    if (r2Keys.length) await env.MEDIA.delete(r2Keys);
    deletedDocuments += rows.length;
    if (onlyIds || rows.length < take) break;
  }
  return { deletedDocuments, deletedMedia };
}

/**
 * Of the given R2 keys, those no media row references any more. With `bucket`, an object
 * uploaded lately is kept too: a printer may have just used it, its index row still in that
 * printer's outbox (media-store.ts, the MEDIA_KEEP_RECENT_MS setting).
 */
export async function unreferencedKeys(db: D1Database, keys: string[], recent?: { bucket: R2Bucket; keepMs: number }): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    const { results } = await db
      .prepare(`SELECT DISTINCT storage_key FROM media WHERE storage_key IN (${chunk.map(() => '?').join(',')})`)
      .bind(...chunk)
      .all<{ storage_key: string }>();
    const still = new Set(results.map((r) => r.storage_key));
    out.push(...chunk.filter((k) => !still.has(k)));
  }
  if (!recent || out.length === 0) return out;
  const kept = await recentlyUploaded(recent.bucket, out, recent.keepMs);
  return out.filter((k) => !kept.has(k));
}

/** Of the given keys, those whose R2 object was uploaded within `keepMs`. */
export async function recentlyUploaded(bucket: R2Bucket, keys: string[], keepMs: number): Promise<Set<string>> {
  const heads = await Promise.all(keys.map((k) => bucket.head(k)));
  return new Set(keys.filter((_, i) => heads[i] && Date.now() - heads[i]!.uploaded.getTime() < keepMs));
}
