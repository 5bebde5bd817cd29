import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { problems } from '../schemas/common.ts';
import { MediaIdParam } from '../schemas/document.ts';
import { notFound } from '../http/problem.ts';
import { contentStorageKey } from '../services/media-store.ts';
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
    const id = mediaId.toLowerCase();
    const inm = c.req.header('if-none-match');
    // A small picture's bytes are in a pack; its id says where (media-pack.ts).
    const packed = packedMediaLocation(id);
    const picture = packed ? await readPackedPicture(c.env.MEDIA, packed) : null;
    if (picture) {
      const headers = mediaHeaders(`"sha256:${pngSha256(picture)}"`, 'image/png');
      if (isNotModified(inm, headers.etag)) return new Response(null, { status: 304, headers }) as never;
      return new Response(picture as Uint8Array<ArrayBuffer>, { status: 200, headers }) as never;
    }
    // NV images and media stored before content addressing have an index row naming their key;
    // a document's image is found by its content-derived id alone (media-store.ts), so its URL
    // works before the printer's outbox has written the index row.
    const m = await c.env.DB
      .prepare('SELECT content_type, sha256, storage_key FROM media WHERE id = ?')
      .bind(id)
      .first<{ content_type: string; sha256: string; storage_key: string }>();
    const obj = m ? null : await c.env.MEDIA.get(contentStorageKey(id));
    const sha256 = m?.sha256 ?? obj?.customMetadata?.sha256;
    if (!sha256) throw notFound(`Media ${mediaId} was not found`);
    const headers = mediaHeaders(`"sha256:${sha256}"`, m?.content_type ?? 'image/png');
    if (isNotModified(inm, headers.etag)) {
      await obj?.body.cancel();
      return new Response(null, { status: 304, headers }) as never;
    }
    const bytes = obj ?? (await c.env.MEDIA.get(m!.storage_key));
    if (!bytes) throw notFound(`Media ${mediaId} has no stored bytes`);
    return new Response(bytes.body, { status: 200, headers }) as never;
  },
);

function mediaHeaders(etag: string, contentType: string) {
  return { etag, 'cache-control': 'public, max-age=31536000, immutable', 'content-type': contentType };
}

function isNotModified(inm: string | undefined, etag: string): boolean {
  return !!inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
