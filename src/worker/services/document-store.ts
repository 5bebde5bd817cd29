import { renderText, type RenderCanvas } from '../../engines/render/index.ts';
import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import type { CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';
import { ENGINE_VERSION } from '../../engines/index.ts';
import { mediaOwnerOf, mediaUrl, putPng, type MediaIndexRow, type StoredKeys, type StoredPng } from './media-store.ts';
import { gunzipText, gzipText } from './gzip.ts';
import { leanElement } from './lean-document.ts';
import { documentJsonOfBody, packDocument } from './packed-document.ts';
import type { Transport } from '../../shared/transports.ts';
import { INLINE_BODY_LIMIT, INLINE_RAW_LIMIT, type DocumentLocation, type StoredDocumentRow } from '../objects/document-table.ts';

/**
 * Turning a rendered job into a stored document. `prepareDocument` stores the job's PNGs in R2
 * (content-addressed: their URLs work from the moment the document is announced; an image this
 * printer wrote lately is not written again) and returns their media index rows for the
 * printer's counter outbox (D1 hears of them in the next batched flush), builds the lean RenderedDocumentDto (lean-document.ts), serialises it
 * once and compresses it for the printer's document table (objects/document-table.ts).
 */
export interface JobMeta {
  documentId: string;
  printJobId: string;
  clientAddress: string;
  bytesSent: number;
  raw: Uint8Array;
  extraErrors: string[];
  transport: Transport;
}

export interface PreparedDocument {
  id: string;
  createdAt: string;
  /** The RenderedDocumentDto's JSON, serialised once when first asked for (stream subscribers). */
  json: () => string;
  isStatusPoll: boolean;
  /** The printed text (renderText): stored lower-cased for search, sent with webhooks. */
  text: string;
  row: StoredDocumentRow;
  /** Media index rows for D1, through the printer's counter outbox. */
  media: Omit<MediaIndexRow, 'workspaceId' | 'printerId'>[];
}

export async function prepareDocument(env: Env, printer: PrinterRow, job: RenderedJob, meta: JobMeta, storedKeys?: StoredKeys): Promise<PreparedDocument> {
  const createdAt = new Date().toISOString();
  // One medium (and one media index row) per distinct image of the document, however often it
  // is drawn: 20,000 copies of one tiny raster are one R2 object and one row, not 20,000.
  const mediumOfPng = new Map<Uint8Array, { id: string; stored: StoredPng }>();
  for (const canvas of job.canvases) {
    for (const el of canvas.items) {
      if (el.type !== 'image' || mediumOfPng.has(el.image.png)) continue;
      mediumOfPng.set(el.image.png, { id: crypto.randomUUID(), stored: await putPng(env, el.image.png, mediaOwnerOf(printer), storedKeys) });
    }
  }
  const media = [...mediumOfPng.values()];

  const errorMessages = [...meta.extraErrors, ...job.errorMessages];
  const dto = {
    id: meta.documentId,
    printJobId: meta.printJobId,
    printerId: printer.id,
    timestamp: createdAt,
    protocol: printer.protocol,
    transport: meta.transport,
    canvases: job.canvases.map((c) => ({
      widthInDots: c.widthInDots,
      ...(c.heightInDots != null && { heightInDots: c.heightInDots }),
      items: c.items.map((el) => (el.type === 'image' ? imageElement(el, mediumOfPng.get(el.image.png)!) : leanElement(el))),
    })),
    clientAddress: meta.clientAddress,
    // The bytes the client sent: for a request translated before printing (ePOS-Print), its body.
    bytesReceived: meta.raw.length,
    bytesSent: meta.bytesSent,
    ...(errorMessages.length && { errorMessages }),
  };
  const text = renderText(dto.canvases as unknown as RenderCanvas[]);
  // At rest packed (packed-document.ts); the DTO's JSON only when someone is there to read it now.
  const gz = gzipText(packDocument(dto));
  let json: string | null = null;
  const bodyKey = gz.length <= INLINE_BODY_LIMIT ? null : `documents/${meta.documentId}.json.gz`;
  const rawKey = meta.raw.length <= INLINE_RAW_LIMIT ? null : `raw/${meta.documentId}.bin`;
  await Promise.all([
    rawKey ? env.MEDIA.put(rawKey, meta.raw) : null,
    bodyKey ? env.MEDIA.put(bodyKey, gz, { httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' } }) : null,
  ]);
  const poll = job.isStatusPoll;
  return {
    id: meta.documentId,
    createdAt,
    json: () => (json ??= JSON.stringify(dto)),
    isStatusPoll: poll,
    text,
    row: {
      id: meta.documentId, printJobId: meta.printJobId, createdAt, isStatusPoll: poll, bytesReceived: meta.raw.length, mediaCount: media.length,
      body: bodyKey ? null : gz, bodyKey, raw: rawKey ? null : meta.raw, rawKey, engineVersion: ENGINE_VERSION,
      searchText: text.toLowerCase(),
    },
    media: media.map((m) => ({ id: m.id, documentId: meta.documentId, stored: m.stored, createdAt })),
  };
}

/** An image element refers to its PNG medium (stored once, in R2) instead of carrying it. */
function imageElement(el: Extract<CanvasElement, { type: 'image' }>, m: { id: string; stored: StoredPng }) {
  const { image: _png, ...rest } = leanElement(el);
  return { ...rest, media: { contentType: 'image/png', size: m.stored.size, url: mediaUrl(m.stored.mediaId), storageKey: m.stored.storageKey } };
}

/** A stored document's RenderedDocumentDto JSON. */
export async function documentJson(env: Env, loc: Pick<DocumentLocation, 'body' | 'bodyKey'>): Promise<string> {
  if (loc.body) return documentJsonOfBody(gunzipText(loc.body));
  const obj = await env.MEDIA.get(loc.bodyKey!);
  return obj ? documentJsonOfBody(gunzipText(new Uint8Array(await obj.arrayBuffer()))) : '{}';
}

/** A stored document's raw job bytes. */
export async function documentRaw(env: Env, loc: { raw: Uint8Array | null; rawKey: string | null }): Promise<Uint8Array | null> {
  if (loc.raw) return loc.raw;
  if (!loc.rawKey) return new Uint8Array(0);
  const obj = await env.MEDIA.get(loc.rawKey);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
}
