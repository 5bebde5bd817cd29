/**
 * Bearer tokens (decisions.md "JSON and errors", "Auth and roles"): every missing,
 * malformed, tampered, wrongly signed, `alg: none` or expired token is 401 problem+json.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { call, env, expectJson, expectProblem, expectStatus, newWorkspace, uuid, type Ws } from './helpers.ts';

const PROTECTED = ['/api/workspaces', '/api/printers'];
const key = (secret: string) => new TextEncoder().encode(secret);

let ws: Ws;
beforeAll(async () => {
  ws = await newWorkspace();
});

function b64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function unb64url(part: string): string {
  return atob(part.replace(/-/g, '+').replace(/_/g, '/'));
}

async function sign(claims: Record<string, unknown>, opts: { secret?: string; exp?: number; sub?: string; alg?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'Normal', ...claims })
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(opts.sub ?? ws.id)
    .setIssuedAt(now - 10)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(key(opts.secret ?? env.JWT_SECRET));
}

async function expect401(authorization: string | null, label: string): Promise<void> {
  for (const path of PROTECTED) {
    const headers: Record<string, string> = authorization === null ? {} : { authorization };
    const res = await call(path, { headers });
    const text = await res.clone().text();
    expect(res.status, `${label} on ${path}: ${text.slice(0, 200)}`).toBe(401);
    const p = await expectProblem(res, 401);
    expect(p.instance).toBe(path);
  }
}

describe('valid tokens', () => {
  it('the login token works on both probe endpoints', async () => {
    for (const path of PROTECTED) await expectJson(await call(path, { token: ws.accessToken }), 200);
  });

  it('a token signed with the configured secret is accepted (the probes can tell good from bad)', async () => {
    const token = await sign({});
    for (const path of PROTECTED) await expectJson(await call(path, { token }), 200);
  });

  it('the scheme name is case-insensitive', async () => {
    await expectJson(await call('/api/workspaces', { headers: { authorization: `bearer ${ws.accessToken}` } }), 200);
  });
});

describe('bad tokens are 401 problem+json', () => {
  it('missing Authorization header', async () => {
    await expect401(null, 'missing');
  });

  it('empty header and empty bearer', async () => {
    await expect401('', 'empty header');
    await expect401('Bearer', 'scheme only');
    await expect401('Bearer ', 'scheme and space');
  });

  it('wrong scheme', async () => {
    await expect401(`Basic ${btoa('user:pass')}`, 'basic');
    await expect401(`Token ${ws.accessToken}`, 'token scheme');
    await expect401(ws.accessToken, 'no scheme');
  });

  it('garbage', async () => {
    await expect401('Bearer garbage', 'garbage');
    await expect401('Bearer a.b.c', 'three garbage parts');
    await expect401('Bearer ...', 'dots');
    await expect401(`Bearer ${'x'.repeat(5000)}`, 'long garbage');
    await expect401('Bearer eyJhbGciOiJIUzI1NiJ9', 'header only');
  });

  it('expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ role: 'Normal' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ws.id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key(env.JWT_SECRET));
    await expect401(`Bearer ${token}`, 'expired');
  });

  it('tampered payload (signature of the original kept)', async () => {
    const [h, , s] = ws.accessToken.split('.');
    const payload = JSON.parse(unb64url(ws.accessToken.split('.')[1]));
    const admin = b64url(JSON.stringify({ ...payload, role: 'Admin' }));
    await expect401(`Bearer ${h}.${admin}.${s}`, 'tampered role');
    const other = b64url(JSON.stringify({ ...payload, sub: uuid() }));
    await expect401(`Bearer ${h}.${other}.${s}`, 'tampered sub');
    const longer = b64url(JSON.stringify({ ...payload, exp: payload.exp + 86400 * 365 }));
    await expect401(`Bearer ${h}.${longer}.${s}`, 'tampered exp');
  });

  it('tampered signature', async () => {
    const [h, p, s] = ws.accessToken.split('.');
    const flipped = (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    await expect401(`Bearer ${h}.${p}.${flipped}`, 'flipped signature');
    await expect401(`Bearer ${h}.${p}.`, 'no signature');
  });

  it('wrong signing secret', async () => {
    const token = await sign({}, { secret: 'another-secret-that-is-long-enough-0123456789' });
    await expect401(`Bearer ${token}`, 'wrong secret');
  });

  it('alg: none', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsecured = new UnsecuredJWT({ role: 'Normal' }).setSubject(ws.id).setIssuedAt(now).setExpirationTime(now + 3600).encode();
    await expect401(`Bearer ${unsecured}`, 'UnsecuredJWT');
    // hand-made variants: "none", "None", "NONE", with the original signature kept
    const [, p, s] = ws.accessToken.split('.');
    for (const alg of ['none', 'None', 'NONE']) {
      const h = b64url(JSON.stringify({ alg, typ: 'JWT' }));
      await expect401(`Bearer ${h}.${p}.`, `alg ${alg}`);
      await expect401(`Bearer ${h}.${p}.${s}`, `alg ${alg} with signature`);
    }
  });

  it('another HMAC algorithm with the same secret', async () => {
    const token = await sign({}, { alg: 'HS512' });
    await expect401(`Bearer ${token}`, 'HS512');
  });

  it('a valid signature but an unknown workspace or role', async () => {
    await expect401(`Bearer ${await sign({}, { sub: uuid() })}`, 'unknown workspace');
    await expect401(`Bearer ${await sign({ role: 'Superuser' })}`, 'unknown role');
    await expect401(`Bearer ${await sign({ role: undefined })}`, 'no role');
  });

  it('a token of a deleted workspace', async () => {
    const gone = await newWorkspace();
    await call('/api/workspaces', { method: 'DELETE', token: gone.accessToken }).then((r) => r.arrayBuffer());
    await expect401(`Bearer ${gone.accessToken}`, 'deleted workspace');
  });

  it('a forged Admin role claim does not make a normal workspace admin', async () => {
    const token = await sign({ role: 'Admin' });
    const res = await call('/api/workspaces/admin-statistics', { token });
    expect([401, 403]).toContain(res.status);
    await expectProblem(res, res.status);
  });
});

describe('tokens of a deleted workspace', () => {
  it('an access token issued before a workspace with the same id was re-created is refused', async () => {
    const id = crypto.randomUUID();
    const first = await newWorkspace(id);
    await expectStatus(await call('/api/workspaces', { method: 'DELETE', token: first.accessToken }), 204);
    const oldToken = await new SignJWT({ role: 'Normal' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) + 3600)
      .sign(key(env.JWT_SECRET));
    const second = await newWorkspace(id);
    await expectProblem(await call('/api/workspaces', { token: oldToken }), 401);
    await expectJson(await call('/api/workspaces', { token: second.accessToken }), 200);
  });
});
