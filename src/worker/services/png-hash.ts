import { createHash } from 'node:crypto';

/**
 * A PNG's SHA-256 (hex), computed synchronously (workerd's `node:crypto`, `nodejs_compat`) and
 * once per PNG object: the engines hand the same bytes for every use of one bitmap (raster/png.ts),
 * so a symbol, logo or band drawn many times is hashed once. WebCrypto's digest is a promise per
 * call: a document's pictures were hashed one await after another (issue 26).
 */
const hashOf = new WeakMap<Uint8Array, string>();

export function pngSha256(png: Uint8Array): string {
  let h = hashOf.get(png);
  if (h === undefined) hashOf.set(png, (h = createHash('sha256').update(png).digest('hex')));
  return h;
}
