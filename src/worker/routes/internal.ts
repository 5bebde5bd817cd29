import { Hono } from 'hono';
import type { AppEnv } from '../http/app-types.ts';
import { badRequest, forbidden, HttpProblem, notFound, unauthorized } from '../http/problem.ts';
import { findPrinter } from '../data/printers.ts';
import { bridgeHub, printerStub } from '../services/notify.ts';
import { PrintersConfig } from '../schemas/printers-config.ts';
import { printerPortBlock } from '../config.ts';
import { AggregateConfigConflict, applyDeclaredConfig } from '../services/declared-config.ts';
import { d1StatementCount } from '../data/d1-statement-count.ts';
import { parseEndReason } from '../objects/live-session.ts';
import { authenticateBridge, BRIDGE_HEADERS, servedBridgeId, type BridgeCaller } from '../services/bridge-auth.ts';
import { clientAddress } from '../http/client-address.ts';
import { isBridgeRequestTransport } from '../../shared/transports.ts';
import { boundedText, byteCountOf, clientAddressOf, sessionIdOf } from '../services/bridge-input.ts';
import { printersFileDigest } from '../services/readiness.ts';

/**
 * The tcp-bridge's interface (docs/internal-protocol.md). Never part of the public API or
 * its OpenAPI document; every route requires the shared bridge secret or a bridge's token.
 */
export const internalRoutes = new Hono<AppEnv & { Variables: { bridge: BridgeCaller } }>();

internalRoutes.use('/internal/*', async (c, next) => {
  const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  const bridge = await authenticateBridge(c.env, given, { fresh: c.req.path === '/internal/bridge/control' });
  if (!bridge) throw unauthorized('The bridge secret or token is missing, wrong or revoked');
  c.set('bridge', bridge);
  await next();
});

/** A bridge's field that fails its syntax (services/bridge-input.ts): 400 naming it. */
function badField(name: string): never {
  throw badRequest(`The bridge sent an invalid ${name}`, { [name]: [`not a valid ${name}`] });
}

/** Routes for the deployment itself (`npm start`, benchmarks), not for a site's bridge. */
const sharedOnly = (bridge: BridgeCaller) => {
  if (bridge.kind !== 'shared') throw forbidden('Only the deployment\u2019s shared bridge secret may use this route');
};

/** Figures for the storage benchmark: D1 statements this isolate ran (COUNT_D1_STATEMENTS=1). */
internalRoutes.get('/internal/stats', (c) => {
  sharedOnly(c.get('bridge'));
  return c.json({ d1Statements: d1StatementCount() });
});

// Each bridge has its own hub; the Worker tells it which bridge it serves (headers set here,
// overwriting whatever the client sent).
internalRoutes.get('/internal/bridge/control', (c) => {
  const bridgeId = servedBridgeId(c.get('bridge'));
  const headers = new Headers(c.req.raw.headers);
  headers.set(BRIDGE_HEADERS.bridgeId, bridgeId ?? '');
  headers.set(BRIDGE_HEADERS.remoteAddress, clientAddress(c.req.raw, c.get('settings').trustProxy));
  headers.set(BRIDGE_HEADERS.version, (c.req.header('user-agent') ?? '').slice(0, 100));
  return bridgeHub(c.env, bridgeId).fetch(new Request(c.req.raw, { headers }));
});

// The printer's Durable Object answers 404 itself for an unknown or deleted printer (from its
// cached row), saving a D1 round trip on every TCP connection.
internalRoutes.get('/internal/bridge/printers/:printerId/session', async (c) => {
  const printerId = c.req.param('printerId');
  if (!/^[0-9a-f-]{36}$/i.test(printerId)) throw notFound(`Printer ${printerId} was not found`);
  const url = new URL(c.req.url);
  // Without sessionId the socket is a warm spare; the session starts with its first message.
  const q = new URLSearchParams({ printerId: printerId.toLowerCase() });
  const sessionId = url.searchParams.get('sessionId'), address = url.searchParams.get('clientAddress');
  if (sessionId !== null) q.set('sessionId', sessionIdOf(sessionId) ?? badField('sessionId'));
  if (address !== null) q.set('clientAddress', clientAddressOf(address) ?? badField('clientAddress'));
  // The printer's object accepts the session only from the bridge that owns the printer.
  q.set('bridgeId', servedBridgeId(c.get('bridge')) ?? '');
  return printerStub(c.env, printerId).fetch(new Request(`https://printer/session?${q}`, c.req.raw));
});

