import type { Env } from '../env.ts';
import { printerStub } from './notify.ts';
import type { DocumentPage } from '../objects/printer-object.ts';
import { joinedBody, type RpcText } from './rpc-text.ts';

/**
 * The Worker's way to a printer's documents, which live in the printer's Durable Object
 * (objects/document-table.ts). Routes use these; nothing outside the object reads its storage.
 */
export interface ListOptions {
  limit: number;
  beforeId?: string;
  /** Status polls (docs/contract/extensions.md "Status polls") are listed unless left out with false. */
  includeStatusPolls?: boolean;
  /** Only documents whose printed text contains this (case-insensitive). */
  contains?: string;
}

export async function listDocuments(env: Env, printerId: string, o: ListOptions): Promise<DocumentPage> {
  return printerStub(env, printerId).listDocuments(printerId, o.limit, o.beforeId, { includeStatusPolls: o.includeStatusPolls ?? true, contains: o.contains });
}

/** One document's RenderedDocumentDto JSON; null when the printer has no such document. */
export async function getDocumentJson(env: Env, printerId: string, documentId: string): Promise<RpcText | null> {
  return printerStub(env, printerId).getDocument(printerId, documentId);
}

/**
 * The first document finalised after `afterId` (after now without one), waiting up to
 * `timeoutMs` in the printer's Durable Object; null on timeout, 'unknownAfter' for a cursor
 * that is not a document of this printer, 'tooManyWaiters' when the printer holds MAX_WAITERS.
 */
export async function nextDocumentJson(env: Env, printerId: string, afterId: string | null, timeoutMs: number): Promise<RpcText | null | 'unknownAfter' | 'tooManyWaiters'> {
  const r = await printerStub(env, printerId).nextDocument(printerId, afterId, timeoutMs);
  if ('tooManyWaiters' in r) return 'tooManyWaiters';
  return r.unknownAfter ? 'unknownAfter' : r.json;
}

/** Exactly the bytes the document was rendered from; null when the printer has no such document. */
export async function getDocumentRaw(env: Env, printerId: string, documentId: string): Promise<Uint8Array | null> {
  return printerStub(env, printerId).getDocumentRaw(printerId, documentId);
}

/** A page of documents as the list response body (stored JSON spliced in, not re-serialised). */
export function pageResponseBody(page: DocumentPage): RpcText {
  const next = page.next ? `,"nextBeforeId":${JSON.stringify(page.next.id)},"nextBeforeCreatedAt":${JSON.stringify(page.next.createdAt)}` : '';
  const items = page.itemsJson.flatMap((json, i) => (i === 0 ? [json] : [',', json]));
  return joinedBody(['{"result":{"items":[', ...items, `],"hasMore":${page.hasMore}${next},"statusPollCount":${page.statusPollCount}}}`]);
}
