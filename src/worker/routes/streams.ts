import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, PrinterIdParam, problems, sse } from '../schemas/common.ts';
import { requireAuth } from '../auth/middleware.ts';
import { visiblePrinter } from '../services/printer-access.ts';
import { printerStub, workspaceStub } from '../services/notify.ts';
import { CanvasStreamQuery } from '../schemas/document.ts';

/**
 * Server-Sent Events. The Worker authenticates and hands the request to the Durable Object
 * that owns the stream; events: `sidebar`, `status`, `documentCanvasReady` (id = document id,
 * `Last-Event-ID` replays what was missed). `: connected` on open, `: keep-alive` every 15 s.
 */
export const streamRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Streams'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };

streamRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/sidebar/stream', operationId: 'streamSidebar', tags, ...authed,
    summary: 'Sidebar changes of every printer of the workspace (event `sidebar`, data PrinterSidebarSnapshotDto)',
    responses: { 200: sse('Event stream'), ...problems(401) },
  }),
  async (c) => workspaceStub(c.env, c.get('caller').workspace.id).fetch('https://workspace/sidebar/stream') as never,
);

streamRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/runtime/stream', operationId: 'streamRuntime', tags, ...authed,
    summary: 'Runtime, flag, settings and printer changes (event `status`, data partial PrinterStatusUpdateDto)',
    request: { params: PrinterIdParam },
    responses: { 200: sse('Event stream'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'read');
    return printerStub(c.env, row.id).fetch(`https://printer/runtime/stream?printerId=${row.id}`) as never;
  },
);

streamRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/documents/canvas/stream', operationId: 'streamDocuments', tags, ...authed,
    summary: 'Finalised documents (event `documentCanvasReady`, data RenderedDocumentDto, id document id; honours Last-Event-ID)',
    request: { params: PrinterIdParam, query: CanvasStreamQuery },
    responses: { 200: sse('Event stream'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'read');
    const caller = c.get('caller');
    const q = new URLSearchParams({
      printerId: row.id, readerWorkspaceId: caller.workspace.id, client: caller.client,
      includeStatusPolls: String(c.req.valid('query').IncludeStatusPolls !== 'false'),
    });
    const headers = new Headers();
    const lastEventId = c.req.header('last-event-id');
    if (lastEventId) headers.set('last-event-id', lastEventId);
    return printerStub(c.env, row.id).fetch(`https://printer/canvas/stream?${q}`, { headers }) as never;
  },
);
