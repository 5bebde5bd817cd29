/**
 * Shared helpers for the workers suite: calling the Worker inside workerd, creating
 * workspaces/printers/documents with fresh ids, and asserting the contract's response rules
 * (content type, problem+json shape, camelCase, null omission, always-present stamps).
 */
import { exports } from 'cloudflare:workers';
import { pollUntil } from '../support/poll.ts';
import { env as testEnv } from 'cloudflare:test';
import { expect } from 'vitest';
import { TEST_ADMIN_SECRET, TEST_ADMIN_WORKSPACE_ID, TEST_JWT_SECRET } from './constants.ts';
import type { PrinterObject } from '../../src/worker/objects/printer-object.ts';

export { TEST_ADMIN_SECRET, TEST_ADMIN_WORKSPACE_ID, TEST_JWT_SECRET };

/** Bindings of the Worker under test (D1, R2, Durable Objects, variables). */
export const env = testEnv as unknown as {
  DB: D1Database;
  MEDIA: R2Bucket;
  PRINTER: DurableObjectNamespace<PrinterObject>;
  JWT_SECRET: string;
  ADMIN_WORKSPACE_IDS: string;
  [k: string]: unknown;
};

const worker = (exports as unknown as { default: { fetch(req: Request): Promise<Response> } }).default;

export const BASE = 'http://localhost';

export interface CallOptions {
  method?: string;
  /** Access token (Bearer). */
  token?: string;
  /** A JSON body (serialised here, content type application/json). */
  json?: unknown;
  /** A raw body; give the content type in headers. */
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** One request to the Worker's default export. */
export async function call(path: string, opts: CallOptions = {}): Promise<Response> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  let body: BodyInit | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const method = opts.method ?? (body !== undefined ? 'POST' : 'GET');
  const res = await worker.fetch(new Request(BASE + path, { method, headers, body }));
  requestPaths.set(res, new URL(BASE + path).pathname);
  return res;
}

/** The request path of each response from `call`, for problem `instance` checks. */
const requestPaths = new WeakMap<Response, string>();

/** Asserts status and an `application/json` body; returns the parsed body. */
export async function expectJson<T = any>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, `${requestPaths.get(res) ?? res.url} answered ${res.status}: ${text.slice(0, 500)}`).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  return JSON.parse(text) as T;
}

export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail: string;
  instance: string;
  errors?: Record<string, string[]>;
}

/** Asserts status and an `application/problem+json` body with status/detail/instance. */
export async function expectProblem(res: Response, status: number, opts: { errors?: boolean } = {}): Promise<Problem> {
  const text = await res.text();
  expect(res.status, `${requestPaths.get(res) ?? res.url} answered ${res.status}: ${text.slice(0, 500)}`).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json\b/);
  const body = JSON.parse(text) as Problem;
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(typeof body.instance).toBe('string');
  const path = requestPaths.get(res);
  if (path) expect(body.instance).toBe(path);
  if (opts.errors) {
    expect(body.errors, `problem has no "errors": ${text.slice(0, 300)}`).toBeTypeOf('object');
    expect(Object.keys(body.errors!).length).toBeGreaterThan(0);
    for (const msgs of Object.values(body.errors!)) {
      expect(Array.isArray(msgs)).toBe(true);
      for (const m of msgs) expect(typeof m).toBe('string');
    }
  }
  assertCamelCase(body);
  return body;
}

/** Asserts a status with no body expectations beyond "no JSON error" (204 etc.). */
export async function expectStatus(res: Response, status: number): Promise<string> {
  const text = await res.text();
  expect(res.status, `${requestPaths.get(res) ?? res.url} answered ${res.status}: ${text.slice(0, 500)}`).toBe(status);
  return text;
}

/** Property names in response bodies are camelCase (no PascalCase, no snake_case). */
export function assertCamelCase(value: unknown, path = '$', skipUnder: string[] = ['parameters', 'errors']): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertCamelCase(v, `${path}[${i}]`, skipUnder));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    expect(k, `property ${path}.${k} is not camelCase`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    // Free-form maps (debug element parameters, problem errors) have arbitrary keys.
    if (!skipUnder.includes(k)) assertCamelCase(v, `${path}.${k}`, skipUnder);
  }
}

/** Nullable stamps that the contract says are always emitted (may be null). */
export const ALWAYS_PRESENT_NULLABLE = ['lastDocumentReceivedAt', 'lastApiReadAt', 'lastWebReadAt'];

/** Null omission: no property is null except the always-present nullable stamps. */
export function assertNoNulls(value: unknown, allowed: string[] = ALWAYS_PRESENT_NULLABLE, path = '$'): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertNoNulls(v, allowed, `${path}[${i}]`));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (v === null) expect(allowed, `${path}.${k} is null but nulls must be omitted`).toContain(k);
    else assertNoNulls(v, allowed, `${path}.${k}`);
  }
}

