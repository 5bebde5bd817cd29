import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, PrinterIdParam, problems } from '../schemas/common.ts';
import { DocumentListQuery, DocumentListResponse, ImportRequest, LastViewedRequest } from '../schemas/document.ts';
import { requireAuth } from '../auth/middleware.ts';
import { visiblePrinter } from '../services/printer-access.ts';
import { listDocuments, pageResponseBody } from '../services/documents.ts';
import { recordRead } from '../services/read-stamps.ts';
import { decodeImportPayload } from '../services/import-decoding.ts';
import { yieldToOthers } from '../objects/slices.ts';
import { badRequest, HttpProblem } from '../http/problem.ts';
import { printerStub } from '../services/notify.ts';
import { registerRequestKeys } from '../http/normalize-request.ts';

registerRequestKeys('Limit', 'BeforeId', 'IncludeStatusPolls', 'data', 'format', 'documentId');

export const documentRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Documents'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };

documentRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/documents/canvas', tags, ...authed,
    summary: 'Rendered documents, newest first, with cursor paging (counts as a read)',
    request: { params: PrinterIdParam, query: DocumentListQuery },
    responses: { 200: json(DocumentListResponse, 'A page of documents'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'read');
    const { Limit, BeforeId, IncludeStatusPolls } = c.req.valid('query');
    const page = await listDocuments(c.env, row.id, { limit: Limit ?? 20, beforeId: BeforeId, includeStatusPolls: IncludeStatusPolls === 'true' });
    if (!page.ok) throw badRequest(`BeforeId ${BeforeId} is not a document of this printer`, { BeforeId: ['Unknown document id'] });
    const caller = c.get('caller');
    c.executionCtx.waitUntil(recordRead(c.env, row, { workspaceId: caller.workspace.id, client: caller.client }));
    // Bodies are stored serialised; splice them in rather than parse and re-serialise.
    return c.body(pageResponseBody(page), 200, { 'content-type': 'application/json' }) as never;
  },
);

documentRoutes.openapi(
  createRoute({
    method: 'delete', path: '/api/printers/{id}/documents', tags, ...authed, summary: 'Delete all documents of the printer',
    request: { params: PrinterIdParam },
    responses: { 204: { description: 'Cleared' }, ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    await printerStub(c.env, row.id).deleteDocuments(row.id, null);
    return c.body(null, 204);
  },
);

documentRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/printers/{id}/documents/import', tags, ...authed,
    summary: 'Render a hex or base64 payload as if it had been printed over TCP',
    request: { params: PrinterIdParam, body: jsonBody(ImportRequest) },
    responses: { 204: { description: 'Imported; the document is on the list and the canvas stream' }, ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    const { data, format } = c.req.valid('json');
    const decoded = await decodeImportPayload(data, format, yieldToOthers);
    if (!decoded.ok) throw badRequest(decoded.error, { data: [decoded.error] });
    await printerStub(c.env, row.id).importJob(row.id, decoded.bytes);
    return c.body(null, 204);
  },
);

documentRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/printers/{id}/documents/last-viewed', tags, ...authed, summary: 'Not implemented (501)',
    request: { params: PrinterIdParam, body: jsonBody(LastViewedRequest) },
    responses: { ...problems(400, 401, 404, 501) },
  }),
  async (c) => {
    await visiblePrinter(c, c.req.valid('param').id, 'read');
    throw new HttpProblem(501, 'Not Implemented', 'Setting the last viewed document is not implemented');
  },
);
