import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { json } from '../schemas/common.ts';
import { PrinterModelDto } from '../schemas/printer-model.ts';
import { printerModelDtos } from '../services/printer-models.ts';

export const printerModelRoutes = new OpenAPIHono<AppEnv>();

/**
 * The list only changes with a deployment, so it is built and hashed once per isolate. The
 * ETag is the body's SHA-256: a client or CDN revalidates for the price of a 304.
 */
let listed: Promise<{ body: string; etag: string }> | null = null;
function modelList(): Promise<{ body: string; etag: string }> {
  listed ??= (async () => {
    const body = JSON.stringify(printerModelDtos());
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    return { body, etag: `"sha256:${hex}"` };
  })();
  return listed;
}

printerModelRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printer-models', operationId: 'listPrinterModels', tags: ['Printer models'],
    summary: 'The printer models a printer can emulate (anonymous, cacheable: ETag, If-None-Match answers 304)',
    responses: {
      200: json(z.array(PrinterModelDto), 'Every model, receipt printers first'),
      304: { description: 'Not modified' },
    },
  }),
  async (c) => {
    const { body, etag } = await modelList();
    const headers = { etag, 'cache-control': 'public, max-age=3600' };
    const inm = c.req.header('if-none-match');
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return new Response(null, { status: 304, headers }) as never;
    return new Response(body, { status: 200, headers: { ...headers, 'content-type': 'application/json' } }) as never;
  },
);
