import type { Env } from '../env.ts';
import { Bitmap } from '../../engines/raster/bitmap.ts';
import { decodePngToBitmap, encodeBitmapPng } from '../../engines/raster/png.ts';
import { insertMediaStatement, mediaOwnerOf, mediaUrl, putPng } from './media-store.ts';
import { unreferencedKeys } from './document-deletion.ts';
import { nowIso } from '../data/rows.ts';
import { readSettings } from '../config.ts';

/**
 * NV bit image slots (1..255) of a printer, whether uploaded through the API or defined
 * over TCP (FS q, GS ( L). The bitmap is kept as a PNG media object.
 */
export interface NvImageEntry { slot: number; widthInDots: number; heightInDots: number; mediaId: string; storageKey: string }

export async function listNvImages(env: Env, printerId: string): Promise<NvImageEntry[]> {
  const { results } = await env.DB
    .prepare(
      `SELECT n.slot, n.width_in_dots, n.height_in_dots, n.media_id, m.storage_key FROM nv_images n
       JOIN media m ON m.id = n.media_id WHERE n.printer_id = ? ORDER BY n.slot`,
    )
    .bind(printerId)
    .all<{ slot: number; width_in_dots: number; height_in_dots: number; media_id: string; storage_key: string }>();
  return results.map((r) => ({ slot: r.slot, widthInDots: r.width_in_dots, heightInDots: r.height_in_dots, mediaId: r.media_id, storageKey: r.storage_key }));
}

export const nvImageDto = (e: NvImageEntry) => ({ slot: e.slot, widthInDots: e.widthInDots, heightInDots: e.heightInDots, mediaUrl: mediaUrl(e.mediaId) });

export async function saveNvImage(env: Env, printer: { id: string; workspace_id: string; workspace_created_at?: string | null }, slot: number, bitmap: Bitmap): Promise<NvImageEntry> {
  const stored = await putPng(env, encodeBitmapPng(bitmap).png, mediaOwnerOf(printer));
  const mediaId = crypto.randomUUID();
  const previous = await env.DB.prepare('SELECT media_id FROM nv_images WHERE printer_id = ? AND slot = ?').bind(printer.id, slot).first<{ media_id: string }>();
  const now = nowIso();
  await env.DB.batch([
    insertMediaStatement(env.DB, { id: mediaId, workspaceId: printer.workspace_id, printerId: printer.id, documentId: null, stored, createdAt: now }),
    env.DB
      .prepare(
        `INSERT INTO nv_images (printer_id, slot, width_in_dots, height_in_dots, media_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (printer_id, slot) DO UPDATE SET width_in_dots = excluded.width_in_dots, height_in_dots = excluded.height_in_dots,
           media_id = excluded.media_id, updated_at = excluded.updated_at`,
      )
      .bind(printer.id, slot, bitmap.width, bitmap.height, mediaId, now),
  ]);
  if (previous) await deleteMedia(env, previous.media_id);
  return { slot, widthInDots: bitmap.width, heightInDots: bitmap.height, mediaId, storageKey: stored.storageKey };
}

/** Returns false when the slot was empty. */
export async function deleteNvImage(env: Env, printerId: string, slot: number): Promise<boolean> {
  const row = await env.DB.prepare('SELECT media_id FROM nv_images WHERE printer_id = ? AND slot = ?').bind(printerId, slot).first<{ media_id: string }>();
  if (!row) return false;
  await env.DB.prepare('DELETE FROM nv_images WHERE printer_id = ? AND slot = ?').bind(printerId, slot).run();
  await deleteMedia(env, row.media_id);
  return true;
}

async function deleteMedia(env: Env, mediaId: string): Promise<void> {
  const m = await env.DB.prepare('SELECT storage_key FROM media WHERE id = ?').bind(mediaId).first<{ storage_key: string }>();
  await env.DB.prepare('DELETE FROM media WHERE id = ?').bind(mediaId).run();
  if (m) {
    const orphans = await unreferencedKeys(env.DB, [m.storage_key], { bucket: env.MEDIA, keepMs: readSettings(env).mediaKeepRecentMs });
    if (orphans.length) await env.MEDIA.delete(orphans);
  }
}

/** All NV bitmaps of a printer, for the engine context. */
export async function loadNvBitmaps(env: Env, printerId: string): Promise<Map<number, Bitmap>> {
  const out = new Map<number, Bitmap>();
  for (const e of await listNvImages(env, printerId)) {
    const obj = await env.MEDIA.get(e.storageKey);
    if (!obj) continue;
    out.set(e.slot, decodePngToBitmap(new Uint8Array(await obj.arrayBuffer())));
  }
  return out;
}
