/**
 * Security headers of every page and response: the web UI's static assets get them
 * through `public/_headers` (written by scripts/build-web.ts; Cloudflare's asset server and
 * `wrangler dev` apply it), Worker responses through the app middleware. One list for both.
 * Inline `style` attributes are used by the document renderer, hence 'unsafe-inline' for styles
 * only; scripts come from our own origin alone; nobody may frame the UI (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** `public/_headers` for the static assets (Cloudflare Workers static assets format). */
export function assetHeadersFile(): string {
  return ['/*', ...Object.entries(SECURITY_HEADERS).map(([k, v]) => `  ${k}: ${v}`), ''].join('\n');
}
