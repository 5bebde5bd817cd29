/**
 * The JWT secret guard (contract section 5 rule 7, decisions.md "Auth and roles"): with a
 * missing, short or placeholder JWT_SECRET the Worker answers every /api request with 500
 * problem+json naming JWT_SECRET and never issues a token. The Worker reads the secret per
 * request, so the app is called directly with a modified env.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { createApp } from '../../src/worker/app.ts';
import { BASE, createWorkspaceRaw, env, uuid } from './helpers.ts';

const app = createApp();
let workspaceToken: string;

beforeAll(async () => {
  workspaceToken = (await createWorkspaceRaw()).token;
});

async function fetchWith(secret: string | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(BASE + path, init), { ...env, JWT_SECRET: secret } as never, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const WEAK: [string, string | undefined][] = [
  ['missing', undefined],
  ['empty', ''],
  ['short', 'short'],
  ['31 characters', 'a'.repeat(31)],
  ['placeholder change-me', 'change-me-' + 'x'.repeat(30)],
  ['placeholder your-secret', 'your-secret-' + 'x'.repeat(30)],
  ['placeholder secret', 'secret-' + 'x'.repeat(40)],
  ['placeholder CHANGE-ME (case)', 'CHANGE-ME-' + 'x'.repeat(30)],
];

describe.each(WEAK)('JWT_SECRET %s', (_label, secret) => {
  it('login answers 500 problem+json naming JWT_SECRET and issues no token', async () => {
    const res = await fetchWith(secret, '/api/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: workspaceToken }),
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.status).toBe(500);
    expect(body.detail).toContain('JWT_SECRET');
    expect(body.instance).toBe('/api/auth/login');
    expect(body).not.toHaveProperty('accessToken');
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./);
  });

  it('workspace creation issues no token either, and other /api requests are refused', async () => {
    const res = await fetchWith(secret, '/api/workspaces', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: uuid(), workspaceName: 'x' }),
    });
    expect(res.status).toBe(500);
    const body = await res.json() as any;
    expect(body.detail).toContain('JWT_SECRET');
    expect(body).not.toHaveProperty('token');
    for (const path of ['/api/workspaces/greeting', '/api/printers', `/api/media/${uuid()}`]) {
      const r = await fetchWith(secret, path);
      expect(r.status, path).toBe(500);
      expect(r.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
      expect(((await r.json()) as any).detail).toContain('JWT_SECRET');
    }
  });
});

describe('a strong JWT_SECRET', () => {
  it('works through the same direct call (the guard is what refuses above)', async () => {
    const res = await fetchWith('a-perfectly-fine-secret-value-0123456789', '/api/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: workspaceToken }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).accessToken).toBeTruthy();
  });

  it('a token signed under one secret is refused under another', async () => {
    const login = await fetchWith(env.JWT_SECRET, '/api/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: workspaceToken }),
    });
    const { accessToken } = (await login.json()) as any;
    const ok = await fetchWith(env.JWT_SECRET, '/api/workspaces', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(ok.status).toBe(200);
    const refused = await fetchWith('a-different-but-strong-secret-0123456789', '/api/workspaces', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(refused.status).toBe(401);
  });
});