/** Camel case plus null omission, the two rules every JSON response follows. */
export function assertResponseRules(value: unknown): void {
  assertCamelCase(value);
  assertNoNulls(value);
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 date-time with an offset (Z or ±hh:mm). */
export const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const uuid = (): string => crypto.randomUUID();

export function expectDateTime(v: unknown): void {
  expect(typeof v).toBe('string');
  expect(v as string).toMatch(DATE_TIME_RE);
  expect(Number.isNaN(Date.parse(v as string))).toBe(false);
}

export function expectNullableDateTime(obj: Record<string, unknown>, key: string): void {
  expect(obj, `${key} must always be emitted`).toHaveProperty(key);
  if (obj[key] !== null) expectDateTime(obj[key]);
}

// ---- workspaces and auth ----------------------------------------------------------------

export interface Ws {
  id: string;
  name: string;
  /** Workspace token (shown once at creation). */
  token: string;
  /** Access token (JWT) from login. */
  accessToken: string;
}

export async function createWorkspaceRaw(id = uuid(), name = `ws-${id.slice(0, 8)}`): Promise<{ id: string; name: string; token: string }> {
  const headers = id.toLowerCase() === TEST_ADMIN_WORKSPACE_ID ? { 'x-admin-secret': TEST_ADMIN_SECRET } : undefined;
  const res = await call('/api/workspaces', { json: { id, workspaceName: name }, headers });
  const body = await expectJson(res, 200);
  expect(body.id).toBe(id);
  expect(typeof body.token).toBe('string');
  return body;
}

export async function login(workspaceToken: string): Promise<{ accessToken: string; tokenType: string; expiresInSeconds: number; workspace: any }> {
  return expectJson(await call('/api/auth/login', { json: { token: workspaceToken } }), 200);
}

/** A fresh workspace, logged in. */
export async function newWorkspace(id = uuid(), name?: string): Promise<Ws> {
  const created = await createWorkspaceRaw(id, name);
  const { accessToken } = await login(created.token);
  return { id: created.id, name: created.name, token: created.token, accessToken };
}

let adminPromise: Promise<Ws> | null = null;
/** The admin workspace of this test file (storage is per file), created once. */
export function adminWorkspace(): Promise<Ws> {
  adminPromise ??= newWorkspace(TEST_ADMIN_WORKSPACE_ID, 'Admin workspace');
  return adminPromise;
}

export async function getWorkspace(ws: Ws, headers?: Record<string, string>) {
  return expectJson(await call('/api/workspaces', { token: ws.accessToken, headers }), 200);
}

// ---- printers -----------------------------------------------------------------------------

export interface PrinterSettingsInput {
  protocol?: 'EscPos' | 'Epl' | string;
  widthInDots?: number;
  heightInDots?: number | null;
  emulateBufferCapacity?: boolean;
  bufferDrainRate?: number | null;
  bufferMaxCapacity?: number | null;
  [k: string]: unknown;
}

export function printerBody(id = uuid(), displayName = `printer-${id.slice(0, 8)}`, settings: PrinterSettingsInput = {}) {
  return {
    printer: { id, displayName },
    settings: { protocol: 'EscPos', widthInDots: 384, heightInDots: null, emulateBufferCapacity: false, bufferDrainRate: null, bufferMaxCapacity: null, ...settings },
  };
}

export async function createPrinter(ws: Ws, opts: { id?: string; displayName?: string; settings?: PrinterSettingsInput } = {}): Promise<any> {
  const res = await call('/api/printers', { token: ws.accessToken, json: printerBody(opts.id, opts.displayName, opts.settings) });
  return expectJson(res, 200);
}

export async function getPrinter(ws: Ws, id: string): Promise<any> {
  return expectJson(await call(`/api/printers/${id}`, { token: ws.accessToken }), 200);
}

// ---- documents ----------------------------------------------------------------------------

export async function importDoc(ws: Ws, printerId: string, data: string, format?: 'Hex' | 'Base64'): Promise<void> {
  const res = await call(`/api/printers/${printerId}/documents/import`, {
    token: ws.accessToken,
    json: format ? { data, format } : { data },
  });
  await expectStatus(res, 204);
}

export async function listDocs(ws: Ws, printerId: string, query = '', headers?: Record<string, string>): Promise<any> {
  const body = await expectJson(await call(`/api/printers/${printerId}/documents/canvas${query}`, { token: ws.accessToken, headers }), 200);
  for (const d of body.result?.items ?? []) printerOfDocument.set(d.id, d.printerId);
  return body;
}

/** Which printer each listed document belongs to (documents live in their printer's Durable Object). */
const printerOfDocument = new Map<string, string>();

/** The newest document of a printer (status polls included). */
export async function latestDoc(ws: Ws, printerId: string): Promise<any> {
  const body = await listDocs(ws, printerId, '?Limit=1&IncludeStatusPolls=true');
  expect(body.result.items?.length).toBe(1);
  return body.result.items[0];
}

/** Hex of an ESC/POS job: ESC @, the text, LF. */
export function escposTextHex(text: string): string {
  const bytes = [0x1b, 0x40, ...new TextEncoder().encode(text), 0x0a];
  return toHex(bytes, ' ');
}

export function toHex(bytes: ArrayLike<number>, sep = ''): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(sep);
}

