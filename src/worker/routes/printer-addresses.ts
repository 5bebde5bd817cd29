import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, PrinterIdParam, problems } from '../schemas/common.ts';
import { requireAuth } from '../auth/middleware.ts';
import { settledPrinter } from '../services/settle.ts';
import { settingsDto } from '../services/dto.ts';
import { bridgeHub } from '../services/notify.ts';
import { printerEndpoints } from '../../shared/transports.ts';

/**
 * The addresses to point a POS at for one printer (extensions.md "HTTP printers on the
 * printer's own port"): raw TCP, its HTTP and HTTPS print endpoints, and the LPD queue on the
 * port its bridge said it listens on (the bridge's `hello`, internal-protocol.md section 1).
 */
export const printerAddressRoutes = new OpenAPIHono<AppEnv>();

export const PrinterAddressesDto = z
  .object({
    lpdPort: z.number().int().nullable().openapi({ description: 'The LPD port of the printer\u2019s bridge; null when it serves no LPD or has not connected yet' }),
    addresses: z.array(z.object({ label: z.string(), url: z.string() })).openapi({ description: 'Each way to print to the printer, with its address' }),
  })
  .openapi('PrinterAddressesDto');

printerAddressRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/addresses', operationId: 'getPrinterAddresses', tags: ['Printers'],
    security: bearerSecurity, middleware: [requireAuth],
    summary: 'The addresses to point a POS at: raw TCP, HTTP(S) print endpoints, LPD queue',
    request: { params: PrinterIdParam },
    responses: { 200: json(PrinterAddressesDto, 'Addresses'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await settledPrinter(c, c.req.valid('param').id);
    const s = settingsDto(row, c.get('settings').publicHost);
    const lpdPort = (await bridgeHub(c.env, row.bridge_id ?? null).lpdPort()) ?? null;
    return c.json({ lpdPort, addresses: printerEndpoints(s.protocol, s.publicHost, s.tcpListenPort, lpdPort) }, 200);
  },
);
