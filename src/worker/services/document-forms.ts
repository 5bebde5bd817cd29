import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { renderPdf, renderPng, renderText, type RenderCanvas, type RenderImageElement } from '../../engines/render/index.ts';
import { packedMediaLocation, readPackedPicture } from './media-pack.ts';
import { modelChoiceOf } from './printer-models.ts';

/**
 * A stored document in the forms `GET …/documents/{documentId}` answers besides JSON
 * (extensions.md "Documents outside the browser"): the printout as PNG or PDF, its text, or
 * the raw bytes. Chosen by `?format=` first, then the Accept header.
 */
export const DOCUMENT_FORMATS = ['json', 'png', 'pdf', 'text', 'raw'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  json: 'application/json',
  png: 'image/png',
  pdf: 'application/pdf',
  text: 'text/plain; charset=utf-8',
  raw: 'application/octet-stream',
};

const BY_MEDIA_TYPE: Record<string, DocumentFormat> = {
  'image/png': 'png',
  'application/pdf': 'pdf',
  'text/plain': 'text',
  'application/octet-stream': 'raw',
  'application/json': 'json',
};

/** The form asked for: `format` wins; else the first Accept entry naming a form; else JSON. */
export function chooseFormat(format: DocumentFormat | undefined, accept: string | undefined): DocumentFormat {
  if (format) return format;
  for (const part of (accept ?? '').split(',')) {
    const found = BY_MEDIA_TYPE[part.split(';')[0].trim().toLowerCase()];
    if (found) return found;
  }
  return 'json';
}

interface StoredDocument {
  canvases: RenderCanvas[];
}

/** Image elements of stored documents carry an R2 key (a small picture: its pack's, the id says where in it) instead of their PNG. */
function mediaResolver(env: Env) {
  return async (el: RenderImageElement): Promise<Uint8Array | null> => {
    const key = el.media?.storageKey;
    if (!key) return null;
    const packed = packedMediaLocation(el.media!.url.split('/').pop() ?? '');
    if (packed) return (await readPackedPicture(env.MEDIA, packed))?.bytes ?? null;
    const obj = await env.MEDIA.get(key);
    return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
  };
}

/** PNG, PDF or text of a stored document's JSON. `canvasIndex` applies to PNG (a bad one throws CanvasIndexError). */
export async function renderStoredDocument(
  env: Env,
  printer: PrinterRow,
  json: string,
  format: 'png' | 'pdf' | 'text',
  canvasIndex: number | undefined,
): Promise<Uint8Array | string> {
  const { canvases } = JSON.parse(json) as StoredDocument;
  if (format === 'text') return renderText(canvases);
  const resolveImage = mediaResolver(env);
  if (format === 'png') return (await renderPng(canvases, { canvasIndex, resolveImage })).png;
  return (await renderPdf(canvases, { dpi: modelChoiceOf(printer).model.dpi, resolveImage })).pdf;
}
