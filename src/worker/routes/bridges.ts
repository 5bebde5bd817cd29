import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, problems } from '../schemas/common.ts';
import { BridgeDto, BridgeIdParam, CreateBridgeRequest, CreatedBridgeDto } from '../schemas/bridge.ts';
import { requireAuth } from '../auth/middleware.ts';
import { hashToken, newToken } from '../auth/workspace-token.ts';
import { deleteBridge, findWorkspaceBridge, insertBridge, listBridges, type BridgeRow } from '../data/bridges.ts';
import { notFound } from '../http/problem.ts';
import { registerRequestKeys } from '../http/normalize-request.ts';
import { bridgeHub } from '../services/notify.ts';
import { BRIDGE_TOKEN_PREFIX, forgetBridgeToken } from '../services/bridge-auth.ts';

registerRequestKeys('name', 'publicHost', 'bridgeId');

/**
 * A workspace's own tcp-bridges, one per site (docs/contract/extensions.md "Sites: a bridge per LAN"):
 * each authenticates with its token and serves only printers whose `settings.bridgeId` is it.
 */
export const bridgeRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Bridges'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };

bridgeRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/workspaces/bridges', operationId: 'createBridge', tags, ...authed,
    summary: 'Create a bridge for a site; its token (BRIDGE_TOKEN) is shown once',
    request: { body: jsonBody(CreateBridgeRequest) },
    responses: { 200: json(CreatedBridgeDto, 'The new bridge with its one-time token'), ...problems(400, 401) },
  }),
  async (c) => {
    const { name, publicHost } = c.req.valid('json');
    const token = newToken(BRIDGE_TOKEN_PREFIX);
    const row = await insertBridge(c.env.DB, {
      id: crypto.randomUUID(), workspaceId: c.get('caller').workspace.id, name, publicHost, tokenHash: await hashToken(token),
    });
    return c.json({ id: row.id, name: row.name, publicHost: row.public_host, token }, 200);
  },
);

bridgeRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces/bridges', operationId: 'listBridges', tags, ...authed,
    summary: 'The workspace\u2019s bridges with their connection state',
    responses: { 200: json(z.array(BridgeDto), 'Bridges, oldest first'), ...problems(401) },
  }),
  async (c) => {
    const rows = await listBridges(c.env.DB, c.get('caller').workspace.id);
    const states = await Promise.all(rows.map((r) => bridgeHub(c.env, r.id).status()));
    return c.json(rows.map((r, i) => bridgeDto(r, states[i])), 200);
  },
);

bridgeRoutes.openapi(
  createRoute({
    method: 'delete', path: '/api/workspaces/bridges/{bridgeId}', operationId: 'deleteBridge', tags, ...authed,
    summary: 'Revoke a bridge: its token stops working and a connected bridge closes its listeners',
    request: { params: BridgeIdParam },
    responses: { 204: { description: 'Revoked' }, ...problems(400, 401, 404) },
  }),
  async (c) => {
    const { bridgeId } = c.req.valid('param');
    const row = await findWorkspaceBridge(c.env.DB, c.get('caller').workspace.id, bridgeId);
    if (!row) throw notFound(`Bridge ${bridgeId} was not found`);
    await deleteBridge(c.env.DB, row.id);
    forgetBridgeToken(row.token_hash);
    // Its printers keep their bridgeId and listen nowhere until moved: never silently to the
    // shared bridge, which may be on another LAN.
    await bridgeHub(c.env, row.id).revoke();
    return c.body(null, 204);
  },
);

function bridgeDto(row: BridgeRow, state: { isConnected: boolean; listeningPrinterCount: number }): z.infer<typeof BridgeDto> {
  return {
    id: row.id,
    name: row.name,
    publicHost: row.public_host,
    createdAt: row.created_at,
    isConnected: state.isConnected,
    ...(row.last_seen_at != null && { lastSeenAt: row.last_seen_at }),
    ...(row.remote_address != null && { remoteAddress: row.remote_address }),
    ...(row.version != null && { version: row.version }),
    listeningPrinterCount: state.listeningPrinterCount,
  };
}
