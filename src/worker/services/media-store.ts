import { createHmac } from 'node:crypto';
import type { Env } from '../env.ts';
import { pngSha256 } from './png-hash.ts';

/**
 * PNG bytes in R2, addressed by content within a workspace: the same image (a shop's logo on
 * every receipt, on every printer of the workspace) is one R2 object under one media id, written
 * once. The media id is a keyed hash (HMAC-SHA256 with a key only the deployment has) of the
 * workspace, its instance and the PNG's SHA-256, shaped as a UUID (RFC 9562 version 8): nobody
 * outside the deployment can compute it from a candidate picture (issue 32), and another
 * workspace's copy of the same picture has another id. The object's key is derived from the id,
 * so `GET /api/media/{id}` finds the bytes without any index row: a document's media URLs work
 * the moment it is announced, while its media index rows wait in the printer's counter outbox.
 * The object's metadata names its workspace instance and printer (routes/media.ts checks them).
 *
 * Objects written before keyed ids (`media/<sha-derived id>.png`, shared by every workspace)
 * keep their URLs; they are served while a media row of a live printer refers to them
 * (docs/decisions.md "Media ids").
 */
export interface StoredPng {
  /** The keyed media id (the URL's id). */
  mediaId: string;
  sha256: string;
  storageKey: string;
  size: number;
}

/** Whose image it is: a keyed id is only ever shared within one workspace instance. */
export interface MediaOwner {
  workspaceId: string;
  /** The workspace's `created_at`: a workspace re-created under the same id shares nothing. */
  workspaceInstance: string;
  printerId: string;
}

/** RFC 9562 version 8 UUID from the first 16 bytes of a hash (hex). */
export function uuidFromHash(hex: string): string {
  const h = hex.slice(0, 32).split('');
  h[12] = '8'; // version 8: custom
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16); // variant 10xx
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** Where a keyed medium's bytes are in R2. */
export const keyedStorageKey = (mediaId: string): string => `${KEYED_PREFIX}${mediaId}.png`;
export const KEYED_PREFIX = 'media/k/';
/** Where a medium stored before keyed ids has its bytes (its id is derived from the content alone). */
export const legacyStorageKey = (mediaId: string): string => `media/${mediaId}.png`;

/** The HMAC key for media ids, derived from the deployment's JWT_SECRET (one per isolate). */
let mediaKey: { secret: string; key: Uint8Array } | null = null;
function mediaIdKey(secret: string): Uint8Array {
  // A key of its own (not the JWT signing key itself): HMAC(secret, purpose).
  if (mediaKey?.secret !== secret) mediaKey = { secret, key: createHmac('sha256', secret).update('slipstream media ids v1').digest() };
  return mediaKey.key;
}

/**
 * The media id of a PNG (its SHA-256, hex) in a workspace instance. Synchronous (workerd's
 * `node:crypto`): the document builder asks for a picture's medium while it writes the body.
 */
export function keyedMediaId(env: Pick<Env, 'JWT_SECRET'>, owner: Pick<MediaOwner, 'workspaceId' | 'workspaceInstance'>, sha256: string): string {
  const mac = createHmac('sha256', mediaIdKey(env.JWT_SECRET!)).update(`${owner.workspaceId}\n${owner.workspaceInstance}\n${sha256}`).digest('hex');
  return uuidFromHash(mac);
}

/** A PNG's keyed medium in its owner's workspace (its bytes not yet written: `putKeyedPng`). */
export function keyedMedium(env: Pick<Env, 'JWT_SECRET'>, owner: MediaOwner, png: Uint8Array): StoredPng {
  const sha256 = pngSha256(png);
  const mediaId = keyedMediaId(env, owner, sha256);
  return { mediaId, sha256, storageKey: keyedStorageKey(mediaId), size: png.length };
}

/**
 * Writes a keyed medium's bytes unless `alreadyStored` says this printer's object wrote them
 * lately (R2 writes are the billed operations; the same bytes would only be written again under the same key).
 */
