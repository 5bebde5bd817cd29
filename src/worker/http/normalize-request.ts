import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './app-types.ts';
import { badRequest, HttpProblem } from './problem.ts';
import { yieldToOthers } from '../objects/light-jobs.ts';
import type { TextSink } from '../services/import-decoding.ts';
import { JsonRestTooLarge, JsonStringError, readStreamedField } from './streamed-json-field.ts';

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

/**
 * Routes whose JSON body has one top-level string property handed to a sink as the body
 * streams in (`http/streamed-json-field.ts`); hono's validator and the handler see the property
 * as `""`. Keyed by method and hono route path (`/api/printers/:id/...`).
 */
const streamedFields = new Map<string, { field: string; sink: (c: Context<AppEnv>) => TextSink }>();

export function streamJsonField(method: string, openApiPath: string, field: string, sink: (c: Context<AppEnv>) => TextSink): void {
  streamedFields.set(`${method.toUpperCase()} ${openApiPath.replace(/\{(\w+)\}/g, ':$1')}`, { field, sink });
}

/** Most bytes a streamed body holds besides its streamed property. */
const MAX_REST_BYTES = 1 << 20;
/** Bytes of a streamed body read between two pauses for other work on the shared thread. */
const STREAM_STEP_BYTES = 1 << 19;

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
      const body = canonicalise(await parseJsonBody(c));
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

async function parseJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await bodyText(c);
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
 * The body as text; a streamed route's without its streamed property (see `streamJsonField`).
 * A large one is decoded as it streams in:
 * `request.text()` had workerd gather the whole body in its own allocator first (twice its
 * size at the peak, memory workerd's allocator then kept), on top of the string.
 */
async function bodyText(c: Context<AppEnv>): Promise<string> {
  const request = c.req.raw;
  const streamed = request.body && matchedRoutes(c).map((r) => streamedFields.get(`${r.method} ${r.path}`)).find((f) => f !== undefined);
  if (streamed) return streamedBodyRest(c, request.body!, streamed.field, streamed.sink);
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (!request.body || length <= LARGE_BODY_CHARS) return request.text();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) parts.push(decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}

/** A streamed route's body without its streamed property's characters (they went to the sink). */
async function streamedBodyRest(c: Context<AppEnv>, body: ReadableStream<Uint8Array>, field: string, sink: (c: Context<AppEnv>) => TextSink): Promise<string> {
  try {
    return await readStreamedField(body, { field, sink: () => sink(c), maxRest: MAX_REST_BYTES, pause: yieldToOthers, pauseEvery: STREAM_STEP_BYTES });
  } catch (e) {
    if (e instanceof JsonStringError) {
      const message = `The request body is not valid JSON: ${e.message}`;
      throw badRequest(message, { $: [message] });
    }
    if (e instanceof JsonRestTooLarge) throw badRequest(e.message, { $: [e.message] });
    throw e;
  }
}
