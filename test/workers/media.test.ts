/**
 * Media (contract "Media", decisions.md "Documents and rendering"): an image element's
 * media is served anonymously as PNG with ETag "sha256:<hex>", If-None-Match answers 304,
 * immutable caching, 404 for unknown ids, 400 for malformed ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'fast-png';
import {
  call, createPrinter, elementsOf, env, escposLargeRasterHex, expectProblem, importDoc, latestDoc, newWorkspace, sha256Hex, toHex, UUID_RE, type Ws,
} from './helpers.ts';

let ws: Ws;
let image: any;
let mediaId: string;

/** GS v 0: raster bit image, 2 bytes (16 dots) wide, 16 rows: a diagonal-ish pattern. */
const RASTER = [0x1d, 0x76, 0x30, 0x00, 0x02, 0x00, 0x10, 0x00, ...Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 0xf0 : 0x0f) ^ (i * 7 & 0xff))];

beforeAll(async () => {
  ws = await newWorkspace();
  const p = await createPrinter(ws);
  await importDoc(ws, p.printer.id, toHex([0x1b, 0x40, ...RASTER, 0x0a], ' '));
  const doc = await latestDoc(ws, p.printer.id);
  image = elementsOf(doc).find((e) => e.type === 'image');
  expect(image, `no image element in ${JSON.stringify(doc).slice(0, 400)}`).toBeDefined();
  mediaId = image.media.url.split('/').pop();
});

describe('image elements', () => {
  it('carry a media reference with a /api/media/{uuid} url', () => {
    expect(image.media.contentType).toBe('image/png');
    expect(image.media.url).toMatch(/^\/api\/media\/[0-9a-f-]{36}$/);
    expect(mediaId).toMatch(UUID_RE);
    expect(Number.isInteger(image.media.size)).toBe(true);
    expect(typeof image.media.storageKey).toBe('string');
    expect(image.width).toBe(16);
    expect(image.height).toBe(16);
    expect(image).not.toHaveProperty('image'); // the raw PNG bytes never leak into the JSON
  });
});

/**
 * Opacity (0-255) of a decoded PNG pixel, for any colour type and bit depth (fast-png keeps
 * sub-byte depths packed). Without an alpha channel or tRNS, darkness stands in for opacity.
 */
function pixelAlpha(png: ReturnType<typeof decode>, x: number, y: number): number {
  const { width, channels, depth, palette, transparency } = png;
  const data = png.data as ArrayLike<number>;
  const max = (1 << depth) - 1;
  const sample = (c: number): number => {
    if (depth >= 8) return data[(y * width + x) * channels + c];
    const stride = Math.ceil((width * channels * depth) / 8);
    const bit = (x * channels + c) * depth;
    const byte = data[y * stride + (bit >> 3)];
    return (byte >> (8 - depth - (bit & 7))) & max;
  };
  if (palette) {
    const v = sample(0);
    if (transparency && v < transparency.length) return transparency[v];
    const [r, g, b] = palette[v] ?? [255, 255, 255];
    return 255 - Math.round((r + g + b) / 3);
  }
  if (channels === 2 || channels === 4) return Math.round((sample(channels - 1) / max) * 255);
  const grey = sample(0);
  if (transparency && grey === transparency[0]) return 0;
  return 255 - Math.round((grey / max) * 255);
}

