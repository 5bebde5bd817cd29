import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-types.ts';
import { badRequest, HttpProblem } from './problem.ts';
import { yieldToOthers } from '../objects/slices.ts';

/**
 * Request property names are matched case-insensitively (contract section 2). Every key a
 * request schema knows is registered here; incoming JSON keys and query parameter names
 * are renamed to their canonical spelling before zod validation runs.
 */
const canonicalKeys = new Map<string, string>();

export function registerRequestKeys(...keys: string[]): void {
  for (const k of keys) canonicalKeys.set(k.toLowerCase(), k);
}

const LARGE_BODY_CHARS = 1 << 20;

/** No request DTO nests deeper than a few levels; refuse pathological nesting early. */
const MAX_DEPTH = 32;

function canonicalise(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw badRequest('The JSON body is nested too deeply', { $: [`More than ${MAX_DEPTH} levels of nesting`] });
  if (Array.isArray(value)) return value.map((v) => canonicalise(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[canonicalKeys.get(k.toLowerCase()) ?? k] = canonicalise(v, depth + 1);
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

  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (['POST', 'PUT', 'PATCH'].includes(c.req.method)) {
    if (type.includes('json')) {
      const body = canonicalise(await parseJsonBody(c.req.raw));
      // The body is parsed once per request: the validator and handlers read this object.
      // Serialised again into a new Request, a 48 MiB import was five copies of its text.
      c.req.json = async <T>() => body as T;
    } else if (type !== '' && !type.startsWith('multipart/form-data')) {
      throw new HttpProblem(415, 'Unsupported Media Type', `Request bodies must be application/json (got ${type})`);
    }
  }
  if (changed) c.req.raw = new Request(url.toString(), { method: c.req.method, headers: c.req.raw.headers });
  await next();
};

async function parseJsonBody(request: Request): Promise<unknown> {
  const text = await bodyText(request);
  if (text.trim() === '') throw badRequest('A JSON request body is required', { $: ['The body is empty'] });
  // Decoding and parsing a large body (an import of up to 48 MiB) are two steps on the thread
  // the printer objects share, not one: other printers run in between.
  if (text.length > LARGE_BODY_CHARS) await yieldToOthers();
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = `The request body is not valid JSON: ${(e as Error).message}`;
    throw badRequest(message, { $: [message] });
  }
}

/**
 * The body as text. A large one (an import of up to 48 MiB) is decoded as it streams in:
 * `request.text()` had workerd gather the whole body in its own allocator first (twice its
 * size at the peak, memory workerd's allocator then kept), on top of the string.
 */
async function bodyText(request: Request): Promise<string> {
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (!request.body || length <= LARGE_BODY_CHARS) return request.text();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) parts.push(decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}
