import type { Transport } from '../../shared/transports.ts';
import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import type { RenderedJob } from '../../engines/canvas/model.ts';
import { ENGINE_VERSION } from '../../engines/index.ts';
import { mediaOwnerOf, mediaUrl, type MediaIndexRow } from './media-store.ts';
import { gunzip, gzip } from './gzip.ts';
import { documentJsonOfBody } from './packed-document.ts';
import { compactBodyJson, compactBodyJsonParts, compactBodyJsonWith, isCompactBody } from './compact-body.ts';
import { streamOfPieces, toRpcText, type RpcText } from './rpc-text.ts';
import { buildDocument, type BuiltDocument, type MediaRef } from './document-builder.ts';
import { StreamedDocument } from './document-stream.ts';
import { putInSteps } from './stepped-put.ts';
import { beforeLargeWork, LARGE_WORK_BYTES } from '../objects/large-work-collection.ts';
import { putRaw, rawKeyOf, rawOfObject } from './raw-at-rest.ts';
import { DocumentPictures, type PictureMemory } from './document-pictures.ts';
import { INLINE_BODY_LIMIT, INLINE_RAW_LIMIT, type DocumentLocation, type StoredDocumentRow } from '../objects/document-table.ts';

/**
 * Turning a rendered job into a stored document. `prepareDocument` builds the document's body
 * (compact, or the DTO's JSON when someone waits for it) and text in one pass
 * (document-builder.ts), its pictures given their media on the way (document-pictures.ts), then
 * stores the pictures in R2 (their URLs work from the moment the document is announced; an image
 * this printer wrote lately is not written again) and returns their media index rows for the
 * printer's counter outbox (D1 hears of them in the next batched flush), and compresses the body
 * once for the printer's document table (objects/document-table.ts).
 */
export interface JobMeta {
  documentId: string;
  printJobId: string;
  clientAddress: string;
  bytesSent: number;
  raw: Uint8Array;
  extraErrors: string[];
  transport: Transport;
  /**
   * Someone is waiting for the document's DTO JSON (a canvas stream subscriber, a
   * `documents/next` waiter): it is then written in the building pass (the body at rest is the
   * compact body all the same).
   */
  awaited: boolean;
}

export interface PreparedDocument {
  id: string;
  createdAt: string;
  /** The RenderedDocumentDto's JSON as UTF-8 (what a canvas stream subscriber is sent). */
  jsonUtf8: () => Uint8Array;
  /** The RenderedDocumentDto's JSON (`documents/next`). */
  json: () => string;
  isStatusPoll: boolean;
  /** The printed text (renderText): stored lower-cased for search, sent with webhooks. */
  text: string;
  row: StoredDocumentRow;
  /** Media index rows for D1, through the printer's counter outbox. */
  media: Omit<MediaIndexRow, 'workspaceId' | 'printerId'>[];
}

/**
 * A job's document written while it prints, once the job outgrows a batch of elements
 * (document-stream.ts): `sink` is given to the engine (`ProtocolSession.streamTo`), its
 * pictures get their media as they come.
 */
export interface DocumentStream {
  sink: StreamedDocument;
  pictures: DocumentPictures;
}

/** `rawSoFar`: the job's raw bytes as stored with the document, as far as they have come. */
export function streamDocument(env: Env, printer: PrinterRow, memory: PictureMemory, rawSoFar: () => Uint8Array): DocumentStream {
  const pictures = new DocumentPictures(env, mediaOwnerOf(printer), memory);
  return { pictures, sink: new StreamedDocument(rawSoFar, mediaRefOf(pictures)) };
}

function mediaRefOf(pictures: DocumentPictures): (png: Uint8Array) => MediaRef {
  return (png) => {
    const m = pictures.media(png);
    return { contentType: 'image/png', size: m.size, url: mediaUrl(m.mediaId), storageKey: m.storageKey };
  };
}

/**
 * `pause` (the printer object's yield) is awaited between steps of the work, so a document of
 * 20,000 pictures or elements does not hold the thread other printers share.
 */
