/**
 * The caller's address. On Cloudflare `CF-Connecting-IP` is set by the edge and cannot be forged;
 * `X-Forwarded-For` is only believed behind a proxy the operator declared (TRUST_PROXY), where
 * the proxy's own entry is the last one. Under `wrangler dev` without either, all callers share
 * "local".
 */
export function clientAddress(request: Request, trustProxy: boolean): string {
  const cf = request.headers.get('cf-connecting-ip');
  if (cf) return cf.trim();
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  return 'local';
}

/** True when the client reached us over TLS (directly, or at a trusted TLS-terminating proxy). */
export function isSecureRequest(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return trustProxy && request.headers.get('x-forwarded-proto')?.split(',')[0].trim().toLowerCase() === 'https';
}
