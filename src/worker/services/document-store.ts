import type { Env } from '../env.ts';
import type { DocumentRow, PrinterRow, ProtocolName } from '../data/rows.ts';
import type { CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';
import { ENGINE_VERSION } from '../../engines/index.ts';
import { insertMediaStatement, mediaUrl, putPng, type StoredPng } from './media-store.ts';
import { readStampStatements, type Reader } from './read-stamps.ts';
import { findPrinterStatement } from '../data/printers.ts';

/**
 * Documents are made durable here: PNGs to R2; the document row with its JSON body and raw
 * bytes inline when small (else in R2), its media rows, the printer's last-document stamp and
 * the read stamps of the stream subscribers about to receive it, in one D1 batch. Only after
 * this returns is a document announced on any stream. Local D1 and R2 serialise all writers,
 * so every round trip saved here is latency saved for every printer printing at once.
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

export interface StoredDocument {
  id: string;
  createdAt: string;
  /** The RenderedDocumentDto, serialised once. */
  json: string;
  /** The printer as it is after the document (stamps, workspace name). */
  printer: PrinterRow | null;
}

export async function storeDocument(env: Env, printer: PrinterRow, job: RenderedJob, meta: JobMeta): Promise<StoredDocument> {
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
  await Promise.all([
    rawKey ? env.MEDIA.put(rawKey, meta.raw) : null,
    bodyKey ? env.MEDIA.put(bodyKey, json, { httpMetadata: { contentType: 'application/json' } }) : null,
  ]);

  const statements = [
    env.DB
      .prepare(
        `INSERT INTO documents (id, print_job_id, printer_id, workspace_id, created_at, protocol, client_address,
           bytes_received, bytes_sent, body, body_key, raw, raw_key, engine_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(meta.documentId, meta.printJobId, printer.id, printer.workspace_id, createdAt, printer.protocol as ProtocolName,
        meta.clientAddress, job.bytesReceived, meta.bytesSent, inline ? json : null, bodyKey, rawInline ? meta.raw : null, rawKey, ENGINE_VERSION),
    ...media.map((m) =>
      insertMediaStatement(env.DB, { id: m.id, workspaceId: printer.workspace_id, printerId: printer.id, documentId: meta.documentId, stored: m.stored, createdAt }),
    ),
  ];
  const final = [
    statements[0],
    env.DB.prepare('UPDATE printers SET last_document_received_at = ? WHERE id = ?').bind(createdAt, printer.id),
    ...readStampStatements(env.DB, printer, meta.readers, createdAt),
    findPrinterStatement(env.DB, printer.id),
  ];
  // D1 batches are transactions; the media rows of a very large document go first in batches
  // of their own, the document row last so a reader never sees it without its media.
  const BATCH = 500;
  for (let i = 1; i < statements.length; i += BATCH) await env.DB.batch(statements.slice(i, i + BATCH));
  const results = await env.DB.batch<PrinterRow>(final);
  return { id: meta.documentId, createdAt, json, printer: results.at(-1)?.results[0] ?? null };
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
