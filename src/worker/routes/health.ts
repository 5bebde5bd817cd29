import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { json } from '../schemas/common.ts';
import { readiness } from '../services/readiness.ts';

export const healthRoutes = new OpenAPIHono<AppEnv>();

const Health = z.object({ status: z.enum(['ready', 'starting']) }).openapi('Health');

healthRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/health', operationId: 'getHealth', tags: ['Health'],
    summary: 'Readiness (anonymous): 200 once migrations, the printers file and the shared bridge\u2019s listeners are in place, 503 before',
    responses: {
      200: json(Health, '{"status":"ready"}'),
      503: json(Health, '{"status":"starting"}'),
    },
  }),
  async (c) => {
    c.header('Cache-Control', 'no-store');
    const state = await readiness(c.env);
    return state.ready ? c.json({ status: 'ready' as const }, 200) : c.json({ status: 'starting' as const }, 503);
  },
);
