import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, problems } from '../schemas/common.ts';
import { PutWebhookRequest, WebhookCreatedDto, WebhookDto } from '../schemas/workspace.ts';
import { requireAuth } from '../auth/middleware.ts';
import { deleteWebhook, findWebhook, putWebhook, type WebhookRow } from '../data/webhooks.ts';
import { newSigningSecret } from '../services/webhooks.ts';
import { badRequest, notFound } from '../http/problem.ts';
import { outboundUrlProblem } from '../services/outbound-url.ts';
import { printerStub } from '../services/notify.ts';
import { registerRequestKeys } from '../http/normalize-request.ts';
import type { Env } from '../env.ts';

registerRequestKeys('url');

/** The workspace's webhook (extensions.md): documents POSTed, signed, through the WEBHOOKS queue. */
export const webhookRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Webhooks'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };
const path = '/api/workspaces/webhook';

function webhookDto(row: WebhookRow) {
  return {
    url: row.url,
    isEnabled: row.is_enabled === 1,
    lastDeliveryAt: row.last_delivery_at,
    lastDeliveryStatus: row.last_delivery_status,
  };
}

/** Every printer of the workspace re-reads whether to enqueue deliveries. */
async function tellPrinters(env: Env, workspaceId: string): Promise<void> {
  const { results } = await env.DB.prepare('SELECT id FROM printers WHERE workspace_id = ? AND deleted_at IS NULL').bind(workspaceId).all<{ id: string }>();
  await Promise.all(results.map((p) => printerStub(env, p.id).webhookChanged()));
}

webhookRoutes.openapi(
  createRoute({
    method: 'get', path, operationId: 'getWebhook', tags, ...authed, summary: 'The workspace\u2019s webhook and its last delivery (204 when none is set)',
    responses: { 200: json(WebhookDto, 'The webhook'), 204: { description: 'No webhook is set' }, ...problems(401) },
  }),
  async (c) => {
    const row = await findWebhook(c.env.DB, c.get('caller').workspace.id);
    // "None set" is a normal state of a workspace, not a missing resource (and a 404 would be
    // a console error on every Settings page load).
    if (!row) return c.body(null, 204);
    return c.json(webhookDto(row), 200);
  },
);

webhookRoutes.openapi(
  createRoute({
    method: 'put', path, operationId: 'putWebhook', tags, ...authed,
    summary: 'Set the webhook URL; answers a new signing secret, shown only here',
    request: { body: jsonBody(PutWebhookRequest) },
    responses: { 200: json(WebhookCreatedDto, 'The webhook with its signing secret'), ...problems(400, 401) },
  }),
  async (c) => {
    const workspaceId = c.get('caller').workspace.id;
    const { url } = c.req.valid('json');
    const { allowPrivateTargets, publicHost } = c.get('settings');
    const problem = outboundUrlProblem(url, { allowPrivateTargets, ownHosts: [publicHost, new URL(c.req.url).hostname] });
    if (problem) throw badRequest(problem, { url: [problem] });
    const secret = newSigningSecret();
    const row = await putWebhook(c.env.DB, workspaceId, url, secret, new Date().toISOString());
    await tellPrinters(c.env, workspaceId);
    return c.json({ ...webhookDto(row), signingSecret: secret }, 200);
  },
);

webhookRoutes.openapi(
  createRoute({
    method: 'delete', path, operationId: 'deleteWebhook', tags, ...authed, summary: 'Remove the webhook; queued deliveries are dropped',
    responses: { 204: { description: 'Removed' }, ...problems(401, 404) },
  }),
  async (c) => {
    const workspaceId = c.get('caller').workspace.id;
    if (!(await deleteWebhook(c.env.DB, workspaceId))) throw notFound('This workspace has no webhook');
    await tellPrinters(c.env, workspaceId);
    return c.body(null, 204);
  },
);
