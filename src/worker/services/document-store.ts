import type { Env } from '../env.ts';
import type { DocumentRow, PrinterRow, ProtocolName } from '../data/rows.ts';
import type { CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';
import { ENGINE_VERSION } from '../../engines/index.ts';
import { insertMediaStatement, mediaUrl, putPng, type StoredPng } from './media-store.ts';
import { readStampStatements, type Reader } from './read-stamps.ts';
import { findPrinterStatement } from '../data/printers.ts';

/**
 * Documents are made durable in two steps. `prepareDocument` renders the DTO, stores its PNGs in
 * R2 and writes their media rows (so that every media URL in the document works from the moment
 * it is announced). `commitDocuments` then writes the document rows, with bodies and raw bytes
 * inline when small (else in R2), the printer's last-document stamp and the read stamps of the
 * stream subscribers who received them, in one D1 batch for any number of documents of one
 * printer (the printer's write queue, objects/document-write-queue.ts, decides when).
 */

/** Bodies and raw jobs above these sizes go to R2 (D1 rows have size limits). */
const INLINE_BODY_LIMIT = 96 * 1024;
const INLINE_RAW_LIMIT = 64 * 1024;

export interface JobMeta {
  documentId: string;
  printJobId: string;
  clientAddress: string;
  bytesSent: number;
  raw: Uint8Array;
  extraErrors: string[];
  /** Readers who will receive the document on the canvas stream (their read stamps are recorded). */
  readers: Reader[];
}

export interface PreparedDocument {
  id: string;
  createdAt: string;
  /** The RenderedDocumentDto, serialised once. */
  json: string;
  /**
   * The document row's values; its media rows are written already. Bound only when written:
   * binding converts the raw bytes and the body, work that has no place before the announcement.
   */
  row: DocumentRowValues;
  readers: Reader[];
}

export async function prepareDocument(env: Env, printer: PrinterRow, job: RenderedJob, meta: JobMeta): Promise<PreparedDocument> {
  const createdAt = new Date().toISOString();
  const media: { id: string; stored: StoredPng }[] = [];
  const pngByElement = new Map<CanvasElement, { id: string; stored: StoredPng }>();
  const uploads = new Map<Uint8Array, Promise<StoredPng>>();
  for (const canvas of job.canvases) {
    for (const el of canvas.items) {
      if (el.type !== 'image') continue;
      const upload = uploads.get(el.image.png) ?? putPng(env, el.image.png);
      uploads.set(el.image.png, upload);
      const entry = { id: crypto.randomUUID(), stored: await upload };
      media.push(entry);
      pngByElement.set(el, entry);
    }
  }

  const errorMessages = [...meta.extraErrors, ...job.errorMessages];
  const dto = {
    id: meta.documentId,
    printJobId: meta.printJobId,
    printerId: printer.id,
    timestamp: createdAt,
    protocol: printer.protocol,
    canvases: job.canvases.map((c) => ({
      widthInDots: c.widthInDots,
      ...(c.heightInDots != null && { heightInDots: c.heightInDots }),
      items: c.items.map((el) => {
        if (el.type !== 'image') return el;
        const { image: _png, ...rest } = el;
        const m = pngByElement.get(el)!;
        return { ...rest, media: { contentType: 'image/png', size: m.stored.size, url: mediaUrl(m.id), storageKey: m.stored.storageKey } };
      }),
    })),
    clientAddress: meta.clientAddress,
    bytesReceived: job.bytesReceived,
    bytesSent: meta.bytesSent,
    ...(errorMessages.length && { errorMessages }),
  };
  const json = JSON.stringify(dto);
  const inline = json.length <= INLINE_BODY_LIMIT;
  const rawInline = meta.raw.length <= INLINE_RAW_LIMIT;
  const rawKey = rawInline ? null : `raw/${meta.documentId}.bin`;
  const bodyKey = inline ? null : `documents/${meta.documentId}.json`;
  const mediaStatements = media.map((m) =>
    insertMediaStatement(env.DB, { id: m.id, workspaceId: printer.workspace_id, printerId: printer.id, documentId: meta.documentId, stored: m.stored, createdAt }),
  );
  // D1 batches are transactions; a document with very many images writes them in several.
  const BATCH = 500;
  await Promise.all([
    rawKey ? env.MEDIA.put(rawKey, meta.raw) : null,
    bodyKey ? env.MEDIA.put(bodyKey, json, { httpMetadata: { contentType: 'application/json' } }) : null,
    (async () => {
      for (let i = 0; i < mediaStatements.length; i += BATCH) await env.DB.batch(mediaStatements.slice(i, i + BATCH));
    })(),
  ]);

  const row: DocumentRowValues = [meta.documentId, meta.printJobId, printer.id, printer.workspace_id, createdAt, printer.protocol as ProtocolName,
    meta.clientAddress, job.bytesReceived, meta.bytesSent, inline ? json : null, bodyKey, rawInline ? meta.raw : null, rawKey, ENGINE_VERSION];
  return { id: meta.documentId, createdAt, json, row, readers: meta.readers };
}

// Written behind (the printer's write queue): a printer deleted meanwhile, alone or with its
// workspace, gets no row, so nothing is left that no printer or workspace owns.
const INSERT_DOCUMENT = `INSERT INTO documents (id, print_job_id, printer_id, workspace_id, created_at, protocol, client_address,
    bytes_received, bytes_sent, body, body_key, raw, raw_key, engine_version)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
  WHERE EXISTS (SELECT 1 FROM printers WHERE id = ?3 AND deleted_at IS NULL)`;

type DocumentRowValues = [
  id: string, printJobId: string, printerId: string, workspaceId: string, createdAt: string, protocol: ProtocolName, clientAddress: string,
  bytesReceived: number, bytesSent: number, body: string | null, bodyKey: string | null, raw: Uint8Array | null, rawKey: string | null, engineVersion: string,
];

/**
 * Writes prepared documents of one printer (in the order given) with the printer's stamps, in
 * one D1 batch. Returns the printer as it is afterwards (stamps, workspace name), null when it
 * is gone.
 */
export async function commitDocuments(env: Env, printer: PrinterRow, docs: readonly PreparedDocument[]): Promise<PrinterRow | null> {
  const last = docs.at(-1)!;
  const results = await env.DB.batch<PrinterRow>([
    ...docs.map((d) => env.DB.prepare(INSERT_DOCUMENT).bind(...d.row)),
    env.DB.prepare('UPDATE printers SET last_document_received_at = ? WHERE id = ?').bind(last.createdAt, printer.id),
    ...readStampStatements(env.DB, printer, docs.flatMap((d) => d.readers), last.createdAt),
    findPrinterStatement(env.DB, printer.id),
  ]);
  return results.at(-1)?.results[0] ?? null;
}

export async function findDocumentByJob(db: D1Database, printJobId: string): Promise<{ id: string; bytes_received: number } | null> {
  return db.prepare('SELECT id, bytes_received FROM documents WHERE print_job_id = ?').bind(printJobId).first();
}

async function bodyOf(env: Env, row: Pick<DocumentRow, 'body' | 'body_key'>): Promise<string> {
  if (row.body !== null) return row.body;
  const obj = await env.MEDIA.get(row.body_key!);
  return obj ? obj.text() : '{}';
}

export type PageResult = { ok: true; itemsJson: string[]; hasMore: boolean; next: { id: string; createdAt: string } | null } | { ok: false };

/** Newest first, keyset paging on the document sequence. `ok: false` for an unknown cursor. */
export async function listDocumentsPage(env: Env, printerId: string, limit: number, beforeId?: string): Promise<PageResult> {
  let cursor = Number.MAX_SAFE_INTEGER;
  if (beforeId) {
    const c = await env.DB.prepare('SELECT seq FROM documents WHERE id = ? AND printer_id = ?').bind(beforeId.toLowerCase(), printerId).first<{ seq: number }>();
    if (!c) return { ok: false };
    cursor = c.seq;
  }
  const { results } = await env.DB
    .prepare('SELECT id, created_at, body, body_key FROM documents WHERE printer_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
    .bind(printerId, cursor, limit + 1)
    .all<Pick<DocumentRow, 'id' | 'created_at' | 'body' | 'body_key'>>();
  const hasMore = results.length > limit;
  const page = results.slice(0, limit);
  const itemsJson = await Promise.all(page.map((r) => bodyOf(env, r)));
  const last = page.at(-1);
  return { ok: true, itemsJson, hasMore, next: hasMore && last ? { id: last.id, createdAt: last.created_at } : null };
}

/** Documents finalised after `afterId` (for Last-Event-ID replay), oldest first. */
export async function documentsAfter(env: Env, printerId: string, afterId: string, max = 100): Promise<{ id: string; json: string }[]> {
  const c = await env.DB.prepare('SELECT seq FROM documents WHERE id = ? AND printer_id = ?').bind(afterId.toLowerCase(), printerId).first<{ seq: number }>();
  if (!c) return [];
  const { results } = await env.DB
    .prepare('SELECT id, body, body_key FROM documents WHERE printer_id = ? AND seq > ? ORDER BY seq LIMIT ?')
    .bind(printerId, c.seq, max)
    .all<Pick<DocumentRow, 'id' | 'body' | 'body_key'>>();
  return Promise.all(results.map(async (r) => ({ id: r.id, json: await bodyOf(env, r) })));
}
