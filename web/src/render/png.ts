/**
 * The PNG button: the server's PNG of the document (`GET /api/printers/{id}/documents/{documentId}?format=png`),
 * the print head's picture rendered in the Worker (src/engines/render), so the page does not
 * carry the renderer for a download.
 */
import type { RenderedDocumentDto } from '../types.ts';
import { api } from '../api.ts';

/** The server route of a document's printout in `format`. */
export function documentFormatUrl(printerId: string, documentId: string, format: 'png' | 'pdf' | 'text' | 'raw'): string {
  return `/api/printers/${encodeURIComponent(printerId)}/documents/${encodeURIComponent(documentId)}?format=${format}`;
}

/** The server's PNG; a failure is an ApiError-like message for the toast. */
export async function documentToPngBlob(doc: RenderedDocumentDto): Promise<Blob> {
  await api.ensureFresh();
  const headers: Record<string, string> = { Accept: 'image/png', 'X-Client': 'web' };
  if (api.accessToken) headers.Authorization = `Bearer ${api.accessToken}`;
  const res = await fetch(documentFormatUrl(doc.printerId, doc.id, 'png'), { headers, credentials: 'same-origin' });
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/png')) {
    throw new Error(`The PNG could not be made (HTTP ${res.status})`);
  }
  return res.blob();
}

export async function downloadDocumentPng(doc: RenderedDocumentDto, fileName: string): Promise<{ size: number }> {
  const blob = await documentToPngBlob(doc);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { size: blob.size };
}
