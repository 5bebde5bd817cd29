import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import type { AppEnv } from './http/app-types.ts';
import { readSettings, jwtSecretProblem } from './config.ts';
import { HttpProblem, problem, problemResponse } from './http/problem.ts';
import { normalizeRequest } from './http/normalize-request.ts';
import { compressResponses } from './http/compression.ts';
import { authRoutes } from './routes/auth.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import { bridgeRoutes } from './routes/bridges.ts';
import { printerRoutes } from './routes/printers.ts';
import { printerAddressRoutes } from './routes/printer-addresses.ts';
import { documentRoutes } from './routes/documents.ts';
import { nvImageRoutes } from './routes/nv-images.ts';
import { mediaRoutes } from './routes/media.ts';
import { streamRoutes } from './routes/streams.ts';
import { internalRoutes } from './routes/internal.ts';
import { printerModelRoutes } from './routes/printer-models.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { healthRoutes } from './routes/health.ts';
import { swaggerUiPage } from './swagger-ui.ts';
import { SECURITY_HEADERS } from '../shared/security-headers.ts';

/** Zod issues as the problem+json `errors` map: { "<field path>": ["<message>"] }. */
function validationErrors(error: ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '$';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

function setSecurityHeaders(headers: Headers): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
}

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = validationErrors(result.error as unknown as ZodError);
        const fields = Object.keys(errors).join(', ');
        return problemResponse(new URL(c.req.url).pathname, 400, 'Bad Request', `Validation failed: ${fields}`, errors);
      }
    },
  });

  app.onError((err, c) => {
    if (err instanceof HttpProblem) return problem(c, err);
    if (err instanceof HTTPException && err.status < 500) {
      const title = err.status === 415 ? 'Unsupported Media Type' : err.status === 400 ? 'Bad Request' : 'Client Error';
      return problemResponse(new URL(c.req.url).pathname, err.status, title, err.message, { $: [err.message] });
    }
    console.error('unhandled error', err);
    return problemResponse(new URL(c.req.url).pathname, 500, 'Internal Server Error', 'An unexpected error occurred');
  });
  app.notFound((c) => problemResponse(new URL(c.req.url).pathname, 404, 'Not Found', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`));

  app.use('*', async (c, next) => {
    c.set('settings', readSettings(c.env));
    await next();
    // WebSocket upgrades (101) are left alone; responses relayed from a Durable Object have
    // immutable headers and are copied once.
    if (c.res.status === 101 || c.res.webSocket) return;
    try {
      setSecurityHeaders(c.res.headers);
    } catch {
      c.res = new Response(c.res.body, c.res);
      setSecurityHeaders(c.res.headers);
    }
  });
  // Never issue or accept tokens with a weak secret (decisions.md: the Worker answers 500).
  app.use('/api/*', async (c, next) => {
    const issue = jwtSecretProblem(c.env.JWT_SECRET);
    if (issue) return problemResponse(new URL(c.req.url).pathname, 500, 'Internal Server Error', `Service misconfigured: ${issue}`);
    await next();
  });
  // Compression first: it reads the client's Accept-Encoding off the request as it arrived
  // (`cf`, which a rebuilt request would no longer carry).
  app.use('/api/*', compressResponses);
  app.use('/api/*', normalizeRequest);

  for (const routes of [authRoutes, workspaceRoutes, bridgeRoutes, printerRoutes, printerAddressRoutes, printerModelRoutes, documentRoutes, nvImageRoutes, mediaRoutes, streamRoutes, webhookRoutes, healthRoutes]) {
    app.route('/', routes);
  }
  app.route('/', internalRoutes);

  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', {
    type: 'http', scheme: 'bearer', bearerFormat: 'JWT',
    description: 'The access token (`accessToken`) from `POST /api/auth/login` with your workspace id and token; paste it here without the word Bearer.',
  });
  app.doc31('/swagger/v1/swagger.json', {
    openapi: '3.1.0',
    info: {
      title: 'Slipstream',
      version: 'v1',
      description: 'Network receipt and label printer emulator: workspaces, printers, rendered documents, media and event streams. Printing itself is raw TCP to each printer\u2019s port and is not part of this HTTP interface.',
    },
  });
  app.get('/swagger', (c) => c.html(swaggerUiPage('/swagger/v1/swagger.json')));
  app.get('/swagger/', (c) => c.redirect('/swagger'));
  return app;
}
