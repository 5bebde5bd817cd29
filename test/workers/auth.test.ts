/**
 * Contract sections 4 (Auth), 5 and 7: workspace creation, login, logout, session cookie.
 */
import { describe, expect, it } from 'vitest';
import {
  assertResponseRules, call, createWorkspaceRaw, env, expectDateTime, expectJson, expectNullableDateTime, expectProblem,
  login, newWorkspace, TEST_ADMIN_WORKSPACE_ID, TEST_JWT_SECRET, uuid,
} from './helpers.ts';

describe('test configuration', () => {
  it('runs with the secrets and admin id from vitest.config.ts', () => {
    expect(env.JWT_SECRET).toBe(TEST_JWT_SECRET);
    expect(env.ADMIN_WORKSPACE_IDS).toBe(TEST_ADMIN_WORKSPACE_ID);
  });
});

describe('POST /api/workspaces', () => {
  it('creates a workspace anonymously and returns the one-time token', async () => {
    const id = uuid();
    const res = await call('/api/workspaces', { json: { id, workspaceName: 'Corner shop' } });
    const body = await expectJson(res, 200);
    expect(Object.keys(body).sort()).toEqual(['id', 'name', 'token']);
    expect(body.id).toBe(id);
    expect(body.name).toBe('Corner shop');
    expect(typeof body.token).toBe('string');
    // at least 128 bits of entropy: 22+ base64url characters
    expect(body.token.length).toBeGreaterThanOrEqual(22);
    assertResponseRules(body);
  });

  it('gives every workspace a different token', async () => {
    const a = await createWorkspaceRaw();
    const b = await createWorkspaceRaw();
    expect(a.token).not.toBe(b.token);
  });

  it('answers 409 problem+json without a token when the id is taken', async () => {
    const id = uuid();
    await createWorkspaceRaw(id, 'first');
    const res = await call('/api/workspaces', { json: { id, workspaceName: 'second' } });
    const problem = await expectProblem(res, 409);
    expect(problem).not.toHaveProperty('token');
    expect(JSON.stringify(problem)).not.toMatch(/"token"/);
    // the same id in upper case is the same workspace
    const upper = await call('/api/workspaces', { json: { id: id.toUpperCase(), workspaceName: 'third' } });
    await expectProblem(upper, 409);
  });

  it('stores only a hash of the token', async () => {
    const created = await createWorkspaceRaw();
    const row = await env.DB.prepare('SELECT * FROM workspaces WHERE id = ?').bind(created.id).first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it('matches request property names case-insensitively (WorkspaceName, ID)', async () => {
    const id = uuid();
    const res = await call('/api/workspaces', { json: { ID: id, WorkspaceName: 'Pascal case' } });
    const body = await expectJson(res, 200);
    expect(body.id).toBe(id);
    expect(body.name).toBe('Pascal case');
    const lower = uuid();
    const res2 = await call('/api/workspaces', { json: { Id: lower, workspacename: 'lower case' } });
    expect((await expectJson(res2, 200)).name).toBe('lower case');
  });
});

describe('POST /api/auth/login', () => {
  it('exchanges the workspace token for a bearer access token', async () => {
    const created = await createWorkspaceRaw(uuid(), 'Login test');
    const res = await call('/api/auth/login', { json: { token: created.token } });
    const body = await expectJson(res, 200);
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresInSeconds', 'tokenType', 'workspace']);
    expect(typeof body.accessToken).toBe('string');
    expect(body.accessToken.split('.')).toHaveLength(3);
    expect(body.tokenType).toMatch(/^bearer$/i);
    expect(body.expiresInSeconds).toBe(86400);
    const ws = body.workspace;
    expect(ws.id).toBe(created.id);
    expect(ws.name).toBe('Login test');
    expect(ws.role).toBe('Normal');
    expect(ws.documentRetentionDays).toBe(30);
    expect(ws.tcpWhitelistEnabled).toBe(false);
    expect(ws.tcpWhitelistEntries).toBe('');
    expectDateTime(ws.createdAt);
    expectNullableDateTime(ws, 'lastApiReadAt');
    expectNullableDateTime(ws, 'lastWebReadAt');
    expect(ws).not.toHaveProperty('token');
    assertResponseRules(body);
    // the JWT carries sub = workspace id and the role claim
    const payload = JSON.parse(atob(body.accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    expect(payload.sub).toBe(created.id);
    expect(payload.role).toBe('Normal');
    expect(payload.exp - payload.iat).toBe(86400);
    const header = JSON.parse(atob(body.accessToken.split('.')[0].replace(/-/g, '+').replace(/_/g, '/')));
    expect(header.alg).toBe('HS256');
  });

  it('accepts the request property in any casing', async () => {
    const created = await createWorkspaceRaw();
    const body = await expectJson(await call('/api/auth/login', { json: { Token: created.token } }), 200);
    expect(body.workspace.id).toBe(created.id);
  });

  it('answers 401 problem+json for an unknown token', async () => {
    const res = await call('/api/auth/login', { json: { token: 'ss_this-token-does-not-exist-0123456789' } });
    const problem = await expectProblem(res, 401);
    expect(problem).not.toHaveProperty('accessToken');
  });

  it('marks the workspace listed in ADMIN_WORKSPACE_IDS as Admin', async () => {
    const created = await createWorkspaceRaw(TEST_ADMIN_WORKSPACE_ID, 'Admins');
    const body = await login(created.token);
    expect(body.workspace.role).toBe('Admin');
    const payload = JSON.parse(atob(body.accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    expect(payload.role).toBe('Admin');
  });
});

describe('JWT_EXPIRES_IN_SECONDS', () => {
  it('sets the token lifetime and expiresInSeconds', async () => {
    const { createApp } = await import('../../src/worker/app.ts');
    const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test');
    const created = await createWorkspaceRaw();
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request('http://localhost/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: created.token }) }),
      { ...env, JWT_EXPIRES_IN_SECONDS: '60' } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const body = await expectJson(res, 200);
    expect(body.expiresInSeconds).toBe(60);
    const payload = JSON.parse(atob(body.accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    expect(payload.exp - payload.iat).toBe(60);
  });
});

describe('POST /api/auth/logout', () => {
  it('answers 200 and has no effect on the token', async () => {
    const ws = await newWorkspace();
    const res = await call('/api/auth/logout', { method: 'POST', token: ws.accessToken });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // tokens are stateless: still valid
    await expectJson(await call('/api/workspaces', { token: ws.accessToken }), 200);
  });

  it('requires authentication', async () => {
    await expectProblem(await call('/api/auth/logout', { method: 'POST' }), 401);
  });
});

describe('POST /api/auth/session-cookie', () => {
  it('sets an HttpOnly SameSite=Strict cookie that authenticates on its own', async () => {
    const ws = await newWorkspace();
    const res = await call('/api/auth/session-cookie', { method: 'POST', token: ws.accessToken });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).not.toMatch(/;\s*Secure/i); // plain http in tests
    const pair = setCookie.split(';')[0];
    expect(pair).toContain('=');
    expect(pair.split('=')[1].length).toBeGreaterThan(10);

    // The cookie alone (no Authorization header) authenticates.
    const me = await expectJson(await call('/api/workspaces', { headers: { cookie: pair } }), 200);
    expect(me.id).toBe(ws.id);
    const printers = await call('/api/printers', { headers: { cookie: pair } });
    expect(printers.status).toBe(200);
    await printers.arrayBuffer();
    // what EventSource needs: a stream with the cookie only
    const stream = await call('/api/printers/sidebar/stream', { headers: { cookie: pair } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type') ?? '').toMatch(/^text\/event-stream/);
    await stream.body?.cancel();
  });

  it('sets Secure over https', async () => {
    const ws = await newWorkspace();
    const { exports } = await import('cloudflare:workers');
    const res = await (exports as any).default.fetch(
      new Request('https://localhost/api/auth/session-cookie', { method: 'POST', headers: { authorization: `Bearer ${ws.accessToken}` } }),
    );
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(res.headers.get('set-cookie') ?? '').toMatch(/;\s*Secure/i);
  });

  it('requires a valid bearer token and sets no cookie otherwise', async () => {
    const res = await call('/api/auth/session-cookie', { method: 'POST' });
    await expectProblem(res, 401);
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/=[^;]{10,}/);
  });

  it('a garbage cookie is 401', async () => {
    await expectProblem(await call('/api/workspaces', { headers: { cookie: 'slipstream_session=not-a-jwt' } }), 401);
  });
});

describe('anonymous endpoints', () => {
  it('greeting: 200 without auth, cached 300 s, general present', async () => {
    const res = await call('/api/workspaces/greeting');
    expect(res.headers.get('cache-control') ?? '').toMatch(/max-age=300\b/);
    const body = await expectJson(res, 200);
    expect(typeof body.general).toBe('string');
    expect(body.general.length).toBeGreaterThan(0);
    for (const k of ['morning', 'afternoon', 'evening']) if (k in body) expect(typeof body[k]).toBe('string');
    for (const k of Object.keys(body)) expect(['morning', 'afternoon', 'evening', 'general']).toContain(k);
    assertResponseRules(body);
  });

  it('every endpoint marked A answers 401 without a token', async () => {
    const id = uuid();
    const cases: [string, string][] = [
      ['GET', '/api/workspaces'], ['PATCH', '/api/workspaces'], ['DELETE', '/api/workspaces'],
      ['GET', '/api/workspaces/summary'], ['GET', '/api/workspaces/admin-statistics'],
      ['GET', '/api/workspaces/retention/cleanup-summary'], ['POST', '/api/workspaces/retention/cleanup'],
      ['GET', '/api/workspaces/connections'],
      ['GET', '/api/printers'], ['POST', '/api/printers'], ['GET', '/api/printers/sidebar'], ['GET', '/api/printers/sidebar/stream'],
      ['GET', `/api/printers/${id}`], ['PUT', `/api/printers/${id}`], ['DELETE', `/api/printers/${id}`],
      ['POST', `/api/printers/${id}/pin`], ['PATCH', `/api/printers/${id}/operational-flags`], ['PATCH', `/api/printers/${id}/drawers`],
      ['GET', `/api/printers/${id}/documents/canvas`], ['DELETE', `/api/printers/${id}/documents`],
      ['POST', `/api/printers/${id}/documents/import`], ['POST', `/api/printers/${id}/documents/last-viewed`],
      ['GET', `/api/printers/${id}/nv-images`], ['PUT', `/api/printers/${id}/nv-images/1`], ['DELETE', `/api/printers/${id}/nv-images/1`],
      ['GET', `/api/printers/${id}/runtime/stream`], ['GET', `/api/printers/${id}/documents/canvas/stream`],
      ['POST', '/api/auth/logout'], ['POST', '/api/auth/session-cookie'],
    ];
    for (const [method, path] of cases) {
      const res = await call(path, { method, ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }) });
      const p = await expectProblem(res, 401);
      expect(p.instance, `${method} ${path}`).toBe(path);
    }
  });

  it('media is anonymous (404 for an unknown id, not 401)', async () => {
    await expectProblem(await call(`/api/media/${uuid()}`), 404);
  });

  it('an unknown /api route is a 404 problem', async () => {
    await expectProblem(await call('/api/does-not-exist'), 404);
  });
});
