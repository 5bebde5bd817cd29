import { Hono } from 'hono';
import type { AppEnv } from '../http/app-types.ts';
import { timingSafeEqual } from '../auth/workspace-token.ts';
import { badRequest, HttpProblem, notFound, unauthorized } from '../http/problem.ts';
import { findPrinter } from '../data/printers.ts';
import { bridgeHub, printerStub } from '../services/notify.ts';
import { PrintersConfig } from '../schemas/printers-config.ts';
import { AggregateConfigConflict, applyDeclaredConfig } from '../services/declared-config.ts';
import { d1StatementCount } from '../data/d1-statement-count.ts';
import { parseEndReason } from '../objects/live-session.ts';

/**
 * The tcp-bridge's interface (docs/internal-protocol.md). Never part of the public API or
 * its OpenAPI document; every route requires the bridge secret.
 */
export const internalRoutes = new Hono<AppEnv>();

internalRoutes.use('/internal/*', async (c, next) => {
  const secret = c.env.BRIDGE_SECRET;
  const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  if (!secret || !given || !timingSafeEqual(given, secret)) throw unauthorized('The bridge secret is missing or wrong');
  await next();
});

/** Figures for the storage benchmark: D1 statements this isolate ran (COUNT_D1_STATEMENTS=1). */
internalRoutes.get('/internal/stats', (c) => c.json({ d1Statements: d1StatementCount() }));

internalRoutes.get('/internal/bridge/control', (c) => bridgeHub(c.env).fetch(c.req.raw));

// The printer's Durable Object answers 404 itself for an unknown or deleted printer (from its
// cached row), saving a D1 round trip on every TCP connection.
internalRoutes.get('/internal/bridge/printers/:printerId/session', async (c) => {
  const printerId = c.req.param('printerId');
  if (!/^[0-9a-f-]{36}$/i.test(printerId)) throw notFound(`Printer ${printerId} was not found`);
  const url = new URL(c.req.url);
  // Without sessionId the socket is a warm spare; the session starts with its first message.
  const q = new URLSearchParams({ printerId: printerId.toLowerCase() });
  for (const key of ['sessionId', 'clientAddress']) {
    const value = url.searchParams.get(key);
    if (value) q.set(key, value);
  }
  return printerStub(c.env, printerId).fetch(new Request(`https://printer/session?${q}`, c.req.raw));
});

internalRoutes.post('/internal/bridge/printers/:printerId/jobs', async (c) => {
  const printerId = c.req.param('printerId');
  if (!(await findPrinter(c.env.DB, printerId))) throw notFound(`Printer ${printerId} was not found`);
  const q = new URL(c.req.url).searchParams;
  const documentId = await printerStub(c.env, printerId).recoverJob(printerId.toLowerCase(), {
    sessionId: q.get('sessionId') ?? crypto.randomUUID(),
    clientAddress: q.get('clientAddress') ?? 'unknown',
    bytesSent: Number(q.get('bytesSent')) || 0,
    error: q.get('error') ?? '',
    endReason: parseEndReason(q.get('endReason')),
    bytes: new Uint8Array(await c.req.arrayBuffer()),
  });
  return c.json({ documentId });
});

// "Printers as code": `npm start` posts the SLIPSTREAM_CONFIG file here (after validating it
// itself, to name the file's entries) before the bridge starts. Behind the bridge secret
// because it sets workspace tokens, which no public route can.
internalRoutes.post('/internal/config/apply', async (c) => {
  const parsed = PrintersConfig.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '$'] ??= []).push(issue.message);
    throw badRequest(`Invalid printers file: ${Object.keys(errors).join(', ')}`, errors);
  }
  try {
    return c.json(await applyDeclaredConfig(c.env, parsed.data, c.get('settings').printerPortBase));
  } catch (e) {
    if (e instanceof AggregateConfigConflict) {
      throw new HttpProblem(409, 'Conflict', e.message, Object.fromEntries(e.conflicts.map((x) => [x.entry, [x.reason]])));
    }
    throw e;
  }
});
