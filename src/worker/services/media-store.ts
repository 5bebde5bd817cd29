import type { Env } from '../env.ts';
import { sha256Hex } from '../auth/workspace-token.ts';

/** PNG bytes in R2, content-addressed so identical images are stored once. */
export interface StoredPng {
  sha256: string;
  storageKey: string;
  size: number;
}

export async function putPng(env: Env, png: Uint8Array): Promise<StoredPng> {
  const sha256 = await sha256Hex(png);
  const storageKey = `media/${sha256}.png`;
  await env.MEDIA.put(storageKey, png, { httpMetadata: { contentType: 'image/png' }, sha256 });
  return { sha256, storageKey, size: png.length };
}

export function mediaUrl(mediaId: string): string {
  return `/api/media/${mediaId}`;
}

export function insertMediaStatement(
  db: D1Database,
  m: { id: string; workspaceId: string; printerId: string; documentId: string | null; stored: StoredPng; createdAt: string },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO media (id, workspace_id, printer_id, document_id, content_type, size, sha256, storage_key, created_at)
       VALUES (?, ?, ?, ?, 'image/png', ?, ?, ?, ?)`,
    )
    .bind(m.id, m.workspaceId, m.printerId, m.documentId, m.stored.size, m.stored.sha256, m.stored.storageKey, m.createdAt);
}
