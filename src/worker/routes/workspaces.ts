import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, problems } from '../schemas/common.ts';
import {
  AdminStatistics, CleanupRequest, CleanupResult, CleanupSummary, CleanupSummaryQuery, ConnectionsQuery,
  CreateWorkspaceRequest, Greeting, TcpConnectionEntry, UpdateWorkspaceRequest, WorkspaceDto, WorkspaceResponse, WorkspaceSummary,
} from '../schemas/workspace.ts';
import { requireAuth } from '../auth/middleware.ts';
import { hashToken, newWorkspaceToken } from '../auth/workspace-token.ts';
import { deleteWorkspaceStatements, retireWorkspacePrintersStatements, findWorkspace, insertWorkspace, updateWorkspace } from '../data/workspaces.ts';
import { badRequest, conflict, forbidden } from '../http/problem.ts';
import { workspaceDto } from '../services/dto.ts';
import { parseWhitelist } from '../../shared/whitelist.ts';
import { retentionPreview, runRetention } from '../services/retention.ts';
import { unreferencedKeys } from '../services/document-deletion.ts';
import { adminStatistics, workspaceSummary } from '../services/statistics.ts';
import { greetingFor } from '../services/greeting.ts';
import { listConnections } from '../data/connections.ts';
import { registerRequestKeys } from '../http/normalize-request.ts';
import { bridgeHub, listenersChanged, printerStub, workspaceBridgeIds } from '../services/notify.ts';
import { rateLimited } from '../http/rate-limit.ts';
import { mayCreateAdminWorkspace } from '../auth/admin-secret.ts';
import { settleAllWorkspaces, settleWorkspace } from '../services/settle.ts';

registerRequestKeys(
  'id', 'workspaceName', 'name', 'documentRetentionDays', 'tcpWhitelistEnabled', 'tcpWhitelistEntries',
  'lightColorScheme', 'darkColorScheme', 'maxDocuments', 'retentionDaysOverride', 'minutes',
);

export const workspaceRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Workspaces'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };

workspaceRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/workspaces', operationId: 'createWorkspace', tags, summary: 'Create a workspace (anonymous); the token is shown once',
    middleware: [rateLimited('createWorkspace')],
    request: { body: jsonBody(CreateWorkspaceRequest) },
    responses: { 200: json(WorkspaceResponse, 'The new workspace with its one-time token'), ...problems(400, 403, 409, 429) },
  }),
  async (c) => {
    const { id, workspaceName } = c.req.valid('json');
    // An admin id nobody created yet must not be claimable by whoever asks first.
    if (!mayCreateAdminWorkspace(c.get('settings'), id, c.req.header('x-admin-secret'))) {
      throw forbidden(`Workspace id ${id} is reserved for an administrator: send the X-Admin-Secret header`);
    }
    const token = newWorkspaceToken();
    if (!(await insertWorkspace(c.env.DB, id, workspaceName, await hashToken(token)))) {
      throw conflict(`A workspace with id ${id} already exists`);
    }
    return c.json({ id: id.toLowerCase(), name: workspaceName, token }, 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces', operationId: 'getWorkspace', tags, ...authed, summary: 'The caller\u2019s workspace',
    responses: { 200: json(WorkspaceDto, 'Workspace'), ...problems(401) },
  }),
  async (c) => {
    const { workspace, role } = c.get('caller');
    // Its read stamps as they are once its printers' pending stamps are in.
    await settleWorkspace(c.env, workspace.id);
    return c.json(workspaceDto((await findWorkspace(c.env.DB, workspace.id)) ?? workspace, role), 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'patch', path: '/api/workspaces', operationId: 'updateWorkspace', tags, ...authed, summary: 'Update workspace settings (all fields optional)',
    request: { body: jsonBody(UpdateWorkspaceRequest) },
    responses: { 200: json(WorkspaceDto, 'Updated workspace'), ...problems(400, 401) },
  }),
  async (c) => {
    const patch = c.req.valid('json');
    const { workspace, role } = c.get('caller');
    if (patch.tcpWhitelistEntries !== undefined) {
      const { problems } = parseWhitelist(patch.tcpWhitelistEntries);
      if (problems.length) {
        throw badRequest(`Invalid whitelist entries: ${problems.map((p) => p.entry).join(', ')}`, {
          tcpWhitelistEntries: problems.map((p) => p.message),
        });
      }
    }
    await updateWorkspace(c.env.DB, workspace.id, patch);
    if (patch.tcpWhitelistEnabled !== undefined || patch.tcpWhitelistEntries !== undefined) {
      c.executionCtx.waitUntil(workspaceBridgeIds(c.env, workspace.id).then((ids) => listenersChanged(c.env, ids)));
    }
    const updated = (await findWorkspace(c.env.DB, workspace.id))!;
    return c.json(workspaceDto(updated, role), 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'delete', path: '/api/workspaces', operationId: 'deleteWorkspace', tags, ...authed,
    summary: 'Delete the caller\u2019s workspace: listeners stop; printers, documents, media and NV images are deleted',
    responses: { 204: { description: 'Deleted' }, ...problems(401) },
  }),
  async (c) => {
    const { workspace } = c.get('caller');
    const bridgeIds = await workspaceBridgeIds(c.env, workspace.id);
    const { results: printers } = await c.env.DB
      // Printers deleted earlier too: objects of before issue 32 kept a deleted printer's documents.
      .prepare('SELECT id FROM printers WHERE workspace_id = ?').bind(workspace.id).all<{ id: string }>();
    // Nothing new gets in from here: printers deleted and bridge tokens gone in D1, listeners
    // closed, then each printer's object ends its sessions and deletes what it holds
    // (printer-retirement.ts), then the rest of the workspace's rows go. Once this answers,
    // nothing of the workspace can be read or written (docs/decisions.md "Deleting").
    await c.env.DB.batch(retireWorkspacePrintersStatements(c.env.DB, workspace.id));
    await Promise.all(bridgeIds.map((id) => (id === null ? listenersChanged(c.env) : bridgeHub(c.env, id).revoke())));
    for (const p of printers) await printerStub(c.env, p.id).retire(p.id, 'workspace');
    const { results: leftMedia } = await c.env.DB
      .prepare('SELECT DISTINCT storage_key FROM media WHERE workspace_id = ?').bind(workspace.id).all<{ storage_key: string }>();
    await c.env.DB.batch(deleteWorkspaceStatements(c.env.DB, workspace.id));
    const orphans = await unreferencedKeys(c.env.DB, leftMedia.map((m) => m.storage_key));
    if (orphans.length) await c.env.MEDIA.delete(orphans);
    return c.body(null, 204);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces/summary', operationId: 'getWorkspaceSummary', tags, ...authed, summary: 'Figures for the caller\u2019s workspace',
    responses: { 200: json(WorkspaceSummary, 'Summary'), ...problems(401) },
  }),
  async (c) => {
    await settleWorkspace(c.env, c.get('caller').workspace.id);
    return c.json(await workspaceSummary(c.env.DB, c.get('caller').workspace), 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces/admin-statistics', operationId: 'getAdminStatistics', tags, ...authed, summary: 'Statistics over all workspaces (admin only)',
    responses: { 200: json(AdminStatistics, 'Statistics'), ...problems(401, 403) },
  }),
  async (c) => {
    if (c.get('caller').role !== 'Admin') throw forbidden('Admin statistics require an admin workspace');
    await settleAllWorkspaces(c.env);
    return c.json(await adminStatistics(c.env.DB, c.get('settings').adminWorkspaceIds), 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces/greeting', operationId: 'getGreeting', tags, summary: 'A friendly greeting (anonymous, cached 300 s)',
    responses: { 200: json(Greeting, 'Greeting') },
  }),
  (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(greetingFor(new Date()), 200);
  },
);

