/**
 * The PNG button: the server's PNG of the document (`GET /api/printers/{id}/documents/{documentId}?format=png`),
 * the print head's picture rendered in the Worker. Until a server answers that route (it is
 * being added), or if it fails, the same renderer (src/engines/render) runs here on the
 * document's canvases with its images fetched from their media URLs: the file is the same.
 */
import type { RenderedDocumentDto } from '../types.ts';
import { api } from '../api.ts';
import { renderPng, type RenderCanvas } from '../../../src/engines/render/index.ts';

/** The server route of a document's printout in `format`. */
export function documentFormatUrl(printerId: string, documentId: string, format: 'png' | 'pdf' | 'text' | 'raw'): string {
  return `/api/printers/${encodeURIComponent(printerId)}/documents/${encodeURIComponent(documentId)}?format=${format}`;
}

async function serverPng(doc: RenderedDocumentDto): Promise<Blob | null> {
  try {
    await api.ensureFresh();
    const headers: Record<string, string> = { Accept: 'image/png', 'X-Client': 'web' };
    if (api.accessToken) headers.Authorization = `Bearer ${api.accessToken}`;
    const res = await fetch(documentFormatUrl(doc.printerId, doc.id, 'png'), { headers, credentials: 'same-origin' });
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/png')) return null;
    return await res.blob();
  } catch {
    return null;
  }
}

async function localPng(doc: RenderedDocumentDto): Promise<{ blob: Blob; missingImages: number }> {
  const r = await renderPng((doc.canvases ?? []) as RenderCanvas[], {
    resolveImage: async (el) => {
      if (!el.media?.url) return null;
      const res = await fetch(el.media.url, { credentials: 'same-origin' });
      return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
    },
  });
  return { blob: new Blob([r.png as Uint8Array<ArrayBuffer>], { type: 'image/png' }), missingImages: r.missingImages };
}

export async function documentToPngBlob(doc: RenderedDocumentDto): Promise<{ blob: Blob; missingImages: number; fromServer: boolean }> {
  const server = await serverPng(doc);
  if (server) return { blob: server, missingImages: 0, fromServer: true };
  return { ...(await localPng(doc)), fromServer: false };
}

export async function downloadDocumentPng(doc: RenderedDocumentDto, fileName: string): Promise<{ size: number; missingImages: number }> {
  const { blob, missingImages } = await documentToPngBlob(doc);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { size: blob.size, missingImages };
}