export async function putKeyedPng(env: Env, png: Uint8Array, medium: StoredPng, owner: MediaOwner, alreadyStored?: StoredKeys): Promise<void> {
  if (alreadyStored?.has(medium.storageKey)) return;
  const customMetadata = { sha256: medium.sha256, workspaceId: owner.workspaceId, workspaceInstance: owner.workspaceInstance, printerId: owner.printerId };
  await env.MEDIA.put(medium.storageKey, png, { httpMetadata: { contentType: 'image/png' }, customMetadata, sha256: medium.sha256 });
  alreadyStored?.add(medium.storageKey);
}

/** Stores the PNG as its keyed medium (see putKeyedPng). */
export async function putPng(env: Env, png: Uint8Array, owner: MediaOwner, alreadyStored?: StoredKeys): Promise<StoredPng> {
  const medium = keyedMedium(env, owner, png);
  await putKeyedPng(env, png, medium, owner, alreadyStored);
  return medium;
}

/** The owner of a printer's images, from its row. */
export const mediaOwnerOf = (row: { id: string; workspace_id: string; workspace_created_at?: string | null }): MediaOwner => ({
  workspaceId: row.workspace_id, workspaceInstance: row.workspace_created_at ?? '', printerId: row.id,
});

/**
 * How long a printer's object trusts that an object it wrote is still in R2. While an image is
 * in use it is written again at least this often, which keeps its R2 `uploaded` time recent;
 * deletion leaves objects uploaded within the MEDIA_KEEP_RECENT_MS setting alone (document-deletion.ts),
 * so an image whose index row still waits in some printer's outbox is never deleted under it.
 */
export const STORED_KEY_TTL_MS = 60_000;
/** Default of the MEDIA_KEEP_RECENT_MS setting: a printer's write interval plus its outbox's flush delay, twice over. */
export const RECENTLY_UPLOADED_MS = 2 * (STORED_KEY_TTL_MS + 30_000);

/** Keys a printer's object wrote to R2 in the last `STORED_KEY_TTL_MS` (bounded). */
export class StoredKeys {
  private readonly writtenAt = new Map<string, number>();
  private readonly ttlMs: number;
  /** Trusted for less than half of `keepRecentMs`, so no object it trusts can be deleted as old. */
  constructor(keepRecentMs: number, private readonly max = 4096) {
    this.ttlMs = Math.min(STORED_KEY_TTL_MS, keepRecentMs / 2);
  }
  has(key: string): boolean {
    const at = this.writtenAt.get(key);
    return at !== undefined && Date.now() - at < this.ttlMs;
  }
  add(key: string): void {
    if (this.writtenAt.size >= this.max) this.writtenAt.clear();
    this.writtenAt.set(key, Date.now());
  }
}

export function mediaUrl(mediaId: string): string {
  return `/api/media/${mediaId}`;
}

/** One media index row (D1 `media`): one use of an image by a document or an NV slot. */
export interface MediaIndexRow {
  id: string;
  workspaceId: string;
  printerId: string;
  documentId: string | null;
  stored: Pick<StoredPng, 'size' | 'sha256' | 'storageKey'>;
  createdAt: string;
}

export function insertMediaStatement(db: D1Database, m: MediaIndexRow): D1PreparedStatement {
  return insertMediaRowsStatement(db, [m]);
}

/** D1 binds at most 100 parameters per statement: 12 rows of 8. */
export const MEDIA_ROWS_PER_STATEMENT = 12;

export function insertMediaRowsStatement(db: D1Database, rows: readonly MediaIndexRow[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO media (id, workspace_id, printer_id, document_id, content_type, size, sha256, storage_key, created_at)
       VALUES ${rows.map(() => "(?, ?, ?, ?, 'image/png', ?, ?, ?, ?)").join(', ')}`,
    )
    .bind(...rows.flatMap((m) => [m.id, m.workspaceId, m.printerId, m.documentId, m.stored.size, m.stored.sha256, m.stored.storageKey, m.createdAt]));
}
