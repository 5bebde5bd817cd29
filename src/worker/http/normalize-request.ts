import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-types.ts';
import { badRequest } from './problem.ts';

/**
 * Request property names are matched case-insensitively (contract section 2). Every key a
 * request schema knows is registered here; incoming JSON keys and query parameter names
 * are renamed to their canonical spelling before zod validation runs.
 */
const canonicalKeys = new Map<string, string>();

export function registerRequestKeys(...keys: string[]): void {
  for (const k of keys) canonicalKeys.set(k.toLowerCase(), k);
}

function canonicalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalise);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[canonicalKeys.get(k.toLowerCase()) ?? k] = canonicalise(v);
  return out;
}

export const normalizeRequest: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  let changed = false;
  const query = new URLSearchParams();
  for (const [k, v] of url.searchParams) {
    const canonical = canonicalKeys.get(k.toLowerCase()) ?? k;
    if (canonical !== k) changed = true;
    query.append(canonical, v);
  }
  if (changed) url.search = query.toString();

  let body: BodyInit | null | undefined;
  const type = c.req.header('content-type') ?? '';
  if (['POST', 'PUT', 'PATCH'].includes(c.req.method) && type.includes('json')) {
    const text = await c.req.raw.text();
    if (text.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        throw badRequest(`The request body is not valid JSON: ${(e as Error).message}`);
      }
      body = JSON.stringify(canonicalise(parsed));
    } else {
      body = text;
    }
    changed = true;
  }
  if (changed) {
    const init: RequestInit = { method: c.req.method, headers: c.req.raw.headers };
    if (body !== undefined) init.body = body;
    c.req.raw = new Request(url.toString(), init);
  }
  await next();
};