internalRoutes.post('/internal/bridge/printers/:printerId/jobs', async (c) => {
  const printerId = c.req.param('printerId');
  const printer = await findPrinter(c.env.DB, printerId);
  const bridge = c.get('bridge');
  // A site's bridge recovers only its workspace's jobs (possibly of a printer moved to
  // another bridge since: the bytes were printed to this one).
  if (!printer || (bridge.kind === 'site' && printer.workspace_id !== bridge.workspaceId)) throw notFound(`Printer ${printerId} was not found`);
  const q = new URL(c.req.url).searchParams;
  const field = <T>(key: string, parse: (v: string) => T | null | undefined, fallback: T): T => {
    const value = q.get(key);
    return value === null ? fallback : (parse(value) ?? badField(key));
  };
  const documentId = await printerStub(c.env, printerId).recoverJob(printerId.toLowerCase(), {
    sessionId: field('sessionId', sessionIdOf, crypto.randomUUID()),
    clientAddress: field('clientAddress', clientAddressOf, 'unknown'),
    bytesSent: field('bytesSent', (v) => byteCountOf(Number(v)), 0),
    error: boundedText(q.get('error')) ?? '',
    endReason: parseEndReason(q.get('endReason')),
    bytes: new Uint8Array(await c.req.arrayBuffer()),
  });
  return c.json({ documentId });
});

// A job that arrived at the bridge as one request (HTTP printer endpoints, LPD): the printer's
// object renders it and says what to answer (docs/internal-protocol.md section 4).
internalRoutes.post('/internal/bridge/printers/:printerId/requests', async (c) => {
  const printerId = c.req.param('printerId');
  if (!/^[0-9a-f-]{36}$/i.test(printerId)) throw notFound(`Printer ${printerId} was not found`);
  const q = new URL(c.req.url).searchParams;
  const transport = q.get('transport');
  if (!isBridgeRequestTransport(transport)) throw badRequest(`Unknown transport ${JSON.stringify(transport)}`);
  const field = <T>(key: string, parse: (v: string) => T | null | undefined, fallback: T): T => {
    const value = q.get(key);
    return value === null ? fallback : (parse(value) ?? badField(key));
  };
  const answer = await printerStub(c.env, printerId).httpJob(printerId.toLowerCase(), servedBridgeId(c.get('bridge')), {
    transport,
    sessionId: field('sessionId', sessionIdOf, crypto.randomUUID()),
    clientAddress: field('clientAddress', clientAddressOf, 'unknown'),
    timeoutMs: field('timeoutMs', (v) => byteCountOf(Number(v)), 0),
    body: new Uint8Array(await c.req.arrayBuffer()),
  });
  return c.json(answer);
});

// "Printers as code": `npm start` posts the SLIPSTREAM_CONFIG file here (after validating it
// itself, to name the file's entries) before the bridge starts. Behind the bridge secret
// because it sets workspace tokens, which no public route can.
internalRoutes.post('/internal/config/apply', async (c) => {
  sharedOnly(c.get('bridge'));
  const body = await c.req.text();
  let raw: unknown;
  try { raw = JSON.parse(body); } catch { raw = undefined; }
  const parsed = PrintersConfig.safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '$'] ??= []).push(issue.message);
    throw badRequest(`Invalid printers file: ${Object.keys(errors).join(', ')}`, errors);
  }
  try {
    const report = await applyDeclaredConfig(c.env, parsed.data, printerPortBlock(c.get('settings')));
    await bridgeHub(c.env, null).declaredFileApplied(await printersFileDigest(body));
    return c.json(report);
  } catch (e) {
    if (e instanceof AggregateConfigConflict) {
      throw new HttpProblem(409, 'Conflict', e.message, Object.fromEntries(e.conflicts.map((x) => [x.entry, [x.reason]])));
    }
    throw e;
  }
});
