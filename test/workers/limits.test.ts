/**
 * Issue 17's HTTP limits: per-address rate limits (429 problem+json with Retry-After), admin
 * workspace ids only with X-Admin-Secret, tokens tied to the workspace instance they were issued
 * for, printers per workspace, decompression bombs on the NV image route, security headers.
 * Settings other than the suite's are given by calling the app with a modified env.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { pngBomb } from '../support/png-bomb.ts';
import { createApp } from '../../src/worker/app.ts';
import { call, createPrinter, createWorkspaceRaw, env, expectJson, expectProblem, login, newWorkspace, printerBody, uuid } from './helpers.ts';

async function callWith(vars: Record<string, string>, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string>; token?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`http://localhost${path}`, { method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'), headers, body: init.json !== undefined ? JSON.stringify(init.json) : undefined }),
    { ...env, ...vars } as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describe('rate limits per client address', () => {
  it('answers 429 problem+json with Retry-After once an address used its logins; another address is unaffected', async () => {
    const ip = randomIp();
    const attempt = (from: string) => callWith({ RATE_LIMIT_PER_MINUTE: '3' }, '/api/auth/login', { json: { token: 'ss_guess-0123456789abcdefghijklmnop' }, headers: { 'cf-connecting-ip': from } });
    for (let i = 0; i < 3; i++) expect((await attempt(ip)).status).toBe(401);
    const limited = await attempt(ip);
    const problem = await expectProblem(limited, 429);
    expect(problem.title).toBe('Too Many Requests');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await attempt(randomIp())).status).toBe(401);
  });

  it('limits anonymous workspace creation the same way', async () => {
    const ip = randomIp();
    const create = () => callWith({ RATE_LIMIT_PER_MINUTE: '2' }, '/api/workspaces', { json: { id: uuid(), workspaceName: 'w' }, headers: { 'cf-connecting-ip': ip } });
    expect((await create()).status).toBe(200);
    expect((await create()).status).toBe(200);
    const limited = await create();
    await expectProblem(limited, 429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });

  it('a bucket refills over time and never holds more than its burst', async () => {
    const stub = (env as any).RATE_LIMITER.get((env as any).RATE_LIMITER.idFromName(`test:${uuid()}`));
    const rule = { burst: 2, perMinute: 600 }; // one token every 100 ms
    expect(await stub.take(rule)).toEqual({ allowed: true, remaining: 1 });
    expect(await stub.take(rule)).toEqual({ allowed: true, remaining: 0 });
    const refused = await stub.take(rule);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((r) => setTimeout(r, 150));
    expect(await stub.take(rule)).toMatchObject({ allowed: true });
  });
});

describe('admin workspace ids', () => {
  it('can be created only with X-Admin-Secret equal to ADMIN_SECRET (403 otherwise)', async () => {
    const id = uuid();
    const vars = { ADMIN_WORKSPACE_IDS: id, ADMIN_SECRET: 'the-admin-secret-0123456789' };
    const create = (headers?: Record<string, string>) => callWith(vars, '/api/workspaces', { json: { id, workspaceName: 'Admins' }, headers });
    await expectProblem(await create(), 403);
    await expectProblem(await create({ 'x-admin-secret': 'wrong' }), 403);
    const ok = await expectJson(await create({ 'x-admin-secret': vars.ADMIN_SECRET }), 200);
    expect(ok.id).toBe(id);
  });

  it('cannot be created at all while ADMIN_SECRET is not set', async () => {
    const id = uuid();
    const res = await callWith({ ADMIN_WORKSPACE_IDS: id, ADMIN_SECRET: '' }, '/api/workspaces', { json: { id, workspaceName: 'Admins' }, headers: { 'x-admin-secret': '' } });
    await expectProblem(res, 403);
  });
});

describe('tokens are tied to the workspace instance', () => {
  it('a token of a deleted workspace does not open a new workspace created with the same id', async () => {
    const id = uuid();
    const first = await createWorkspaceRaw(id);
    const oldToken = (await login(first.token)).accessToken;
    expect((await call('/api/workspaces', { token: oldToken })).status).toBe(200);
    expect((await call('/api/workspaces', { method: 'DELETE', token: oldToken })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 5));
    const second = await createWorkspaceRaw(id);
    const newToken = (await login(second.token)).accessToken;
    const refused = await expectProblem(await call('/api/workspaces', { token: oldToken }), 401);
    expect(refused.detail).toMatch(/earlier workspace/);
    expect((await call('/api/workspaces', { token: newToken })).status).toBe(200);
  });
});

describe('printers per workspace', () => {
  it('refuses the printer beyond MAX_PRINTERS_PER_WORKSPACE with 409', async () => {
    const ws = await newWorkspace();
    await createPrinter(ws);
    const res = await callWith({ MAX_PRINTERS_PER_WORKSPACE: '1' }, '/api/printers', { token: ws.accessToken, json: printerBody(uuid()) });
    const problem = await expectProblem(res, 409);
    expect(problem.detail).toMatch(/maximum of 1 printers/);
  });
});

describe('decompression bombs on the NV image route', () => {
  it('a small PNG inflating to 32 MiB answers 400 problem+json naming the problem', async () => {
    const ws = await newWorkspace();
    const printer = await createPrinter(ws, { settings: { widthInDots: 384 } });
    const bomb = pngBomb(64, 64, 32 << 20);
    const form = new FormData();
    form.append('file', new Blob([bomb as BlobPart], { type: 'image/png' }), 'bomb.png');
    const res = await call(`/api/printers/${printer.printer.id}/nv-images/5`, { method: 'PUT', token: ws.accessToken, body: form });
    const problem = await expectProblem(res, 400);
    expect(problem.detail).toMatch(/inflates beyond/);
  });
});

describe('security headers', () => {
  it('Worker responses carry CSP with frame-ancestors, nosniff and DENY framing', async () => {
    const res = await call('/api/workspaces/greeting');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the session cookie is Secure behind a trusted TLS-terminating proxy, and only then', async () => {
    const ws = await newWorkspace();
    const cookie = async (vars: Record<string, string>) =>
      (await callWith(vars, '/api/auth/session-cookie', { method: 'POST', token: ws.accessToken, headers: { 'x-forwarded-proto': 'https' } })).headers.get('set-cookie') ?? '';
    expect(await cookie({ TRUST_PROXY: 'true' })).toMatch(/;\s*Secure/i);
    expect(await cookie({ TRUST_PROXY: 'false' })).not.toMatch(/;\s*Secure/i);
  });
});
