import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { problems } from '../schemas/common.ts';
import { MediaIdParam } from '../schemas/document.ts';
import { notFound } from '../http/problem.ts';
import { keyedStorageKey, legacyStorageKey } from '../services/media-store.ts';
import type { Env } from '../env.ts';
import { packedMediaLocation, readPackedPicture } from '../services/media-pack.ts';
import { pngSha256 } from '../services/png-hash.ts';

export const mediaRoutes = new OpenAPIHono<AppEnv>();

mediaRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/media/{mediaId}', operationId: 'getMedia', tags: ['Media'],
    summary: 'Image bytes (anonymous, immutable); ETag "sha256:<hex>", If-None-Match answers 304',
    request: { params: MediaIdParam },
    responses: {
      200: { description: 'PNG bytes', content: { 'image/png': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } },
      304: { description: 'Not modified' },
      ...problems(400, 404),
    },
  }),
  async (c) => {
    const { mediaId } = c.req.valid('param');
    const found = await readableMedia(c.env, mediaId.toLowerCase());
    if (!found) throw notFound(`Media ${mediaId} was not found`);
    const etag = `"sha256:${found.sha256}"`;
    const headers = { etag, 'cache-control': 'public, max-age=31536000, immutable', 'content-type': found.contentType };
    const inm = c.req.header('if-none-match');
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      await found.object?.body.cancel();
      return new Response(null, { status: 304, headers }) as never;
    }
    if (found.bytes) return new Response(found.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers }) as never;
    const bytes = found.object ?? (await c.env.MEDIA.get(found.storageKey));
    if (!bytes) throw notFound(`Media ${mediaId} has no stored bytes`);
    return new Response(bytes.body, { status: 200, headers }) as never;
  },
);

interface FoundMedia { sha256: string; contentType: string; storageKey: string; object: R2ObjectBody | null; bytes?: Uint8Array }

/**
 * A medium, only while it belongs to something that exists (extensions.md "Boundaries"): from
 * the moment a workspace or printer delete has answered, its images answer 404, although R2 may
 * hold their bytes a little longer (docs/decisions.md "Deleting").
 * - a document's image (keyed id, media-store.ts): its object's workspace instance exists, and
 *   the printer that wrote it is live or a media row of a live printer uses it;
 * - a small picture in a pack (media-pack.ts: the id says where): the same, for its pack;
 * - an NV image: its index row, of a live printer;
 * - an image stored before keyed ids: a media row of a live printer uses it.
 */
async function readableMedia(env: Env, id: string): Promise<FoundMedia | null> {
  const packed = packedMediaLocation(id);
  const picture = packed ? await readPackedPicture(env.MEDIA, packed) : null;
  if (packed && picture) {
    if (!(await inUse(env, packed.packKey, picture.meta))) return null;
    return { sha256: pngSha256(picture.bytes), contentType: 'image/png', storageKey: packed.packKey, object: null, bytes: picture.bytes };
  }
  const keyed = await env.MEDIA.get(keyedStorageKey(id));
  if (keyed) {
    const meta = keyed.customMetadata ?? {};
    if (await inUse(env, keyed.key, meta)) return { sha256: meta.sha256 ?? '', contentType: 'image/png', storageKey: keyed.key, object: keyed };
    await keyed.body.cancel();
    return null;
  }
  const row = await env.DB
    .prepare(
      `SELECT m.content_type, m.sha256, m.storage_key FROM media m JOIN printers p ON p.id = m.printer_id AND p.deleted_at IS NULL
       WHERE m.id = ?`,
    )
    .bind(id)
    .first<{ content_type: string; sha256: string; storage_key: string }>();
  if (row) return { sha256: row.sha256, contentType: row.content_type, storageKey: row.storage_key, object: null };
  const legacy = await env.MEDIA.get(legacyStorageKey(id));
  if (!legacy) return null;
  if (legacy.customMetadata?.sha256 && (await inUse(env, legacy.key, {}))) {
    return { sha256: legacy.customMetadata.sha256, contentType: 'image/png', storageKey: legacy.key, object: legacy };
  }
  await legacy.body.cancel();
  return null;
}

/** One D1 statement: the object's workspace instance and writer, or any live use of its key. */
async function inUse(env: Env, storageKey: string, meta: Record<string, string>): Promise<boolean> {
  const r = await env.DB
    .prepare(
      `SELECT (SELECT 1 FROM workspaces WHERE id = ?1 AND created_at = ?2) AS workspace,
              (SELECT 1 FROM printers WHERE id = ?3 AND workspace_id = ?1 AND deleted_at IS NULL) AS writer,
              (SELECT 1 FROM media m JOIN printers p ON p.id = m.printer_id AND p.deleted_at IS NULL WHERE m.storage_key = ?4 LIMIT 1) AS used`,
    )
    .bind(meta.workspaceId ?? '', meta.workspaceInstance ?? '', meta.printerId ?? '', storageKey)
    .first<{ workspace: number | null; writer: number | null; used: number | null }>();
  if (!r) return false;
  // Legacy objects name no workspace: only a live use counts.
  if (!meta.workspaceId) return r.used === 1;
  return r.workspace === 1 && (r.writer === 1 || r.used === 1);
}
