import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { setCookie } from 'hono/cookie';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, problems } from '../schemas/common.ts';
import { LoginRequest, LoginResponse } from '../schemas/workspace.ts';
import { hashToken } from '../auth/workspace-token.ts';
import { findWorkspace, findWorkspaceByTokenHash } from '../data/workspaces.ts';
import { settleWorkspace } from '../services/settle.ts';
import { issueAccessToken } from '../auth/jwt.ts';
import { unauthorized } from '../http/problem.ts';
import { workspaceDto } from '../services/dto.ts';
import { requireAuth, SESSION_COOKIE } from '../auth/middleware.ts';
import { registerRequestKeys } from '../http/normalize-request.ts';
import { rateLimited } from '../http/rate-limit.ts';
import { isSecureRequest } from '../http/client-address.ts';

registerRequestKeys('token');

export const authRoutes = new OpenAPIHono<AppEnv>();

authRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/auth/login', operationId: 'login', tags: ['Auth'],
    summary: 'Exchange a workspace token for a signed access token (JWT)',
    middleware: [rateLimited('login')],
    request: { body: jsonBody(LoginRequest) },
    responses: { 200: json(LoginResponse, 'Access token and workspace'), ...problems(400, 401, 429) },
  }),
  async (c) => {
    const { token } = c.req.valid('json');
    const found = await findWorkspaceByTokenHash(c.env.DB, await hashToken(token));
    if (!found) throw unauthorized('Unknown workspace token');
    // The workspace in the answer carries read stamps: as they are once its printers' pending ones are in.
    await settleWorkspace(c.env, found.id);
    const workspace = (await findWorkspace(c.env.DB, found.id)) ?? found;
    const settings = c.get('settings');
    const role = settings.adminWorkspaceIds.has(workspace.id) ? 'Admin' : 'Normal';
    const accessToken = await issueAccessToken(c.env.JWT_SECRET!, { workspaceId: workspace.id, role, workspaceInstance: workspace.created_at }, settings.jwtExpiresInSeconds);
    return c.json({ accessToken, tokenType: 'Bearer', expiresInSeconds: settings.jwtExpiresInSeconds, workspace: workspaceDto(workspace, role) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/auth/logout', operationId: 'logout', tags: ['Auth'], security: bearerSecurity,
    summary: 'No effect: access tokens are stateless. Also clears the session cookie.',
    middleware: [requireAuth],
    responses: { 200: { description: 'Logged out' }, ...problems(401) },
  }),
  (c) => {
    setCookie(c, SESSION_COOKIE, '', { path: '/', httpOnly: true, sameSite: 'Strict', maxAge: 0 });
    return c.body(null, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/auth/session-cookie', operationId: 'createSessionCookie', tags: ['Auth'], security: bearerSecurity,
    summary: 'Store the bearer access token in an HttpOnly cookie so EventSource and <img> can use the API',
    middleware: [requireAuth],
    responses: { 200: json(z.object({ expiresInSeconds: z.number().int() }).openapi('SessionCookieResponseDto'), 'Cookie set'), ...problems(401) },
  }),
  (c) => {
    const token = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) throw unauthorized('Send the access token as Authorization: Bearer to create a session cookie');
    const expiresInSeconds = c.get('settings').jwtExpiresInSeconds;
    setCookie(c, SESSION_COOKIE, token, {
      path: '/', httpOnly: true, sameSite: 'Strict', secure: isSecureRequest(c.req.raw, c.get('settings').trustProxy), maxAge: expiresInSeconds,
    });
    return c.json({ expiresInSeconds }, 200);
  },
);
