import { renderText, type RenderCanvas } from '../../engines/render/index.ts';
import type { Env } from '../env.ts';
import { ENGINE_VERSION } from '../../engines/index.ts';
import { gzip } from '../services/gzip.ts';
import { isLegacyStatusPoll } from '../services/lean-document.ts';
import type { RenderedJob } from '../../engines/canvas/model.ts';
import { INLINE_BODY_LIMIT, type DocumentTable } from './document-table.ts';

/**
 * One-time move of a printer's documents from D1 (where they lived before migration 0003) into
 * its Durable Object, the first time the object serves the printer. Rows are copied in chunks,
 * each chunk deleted from D1 once stored here; migration 0003 already counted them, so the
 * statistics counters do not change. Bodies are compressed on the way; R2 objects keep their keys
 * (an R2 body is read back and stored inline when it is small enough, then deleted).
 */
const CHUNK = 50;

interface D1DocumentRow {
  id: string; print_job_id: string; created_at: string; bytes_received: number; engine_version: string | null;
  body: string | null; body_key: string | null; raw: ArrayBuffer | null; raw_key: string | null; media_count: number;
}

export async function importDocumentsFromD1(env: Env, sql: SqlStorage, table: DocumentTable, printerId: string): Promise<void> {
  sql.exec('CREATE TABLE IF NOT EXISTS d1_import (printer_id TEXT PRIMARY KEY)');
  if (sql.exec('SELECT 1 FROM d1_import WHERE printer_id = ?', printerId).toArray().length) return;
  for (;;) {
    const { results } = await env.DB
      .prepare(`SELECT d.id, d.print_job_id, d.created_at, d.bytes_received, d.engine_version, d.body, d.body_key, d.raw, d.raw_key,
                  (SELECT COUNT(*) FROM media m WHERE m.document_id = d.id) AS media_count
                FROM documents d WHERE d.printer_id = ? ORDER BY d.seq LIMIT ?`)
      .bind(printerId, CHUNK)
      .all<D1DocumentRow>();
    if (results.length === 0) break;
    const staleKeys: string[] = [];
    for (const r of results) {
      const json = r.body ?? (await (await env.MEDIA.get(r.body_key!))?.text()) ?? '{}';
      const gz = gzip(json);
      const inline = gz.length <= INLINE_BODY_LIMIT;
      let bodyKey: string | null = null;
      if (!inline) {
        bodyKey = `documents/${r.id}.json.gz`;
        await env.MEDIA.put(bodyKey, gz, { httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' } });
      }
      if (r.body_key) staleKeys.push(r.body_key);
      const dto = JSON.parse(json) as { protocol?: string; canvases?: RenderedJob['canvases'] };
      if (!table.findByJob(r.print_job_id)) {
        table.insert({
          id: r.id, printJobId: r.print_job_id, createdAt: r.created_at,
          isStatusPoll: isLegacyStatusPoll({ canvases: dto.canvases ?? [] }, dto.protocol ?? 'EscPos'),
          bytesReceived: r.bytes_received, mediaCount: r.media_count,
          body: inline ? gz : null, bodyKey, raw: r.raw ? new Uint8Array(r.raw) : null, rawKey: r.raw_key, engineVersion: r.engine_version ?? ENGINE_VERSION,
          searchText: renderText((dto.canvases ?? []) as unknown as RenderCanvas[]).toLowerCase(),
        });
      }
    }
    await env.DB.prepare(`DELETE FROM documents WHERE id IN (${results.map(() => '?').join(',')})`).bind(...results.map((r) => r.id)).run();
    if (staleKeys.length) await env.MEDIA.delete(staleKeys);
    if (results.length < CHUNK) break;
  }
  sql.exec('INSERT OR IGNORE INTO d1_import (printer_id) VALUES (?)', printerId);
}
