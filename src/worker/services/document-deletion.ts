import type { Env } from '../env.ts';

/**
 * Deleting documents: their D1 rows, their media rows, and the R2 objects no longer
 * referenced (document bodies, raw bytes, and content-addressed PNGs that no remaining
 * media row points at). Runs in chunks so a large cleanup stays within D1 statement limits.
 */
export interface DeletionResult {
  deletedDocuments: number;
  deletedMedia: number;
}

const CHUNK = 50;

export async function deleteDocumentsWhere(env: Env, where: string, binds: unknown[], limit?: number): Promise<DeletionResult> {
  let deletedDocuments = 0, deletedMedia = 0;
  for (;;) {
    const take = limit === undefined ? CHUNK : Math.min(CHUNK, limit - deletedDocuments);
    if (take <= 0) break;
    const { results } = await env.DB
      .prepare(`SELECT id, body_key, raw_key FROM documents WHERE ${where} ORDER BY seq LIMIT ?`)
      .bind(...binds, take)
      .all<{ id: string; body_key: string | null; raw_key: string | null }>();
    if (results.length === 0) break;
    const ids = results.map((r) => r.id);
    const marks = ids.map(() => '?').join(',');
    const { results: media } = await env.DB
      .prepare(`SELECT id, storage_key FROM media WHERE document_id IN (${marks})`)
      .bind(...ids)
      .all<{ id: string; storage_key: string }>();
    await env.DB.batch([
      env.DB.prepare(`DELETE FROM media WHERE document_id IN (${marks})`).bind(...ids),
      env.DB.prepare(`DELETE FROM documents WHERE id IN (${marks})`).bind(...ids),
    ]);
    const r2Keys = results.flatMap((r) => [r.body_key, r.raw_key].filter((k): k is string => k !== null));
    r2Keys.push(...(await unreferencedKeys(env.DB, [...new Set(media.map((m) => m.storage_key))])));
    if (r2Keys.length) await env.MEDIA.delete(r2Keys);
    deletedDocuments += results.length;
    deletedMedia += media.length;
    if (results.length < take) break;
  }
  return { deletedDocuments, deletedMedia };
}

/** Of the given R2 keys, those no media row references any more. */
export async function unreferencedKeys(db: D1Database, keys: string[]): Promise<string[]> {
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
  return out;
}