export async function prepareDocument(
  env: Env, printer: PrinterRow, job: RenderedJob, meta: JobMeta, memory: PictureMemory, pause?: () => Promise<void>, stream?: DocumentStream,
): Promise<PreparedDocument> {
  const createdAt = new Date().toISOString();
  const pictures = stream?.pictures ?? new DocumentPictures(env, mediaOwnerOf(printer), memory);
  const errorMessages = [...meta.extraErrors, ...job.errorMessages];
  const head = { id: meta.documentId, printJobId: meta.printJobId, printerId: printer.id, timestamp: createdAt, protocol: printer.protocol, transport: meta.transport, isStatusPoll: job.isStatusPoll };
  // The bytes the client sent: for a request translated before printing (ePOS-Print), its body.
  const tail = { clientAddress: meta.clientAddress, bytesReceived: meta.raw.length, bytesSent: meta.bytesSent, ...(errorMessages.length && { errorMessages }) };
  const built: BuiltDocument = stream?.sink.started
    ? streamedBody(stream.sink, head, tail, meta.raw)
    : await buildDocument(head, job.canvases, tail, mediaRefOf(pictures), meta.raw, pause, meta.awaited ? 'now' : 'later', job.elementKinds);
  const media = await pictures.store();
  const gz = gzip(built.body);
  const bodyKey = gz.length <= INLINE_BODY_LIMIT ? null : `documents/${meta.documentId}.json.gz`;
  const rawKey = meta.raw.length <= INLINE_RAW_LIMIT ? null : rawKeyOf(meta.documentId);
  const steps = pause ?? (async () => {});
  await Promise.all([
    rawKey ? putRaw(env.MEDIA, rawKey, meta.raw, steps) : null,
    bodyKey ? putInSteps(env.MEDIA, bodyKey, gz, { httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' } }, steps) : null,
  ]);
  const poll = job.isStatusPoll;
  return {
    id: meta.documentId,
    createdAt,
    jsonUtf8: built.jsonUtf8,
    json: built.json,
    isStatusPoll: poll,
    text: built.text,
    row: {
      id: meta.documentId, printJobId: meta.printJobId, createdAt, isStatusPoll: poll, bytesReceived: meta.raw.length, mediaCount: media.length,
      body: bodyKey ? null : gz, bodyKey, raw: rawKey ? null : meta.raw, rawKey, engineVersion: ENGINE_VERSION,
      searchText: built.text.toLowerCase(),
    },
    media: media.map((m) => ({ id: crypto.randomUUID(), documentId: meta.documentId, stored: { size: m.size, sha256: m.sha256, storageKey: m.storageKey }, createdAt })),
  };
}

/** A streamed job's JSON, for whoever waits, is read from its compact body. */
function streamedBody(sink: StreamedDocument, head: Parameters<StreamedDocument['finish']>[0], tail: Parameters<StreamedDocument['finish']>[1], raw: Uint8Array): BuiltDocument {
  const { body, text } = sink.finish(head, tail);
  let json: string | null = null;
  const jsonOnce = () => (json ??= compactBodyJsonWith(body, raw)!);
  return { body, text, json: jsonOnce, jsonUtf8: () => new TextEncoder().encode(jsonOnce()) };
}

/**
 * A stored document's RenderedDocumentDto JSON. `raw` gives its raw bytes (documentRaw), which
 * a compact body takes commands' bytes from.
 */
export async function documentJson(
  env: Env, loc: Pick<DocumentLocation, 'body' | 'bodyKey' | 'isStatusPoll'>, raw: () => Promise<Uint8Array | null>,
): Promise<string> {
  const body = await storedBody(env, loc);
  if (!body) return '{}';
  beforeLargeWork(body.length);
  return isCompactBody(body) ? compactBodyJson(body, raw) : documentJsonOfBody(new TextDecoder().decode(body), loc.isStatusPoll);
}

/**
 * The same JSON as a call carries it (rpc-text.ts), with its length in characters. A compact
 * body of LARGE_WORK_BYTES or more (a long job's: 100,000 elements are some 35 M characters of
 * JSON) goes as a stream made while it is read, its length not known (null): its elements and
 * its JSON never exist whole in the object (docs/decisions.md, "workerd's memory", sixth pass).
 */
export async function documentRpcJson(
  env: Env, loc: Pick<DocumentLocation, 'body' | 'bodyKey' | 'isStatusPoll'>, raw: () => Promise<Uint8Array | null>,
): Promise<{ json: RpcText; chars: number | null }> {
  const body = await storedBody(env, loc);
  if (body && isCompactBody(body) && body.length >= LARGE_WORK_BYTES) {
    beforeLargeWork(body.length);
    return { json: streamOfPieces(compactBodyJsonParts(body, (await raw()) ?? new Uint8Array(0))), chars: null };
  }
  const json = await documentJson(env, loc, raw);
  return { json: toRpcText(json), chars: json.length };
}

/** A stored document's body, gunzipped; null when its object is gone. */
async function storedBody(env: Env, loc: Pick<DocumentLocation, 'body' | 'bodyKey'>): Promise<Uint8Array | null> {
  let gz = loc.body;
  if (!gz) {
    const obj = await env.MEDIA.get(loc.bodyKey!);
    if (!obj) return null;
    gz = new Uint8Array(await obj.arrayBuffer());
  }
  return gunzip(gz);
}

/** A stored document's raw job bytes. */
export async function documentRaw(env: Env, loc: { raw: Uint8Array | null; rawKey: string | null }): Promise<Uint8Array | null> {
  if (loc.raw) return loc.raw;
  if (!loc.rawKey) return new Uint8Array(0);
  const obj = await env.MEDIA.get(loc.rawKey);
  return obj ? rawOfObject(loc.rawKey, new Uint8Array(await obj.arrayBuffer())) : null;
}