const scopeOf = (c: { get(k: 'caller'): { role: string; workspace: { id: string } } }) =>
  c.get('caller').role === 'Admin' ? null : c.get('caller').workspace.id;

workspaceRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces/retention/cleanup-summary', operationId: 'getRetentionCleanupSummary', tags, ...authed,
    summary: 'Preview what a retention cleanup would delete (own workspace; all workspaces for admins)',
    request: { query: CleanupSummaryQuery },
    responses: { 200: json(CleanupSummary, 'Preview'), ...problems(400, 401) },
  }),
  async (c) => {
    const { retentionDaysOverride } = c.req.valid('query');
    return c.json(await retentionPreview(c.env, { workspaceId: scopeOf(c), retentionDaysOverride: retentionDaysOverride ?? null }), 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/workspaces/retention/cleanup', operationId: 'runRetentionCleanup', tags, ...authed,
    summary: 'Run retention cleanup now (own workspace; all workspaces for admins; override 0 deletes every document in scope)',
    request: { body: jsonBody(CleanupRequest) },
    responses: { 200: json(CleanupResult, 'What was deleted'), ...problems(400, 401) },
  }),
  async (c) => {
    const { maxDocuments, retentionDaysOverride } = c.req.valid('json');
    const result = await runRetention(c.env, { workspaceId: scopeOf(c), retentionDaysOverride: retentionDaysOverride ?? null }, maxDocuments);
    return c.json(result, 200);
  },
);

workspaceRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/workspaces/connections', operationId: 'listConnections', tags, ...authed,
    summary: 'Recent TCP connection attempts to the workspace\u2019s printers',
    request: { query: ConnectionsQuery },
    responses: { 200: json(z.array(TcpConnectionEntry), 'Attempts, newest first'), ...problems(400, 401) },
  }),
  async (c) => {
    const minutes = c.req.valid('query').minutes ?? 60;
    // Attempts the workspace's bridges' hubs still batch are written first.
    const bridgeIds = await workspaceBridgeIds(c.env, c.get('caller').workspace.id);
    await Promise.all(bridgeIds.map((id) => bridgeHub(c.env, id).flushConnections()));
    return c.json(await listConnections(c.env.DB, c.get('caller').workspace.id, minutes), 200);
  },
);
