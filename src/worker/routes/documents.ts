import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, PrinterIdParam, problems } from '../schemas/common.ts';
import { DocumentFormQuery, DocumentIdParams, DocumentListQuery, DocumentListResponse, ImportRequest, LastViewedRequest, MAX_IMPORT_CHARS, NextDocumentQuery, RenderedDocumentDto } from '../schemas/document.ts';
import type { Context } from 'hono';
import type { PrinterRow } from '../data/rows.ts';
import { requireAuth } from '../auth/middleware.ts';
import { visiblePrinter } from '../services/printer-access.ts';
import { getDocumentJson, getDocumentRaw, listDocuments, nextDocumentJson, pageResponseBody } from '../services/documents.ts';
import { chooseFormat, CONTENT_TYPES, renderStoredDocument } from '../services/document-forms.ts';
import { CanvasIndexError } from '../../engines/render/index.ts';
import { recordRead } from '../services/read-stamps.ts';
import { decoderOfText, ImportDecoder, releaseNow } from '../services/import-decoding.ts';
import { yieldToOthers } from '../objects/light-jobs.ts';
import { badRequest, HttpProblem, notFound } from '../http/problem.ts';
import { printerStub } from '../services/notify.ts';
import { rpcTextString, type RpcText } from '../services/rpc-text.ts';
import { registerRequestKeys, streamJsonField } from '../http/normalize-request.ts';
import { beforeLargeWork } from '../objects/large-work-collection.ts';

registerRequestKeys('Limit', 'BeforeId', 'IncludeStatusPolls', 'Contains', 'data', 'format', 'documentId', 'canvas', 'after', 'timeoutSeconds');

/** `documents/next` waits this long when the caller does not say. */
const DEFAULT_NEXT_TIMEOUT_SECONDS = 30;

/** Reading documents through the API marks the printer read, like the list does, before it answers. */
async function stampRead(c: Context<AppEnv>, row: PrinterRow): Promise<void> {
  const caller = c.get('caller');
  await recordRead(c.env, row, { workspaceId: caller.workspace.id, client: caller.client });
}

export const documentRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Documents'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };

documentRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/documents/canvas', operationId: 'listDocuments', tags, ...authed,
    summary: 'Rendered documents, newest first, with cursor paging (counts as a read)',
    request: { params: PrinterIdParam, query: DocumentListQuery },
    responses: { 200: json(DocumentListResponse, 'A page of documents'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'read');
    const { Limit, BeforeId, IncludeStatusPolls, Contains } = c.req.valid('query');
    const page = await listDocuments(c.env, row.id, { limit: Limit ?? 20, beforeId: BeforeId, includeStatusPolls: IncludeStatusPolls !== 'false', contains: Contains });
    if (!page.ok) throw badRequest(`BeforeId ${BeforeId} is not a document of this printer`, { BeforeId: ['Unknown document id'] });
    await stampRead(c, row);
    // Bodies are stored serialised; splice them in rather than parse and re-serialise.
    return c.body(pageResponseBody(page), 200, { 'content-type': 'application/json' }) as never;
  },
);