export function toBase64(bytes: ArrayLike<number>): string {
  let s = '';
  for (const b of Array.from(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

export async function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Polls `fn` until it returns a truthy value (for effects written via waitUntil). */
export function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 3000, stepMs = 25): Promise<T> {
  return pollUntil(fn, { timeoutMs, everyMs: stepMs, what: `a condition within ${timeoutMs} ms` });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Elements of every canvas of a document, flattened. */
export function elementsOf(doc: any): any[] {
  return (doc.canvases as any[]).flatMap((c) => c.items as any[]);
}

/** Checks the RenderedDocumentDto shape shared by the list and the canvas stream. */
export function assertRenderedDocument(doc: any, printerId: string, protocol: 'EscPos' | 'Epl' = 'EscPos'): void {
  expect(doc.id).toMatch(UUID_RE);
  expect(doc.printJobId).toMatch(UUID_RE);
  expect(doc.printerId).toBe(printerId);
  expectDateTime(doc.timestamp);
  expect(doc.protocol).toBe(protocol);
  expect(Array.isArray(doc.canvases)).toBe(true);
  expect(doc.canvases.length).toBeGreaterThan(0);
  for (const c of doc.canvases) {
    expect(Number.isInteger(c.widthInDots)).toBe(true);
    expect(Array.isArray(c.items)).toBe(true);
    for (const el of c.items) {
      expect(typeof el.commandRaw).toBe('string');
      expect(Array.isArray(el.commandDescription)).toBe(true);
      expect(Number.isInteger(el.lengthInBytes)).toBe(true);
      expect(['text', 'image', 'line', 'box', 'debug']).toContain(el.type);
    }
  }
  expect(Number.isInteger(doc.bytesReceived)).toBe(true);
  expect(Number.isInteger(doc.bytesSent)).toBe(true);
  const debugBytes = elementsOf(doc).filter((e) => e.type === 'debug').reduce((a, e) => a + e.lengthInBytes, 0);
  expect(debugBytes, 'debug elements lengthInBytes must add up to bytesReceived').toBe(doc.bytesReceived);
  assertCamelCase(doc);
  assertNoNulls(doc, []);
}

/** An ESC/POS job with one GS v 0 raster image (16 x 16 dots), so its document has media. */
/**
 * A GS v 0 raster of 384 x 200 dots of noise: its PNG is over 8 KiB, so it is stored as a
 * content-addressed medium of its own (smaller pictures go into their document's pack).
 */
export function escposLargeRasterHex(seed = 0): string {
  let x = seed * 2654435761 + 1;
  const noise = Array.from({ length: 48 * 200 }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16) & 0xff);
  return toHex([0x1b, 0x40, 0x1d, 0x76, 0x30, 0x00, 48, 0x00, 200, 0x00, ...noise, 0x0a], ' ');
}

export function escposRasterHex(seed = 0): string {
  const raster = [0x1d, 0x76, 0x30, 0x00, 0x02, 0x00, 0x10, 0x00, ...Array.from({ length: 32 }, (_, i) => (i * 37 + seed * 11) & 0xff)];
  return toHex([0x1b, 0x40, ...raster, 0x0a], ' ');
}

/**
 * Moves documents back in time (in their printer's Durable Object, statistics counters
 * included), for retention tests. The documents must have been listed (listDocs) before.
 */
export async function ageDocuments(ids: string[], days: number): Promise<void> {
  const at = new Date(Date.now() - days * 86400_000).toISOString();
  const byPrinter = new Map<string, string[]>();
  for (const id of ids) {
    const printerId = printerOfDocument.get(id);
    if (!printerId) throw new Error(`ageDocuments: document ${id} was never listed`);
    byPrinter.set(printerId, [...(byPrinter.get(printerId) ?? []), id]);
  }
  for (const [printerId, docs] of byPrinter) await env.PRINTER.get(env.PRINTER.idFromName(printerId)).backdateDocuments(printerId, docs, at);
}

/** Ids of a printer's documents, newest first (at most 100). */
export async function docIds(ws: Ws, printerId: string): Promise<string[]> {
  return ((await listDocs(ws, printerId, '?Limit=100')).result.items ?? []).map((d: any) => d.id);
}
