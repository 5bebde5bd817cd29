import type { MiddlewareHandler } from 'hono';

/**
 * API responses and event streams are gzip-compressed when the client accepts it
 * (docs/contract/extensions.md "Storage and size"). The Workers runtime compresses a body whose response says
 * `Content-Encoding: gzip` while sending it (`encodeBody: "automatic"`, the default), so this
 * only chooses the encoding: compressing here as well (e.g. Hono's `compress`) would compress
 * twice. The runtime flushes each chunk as it is written, so SSE events still go out one by one.
 */
const COMPRESSIBLE = /^(application\/(json|problem\+json)|text\/event-stream)\b/i;

export const compressResponses: MiddlewareHandler = async (c, next) => {
  // Decided before the request is rebuilt by later middleware, which drops `cf`.
  const gzip = acceptsGzip(clientAcceptEncoding(c.req.raw));
  await next();
  const original = c.res;
  if (original.status < 200 || original.status === 204 || original.status === 206 || original.status === 304 || !original.body) return;
  if (original.headers.has('content-encoding') || !COMPRESSIBLE.test(original.headers.get('content-type') ?? '')) return;
  // Responses passed on from a Durable Object (the streams) have immutable headers.
  const res = new Response(original.body, original);
  const vary = res.headers.get('vary');
  if (!vary || !/accept-encoding/i.test(vary)) res.headers.append('vary', 'Accept-Encoding');
  if (gzip) {
    res.headers.set('content-encoding', 'gzip');
    res.headers.delete('content-length');
  }
  c.res = undefined;
  c.res = res;
};

/**
 * What the client itself accepts. Cloudflare's edge (and wrangler dev's proxy, which forwards
 * with a fetch that adds its own Accept-Encoding) rewrite the header the Worker sees; the
 * client's original value is `request.cf.clientAcceptEncoding`. Without it, plain `curl` got
 * gzip bytes it never asked for.
 */
function clientAcceptEncoding(request: Request): string | undefined {
  const original = (request as { cf?: { clientAcceptEncoding?: unknown } }).cf?.clientAcceptEncoding;
  // An empty string: the client sent none (seen under wrangler dev 4.156 with plain curl).
  if (typeof original === 'string') return original;
  return request.headers.get('accept-encoding') ?? undefined;
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (name === 'gzip' || name === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