documentRoutes.openapi(
  createRoute({
    method: 'delete', path: '/api/printers/{id}/documents', operationId: 'deleteDocuments', tags, ...authed, summary: 'Delete all documents of the printer',
    request: { params: PrinterIdParam },
    responses: { 204: { description: 'Cleared' }, ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    await printerStub(c.env, row.id).deleteDocuments(row.id, null);
    return c.body(null, 204);
  },
);

const IMPORT_PATH = '/api/printers/{id}/documents/import';

/**
 * An import's payload is decoded as its body streams in, by the decoder made here for the
 * request; the validator and the handler see `data` as `""`.
 */
const importDecoders = new WeakMap<Context, ImportDecoder>();
streamJsonField('POST', IMPORT_PATH, 'data', (c) => {
  const length = Number(c.req.header('content-length') ?? 0);
  beforeLargeWork(length);
  const decoder = new ImportDecoder(c.get('settings').maxJobBytes + 1, length);
  importDecoders.set(c, decoder);
  return decoder;
});

documentRoutes.openapi(
  createRoute({
    method: 'post', path: IMPORT_PATH, operationId: 'importDocument', tags, ...authed,
    summary: 'Render a hex or base64 payload as if it had been printed over TCP',
    request: { params: PrinterIdParam, body: jsonBody(ImportRequest) },
    responses: { 204: { description: 'Imported; the document is on the list and the canvas stream' }, ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    const { data, format } = c.req.valid('json');
    // A body that was not read as a stream: `data` as the validator gave it.
    const decoder = importDecoders.get(c) ?? (await decoderOfText(data, c.get('settings').maxJobBytes + 1, yieldToOthers));
    if (decoder.chars > MAX_IMPORT_CHARS) {
      const message = `Too big: expected string to have <=${MAX_IMPORT_CHARS} characters`;
      throw badRequest('Validation failed: data', { data: [message] });
    }
    const decoded = decoder.finish(format);
    if (!decoded.ok) throw badRequest(decoded.error, { data: [decoded.error] });
    // The call copies the bytes for the printer's object: this copy is freed while the job renders.
    const imported = printerStub(c.env, row.id).importJob(row.id, decoded.bytes);
    releaseNow(decoded.bytes);
    await imported;
    return c.body(null, 204);
  },
);

documentRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/printers/{id}/documents/last-viewed', operationId: 'setLastViewedDocument', tags, ...authed, summary: 'Not implemented (501)',
    request: { params: PrinterIdParam, body: jsonBody(LastViewedRequest) },
    responses: { ...problems(400, 401, 404, 501) },
  }),
  async (c) => {
    await visiblePrinter(c, c.req.valid('param').id, 'read');
    throw new HttpProblem(501, 'Not Implemented', 'Setting the last viewed document is not implemented');
  },
);

documentRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/documents/next', operationId: 'waitForNextDocument', tags, ...authed,
    summary: 'Wait for the first document finalised after `after` (or after the request began); status polls do not count',
    request: { params: PrinterIdParam, query: NextDocumentQuery },
    responses: {
      200: json(RenderedDocumentDto, 'The document'),
      204: { description: 'No document arrived within timeoutSeconds' },
      ...problems(400, 401, 404, 429),
    },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'read');
    const { after, timeoutSeconds } = c.req.valid('query');
    const found = await nextDocumentJson(c.env, row.id, after ?? null, (timeoutSeconds ?? DEFAULT_NEXT_TIMEOUT_SECONDS) * 1000);
    if (found === 'unknownAfter') throw badRequest(`after ${after} is not a document of this printer`, { after: ['Unknown document id'] });
    if (found === 'tooManyWaiters') throw new HttpProblem(429, 'Too Many Requests', 'Too many clients are waiting for this printer\u2019s next document; try again shortly');
    if (found === null) return c.body(null, 204);
    await stampRead(c, row);
    return c.body(found, 200, { 'content-type': 'application/json' }) as never;
  },
);

// Registered after `documents/canvas` and `documents/next`: those literal paths match first.
documentRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/documents/{documentId}', operationId: 'getDocument', tags, ...authed,
    summary: 'One document as JSON, PNG, PDF, text or the raw bytes received (?format= or Accept); counts as a read',
    request: { params: DocumentIdParams, query: DocumentFormQuery },
    responses: {
      200: {
        description: 'The document in the form asked for',
        content: {
          'application/json': { schema: RenderedDocumentDto },
          'image/png': { schema: z.string().openapi({ format: 'binary' }) },
          'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
          'text/plain': { schema: z.string() },
          'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
      ...problems(400, 401, 404),
    },
  }),
  async (c) => {
    const { id, documentId } = c.req.valid('param');
    const row = await visiblePrinter(c, id, 'read');
    const query = c.req.valid('query');
    const format = chooseFormat(query.format, c.req.header('accept'));
    if (query.canvas !== undefined && format !== 'png') throw badRequest('canvas applies to format=png only', { canvas: ['Only with format=png'] });
    let body: RpcText | Uint8Array;
    if (format === 'raw') {
      const raw = await getDocumentRaw(c.env, row.id, documentId);
      if (raw === null) throw notFound(`Document ${documentId} not found`);
      body = raw;
    } else {
      const json = await getDocumentJson(c.env, row.id, documentId);
      if (json === null) throw notFound(`Document ${documentId} not found`);
      try {
        body = format === 'json' ? json : await renderStoredDocument(c.env, row, await rpcTextString(json), format, query.canvas);
      } catch (e) {
        if (e instanceof CanvasIndexError) throw badRequest(e.message, { canvas: [e.message] });
        throw e;
      }
    }
    await stampRead(c, row);
    // The Accept header can choose the form: caches must key on it.
    const headers: Record<string, string> = { 'content-type': CONTENT_TYPES[format], vary: 'Accept' };
    if (format !== 'json' && format !== 'text') headers['content-disposition'] = `inline; filename="${documentId}.${format === 'raw' ? 'bin' : format}"`;
    return c.body(body as never, 200, headers) as never;
  },
);