describe('GET /api/media/{mediaId}', () => {
  it('serves the PNG anonymously with a sha256 ETag and immutable caching', async () => {
    const res = await call(image.media.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBe(image.media.size);
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(res.headers.get('etag')).toBe(`"sha256:${await sha256Hex(bytes)}"`);
    expect(res.headers.get('cache-control') ?? '').toMatch(/max-age=31536000/);
    expect(res.headers.get('cache-control') ?? '').toMatch(/immutable/);
    const png = decode(bytes);
    expect(png.width).toBe(16);
    expect(png.height).toBe(16);
  });

  it('renders the raster: black pixels opaque, white transparent, matching the bits', async () => {
    const bytes = new Uint8Array(await (await call(image.media.url)).arrayBuffer());
    const png = decode(bytes);
    const alphaAt = (x: number, y: number): number => pixelAlpha(png, x, y);
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) {
        const byte = RASTER[8 + y * 2 + (x >> 3)];
        const black = (byte >> (7 - (x & 7))) & 1;
        const alpha = alphaAt(x, y);
        if (black) expect(alpha, `pixel ${x},${y} should be opaque black`).toBeGreaterThan(127);
        else expect(alpha, `pixel ${x},${y} should be transparent`).toBeLessThan(128);
      }
    }
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const first = await call(image.media.url);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const res = await call(image.media.url, { headers: { 'If-None-Match': etag } });
    expect(res.status).toBe(304);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect(res.headers.get('etag')).toBe(etag);
    // weak form and lists of tags match too
    const weak = await call(image.media.url, { headers: { 'If-None-Match': `W/${etag}` } });
    expect(weak.status).toBe(304);
    await weak.arrayBuffer();
    const list = await call(image.media.url, { headers: { 'If-None-Match': `"sha256:0000", ${etag}` } });
    expect(list.status).toBe(304);
    await list.arrayBuffer();
    // a different tag gets the bytes
    const other = await call(image.media.url, { headers: { 'If-None-Match': '"sha256:deadbeef"' } });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it('matches the media id case-insensitively', async () => {
    const res = await call(`/api/media/${mediaId.toUpperCase()}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it('404 problem+json for an unknown id', async () => {
    await expectProblem(await call('/api/media/3f2b8c1e-9d4a-4c6b-8e7f-1a2b3c4d5e6f'), 404);
  });

  it('400 problem+json for a non-uuid id', async () => {
    await expectProblem(await call('/api/media/not-a-uuid'), 400, { errors: true });
    await expectProblem(await call('/api/media/12345'), 400, { errors: true });
  });

  it('identical images in two documents are served with the same ETag', async () => {
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, toHex([0x1b, 0x40, ...RASTER, 0x0a], ' '));
    const again = elementsOf(await latestDoc(ws, p.printer.id)).find((e) => e.type === 'image');
    // A small picture is in its document's pack (media-pack.ts): another URL, the same bytes.
    expect(again.media.url).not.toBe(image.media.url);
    const [r1, r2] = await Promise.all([call(image.media.url), call(again.media.url)]);
    expect(r1.headers.get('etag')).toBe(r2.headers.get('etag'));
    await Promise.all([r1.arrayBuffer(), r2.arrayBuffer()]);
  });

  it('a large image in two documents is one content-addressed medium under one URL', async () => {
    const urls = [];
    for (const _ of [1, 2]) {
      const p = await createPrinter(ws);
      await importDoc(ws, p.printer.id, escposLargeRasterHex(7));
      urls.push(elementsOf(await latestDoc(ws, p.printer.id)).find((e) => e.type === 'image').media.url);
    }
    expect(urls[0]).toBe(urls[1]);
    const res = await call(urls[0]);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(8 * 1024);
  });

  it('a large image keeps the media id WebCrypto gave it: HMAC of its workspace instance and SHA-256 under a key derived from JWT_SECRET', async () => {
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, escposLargeRasterHex(11));
    const url: string = elementsOf(await latestDoc(ws, p.printer.id)).find((e) => e.type === 'image').media.url;
    const sha = await sha256Hex(await (await call(url)).arrayBuffer());
    const { created_at: instance } = (await env.DB.prepare('SELECT created_at FROM workspaces WHERE id = ?').bind(ws.id).first<{ created_at: string }>())!;
    // The derivation as it was written with WebCrypto: media ids stored then must still be the ones computed now.
    const hmac = async (key: BufferSource, text: string) => new Uint8Array(await crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), new TextEncoder().encode(text)));
    const derived = await hmac(new TextEncoder().encode(env.JWT_SECRET), 'slipstream media ids v1');
    const h = [...await hmac(derived, `${ws.id}\n${instance}\n${sha}`)].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 32).split('');
    h[12] = '8';
    h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    const id = h.join('');
    expect(url).toBe(`/api/media/${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`);
  });

  it('a small picture whose pack is gone answers 404', async () => {
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, toHex([0x1b, 0x40, ...RASTER.slice(0, 8), ...RASTER.slice(8).map((b) => b ^ 0x55), 0x0a], ' '));
    const small = elementsOf(await latestDoc(ws, p.printer.id)).find((e) => e.type === 'image');
    expect((await call(small.media.url)).status).toBe(200);
    await env.MEDIA.delete(small.media.storageKey);
    await expectProblem(await call(small.media.url), 404);
  });
});
