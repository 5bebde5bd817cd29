import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../http/app-types.ts';
import { unauthorized } from '../http/problem.ts';
import { verifyAccessToken } from './jwt.ts';
import { findWorkspace } from '../data/workspaces.ts';

export const SESSION_COOKIE = 'slipstream_session';

/** Methods the session cookie may authenticate: reads only. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Bearer authentication. The session cookie (set by POST /api/auth/session-cookie) is
 * accepted in place of the header on reads, so EventSource and <img> work in browsers.
 * Every kind of bad token is a 401; a token of a deleted workspace too.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization');
  let token: string | undefined;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized('The Authorization header must be "Bearer <access token>"');
    token = m[1];
  } else if (READ_METHODS.has(c.req.method)) {
    token = getCookie(c, SESSION_COOKIE);
  } else if (getCookie(c, SESSION_COOKIE)) {
    // A cookie rides along with any request the browser makes, whoever's page asked for it:
    // it may read (EventSource, <img>), never change anything.
    throw unauthorized('The session cookie is accepted only for reading; send Authorization: Bearer <access token> to change anything');
  }
  if (!token) throw unauthorized('An access token is required (Authorization: Bearer <token>)');
  const claims = await verifyAccessToken(c.env.JWT_SECRET!, token);
  if (!claims) throw unauthorized('The access token is invalid or expired');
  const workspace = await findWorkspace(c.env.DB, claims.workspaceId);
  if (!workspace) throw unauthorized('The workspace of this access token no longer exists');
  // Ids are caller-chosen: a token issued well before the workspace (re)appeared belongs to an
  // earlier workspace with the same id. A minute of slack absorbs clock skew between issuers.
  if (claims.workspaceInstance !== undefined && claims.workspaceInstance !== workspace.created_at) {
    throw unauthorized('The access token was issued for an earlier workspace with this id');
  }
  if (claims.issuedAt !== undefined && (claims.issuedAt + 60) * 1000 <= Date.parse(workspace.created_at)) {
    throw unauthorized('The access token was issued for an earlier workspace with this id');
  }
  const settings = c.get('settings');
  c.set('caller', {
    workspace,
    role: settings.adminWorkspaceIds.has(workspace.id.toLowerCase()) ? 'Admin' : 'Normal',
    // EventSource cannot send headers, so the web UI marks its streams with ?client=web.
    client: c.req.header('x-client')?.toLowerCase() === 'web' || c.req.query('client') === 'web' ? 'web' : 'api',
  });
  await next();
};
