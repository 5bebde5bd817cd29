/**
 * Contract section 4 (Workspaces): GET/PATCH/DELETE, validation of PATCH, summary,
 * admin statistics, connections.
 */
import { describe, expect, it } from 'vitest';
import {
  adminWorkspace, assertResponseRules, call, createPrinter, env, escposRasterHex, escposTextHex, listDocs, expectDateTime, expectJson,
  expectNullableDateTime, expectProblem, expectStatus, importDoc, newWorkspace, uuid, type Ws,
} from './helpers.ts';

function assertWorkspaceDto(ws: any): void {
  expect(typeof ws.id).toBe('string');
  expect(typeof ws.name).toBe('string');
  expectDateTime(ws.createdAt);
  expect(['Normal', 'Admin']).toContain(ws.role);
  expect(Number.isInteger(ws.documentRetentionDays)).toBe(true);
  expect(typeof ws.tcpWhitelistEnabled).toBe('boolean');
  expect(typeof ws.tcpWhitelistEntries).toBe('string');
  expectNullableDateTime(ws, 'lastApiReadAt');
  expectNullableDateTime(ws, 'lastWebReadAt');
  for (const k of Object.keys(ws)) {
    expect([
      'id', 'name', 'createdAt', 'role', 'documentRetentionDays', 'tcpWhitelistEnabled', 'tcpWhitelistEntries',
      'lastApiReadAt', 'lastWebReadAt', 'lightColorScheme', 'darkColorScheme',
    ]).toContain(k);
  }
  expect(ws).not.toHaveProperty('token');
  assertResponseRules(ws);
}

const patch = (ws: Ws, json: unknown) => call('/api/workspaces', { method: 'PATCH', token: ws.accessToken, json });

describe('GET /api/workspaces', () => {
  it('returns the caller\u2019s WorkspaceDto with the always-present stamps and no token', async () => {
    const ws = await newWorkspace(uuid(), 'Bakery');
    const body = await expectJson(await call('/api/workspaces', { token: ws.accessToken }), 200);
    assertWorkspaceDto(body);
    expect(body.id).toBe(ws.id);
    expect(body.name).toBe('Bakery');
    expect(body.role).toBe('Normal');
    expect(body.documentRetentionDays).toBe(30);
    expect(body.tcpWhitelistEnabled).toBe(false);
    expect(body.tcpWhitelistEntries).toBe('');
    expect(body.lastApiReadAt).toBeNull();
    expect(body.lastWebReadAt).toBeNull();
    // null colour schemes are omitted
    expect(body).not.toHaveProperty('lightColorScheme');
    expect(body).not.toHaveProperty('darkColorScheme');
  });
});

describe('PATCH /api/workspaces', () => {
  it('updates only the supplied fields and returns the WorkspaceDto', async () => {
    const ws = await newWorkspace(uuid(), 'Before');
    const body = await expectJson(await patch(ws, { name: 'After', documentRetentionDays: 7 }), 200);
    assertWorkspaceDto(body);
    expect(body.name).toBe('After');
    expect(body.documentRetentionDays).toBe(7);
    expect(body.tcpWhitelistEnabled).toBe(false);
    const again = await expectJson(await patch(ws, { tcpWhitelistEnabled: true }), 200);
    expect(again.name).toBe('After');
    expect(again.documentRetentionDays).toBe(7);
    expect(again.tcpWhitelistEnabled).toBe(true);
    const fetched = await expectJson(await call('/api/workspaces', { token: ws.accessToken }), 200);
    expect(fetched.name).toBe('After');
    expect(fetched.tcpWhitelistEnabled).toBe(true);
  });

  it('matches property names case-insensitively', async () => {
    const ws = await newWorkspace();
    const body = await expectJson(await patch(ws, { Name: 'Pascal', DOCUMENTRETENTIONDAYS: 12 }), 200);
    expect(body.name).toBe('Pascal');
    expect(body.documentRetentionDays).toBe(12);
  });

  it('accepts retention 1 and 3650, refuses 0 and 3651 with 400', async () => {
    const ws = await newWorkspace();
    expect((await expectJson(await patch(ws, { documentRetentionDays: 1 }), 200)).documentRetentionDays).toBe(1);
    expect((await expectJson(await patch(ws, { documentRetentionDays: 3650 }), 200)).documentRetentionDays).toBe(3650);
    for (const bad of [0, 3651, -1, 1.5, '30']) {
      const p = await expectProblem(await patch(ws, { documentRetentionDays: bad }), 400, { errors: true });
      expect(Object.keys(p.errors!).join(',')).toMatch(/documentRetentionDays/);
    }
    // unchanged by the refused requests
    expect((await expectJson(await call('/api/workspaces', { token: ws.accessToken }), 200)).documentRetentionDays).toBe(3650);
  });

  it('refuses an invalid whitelist entry with 400 naming it', async () => {
    const ws = await newWorkspace();
    const p = await expectProblem(await patch(ws, { tcpWhitelistEntries: '10.0.0.1, not-an-ip, 192.168.1.0/24' }), 400, { errors: true });
    expect(JSON.stringify(p)).toContain('not-an-ip');
    expect(JSON.stringify(p)).not.toContain('"10.0.0.1"');
    for (const bad of ['300.1.1.1', '10.0.0.0/33', '::g', 'fe80::1/129', 'localhost']) {
      const q = await expectProblem(await patch(ws, { tcpWhitelistEntries: bad }), 400, { errors: true });
      expect(JSON.stringify(q)).toContain(bad);
    }
    expect((await expectJson(await call('/api/workspaces', { token: ws.accessToken }), 200)).tcpWhitelistEntries).toBe('');
  });

  it('accepts IPv4, IPv6, CIDR, comments, commas and newlines', async () => {
    const ws = await newWorkspace();
    const entries = [
      '# the shop floor',
      '192.168.1.10, 192.168.1.11',
      '10.0.0.0/8   # all of them',
      '2001:db8::1',
      '2001:db8::/32',
      '::ffff:192.168.2.1',
      '',
      '   172.16.0.0/12  ',
    ].join('\n');
    const body = await expectJson(await patch(ws, { tcpWhitelistEnabled: true, tcpWhitelistEntries: entries }), 200);
    expect(body.tcpWhitelistEnabled).toBe(true);
    expect(body.tcpWhitelistEntries).toBe(entries);
    // CRLF works too
    await expectJson(await patch(ws, { tcpWhitelistEntries: '10.0.0.1\r\n10.0.0.2' }), 200);
    // empty clears the list
    expect((await expectJson(await patch(ws, { tcpWhitelistEntries: '' }), 200)).tcpWhitelistEntries).toBe('');
  });

  it('accepts the preset colour schemes and refuses unknown names', async () => {
    const ws = await newWorkspace();
    const body = await expectJson(await patch(ws, { lightColorScheme: 'paper', darkColorScheme: 'midnight' }), 200);
    expect(body.lightColorScheme).toBe('paper');
    expect(body.darkColorScheme).toBe('midnight');
    await expectProblem(await patch(ws, { lightColorScheme: 'hotpink' }), 400, { errors: true });
    await expectProblem(await patch(ws, { darkColorScheme: 'not-a-scheme' }), 400, { errors: true });
    await expectProblem(await patch(ws, { lightColorScheme: 42 }), 400, { errors: true });
    const after = await expectJson(await call('/api/workspaces', { token: ws.accessToken }), 200);
    expect(after.lightColorScheme).toBe('paper');
    expect(after.darkColorScheme).toBe('midnight');
  });

  it('an empty patch changes nothing', async () => {
    const ws = await newWorkspace(uuid(), 'Stable');
    const body = await expectJson(await patch(ws, {}), 200);
    expect(body.name).toBe('Stable');
    expect(body.documentRetentionDays).toBe(30);
  });
});

describe('DELETE /api/workspaces', () => {
  it('answers 204, then the token no longer logs in and the access token is refused', async () => {
    const ws = await newWorkspace();
    const printer = await createPrinter(ws);
    await importDoc(ws, printer.printer.id, escposRasterHex(7));
    const doc = (await listDocs(ws, printer.printer.id)).result.items[0];
    const mediaUrl = doc.canvases.flatMap((c: any) => c.items).find((e: any) => e.type === 'image').media.url;
    expect((await call(mediaUrl)).status).toBe(200);
    const res = await call('/api/workspaces', { method: 'DELETE', token: ws.accessToken });
    await expectStatus(res, 204);
    await expectProblem(await call('/api/auth/login', { json: { token: ws.token } }), 401);
    await expectProblem(await call('/api/workspaces', { token: ws.accessToken }), 401);
    // its printers, documents and media are gone
    const docs = await env.PRINTER.get(env.PRINTER.idFromName(printer.printer.id)).countDocuments(printer.printer.id, null);
    expect(docs.documents).toBe(0);
    const counted = await env.DB.prepare('SELECT COUNT(*) AS n FROM document_counters WHERE workspace_id = ?').bind(ws.id).first<{ n: number }>();
    expect(counted?.n).toBe(0);
    const printers = await env.DB.prepare('SELECT COUNT(*) AS n FROM printers WHERE workspace_id = ? AND deleted_at IS NULL').bind(ws.id).first<{ n: number }>();
    expect(printers?.n).toBe(0);
    await expectProblem(await call(mediaUrl), 404);
    // the id can be created again as a new workspace with a new token
    const again = await expectJson(await call('/api/workspaces', { json: { id: ws.id, workspaceName: 'reborn' } }), 200);
    expect(again.token).not.toBe(ws.token);
  });

  it('does not touch other workspaces', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const pb = await createPrinter(b);
    await expectStatus(await call('/api/workspaces', { method: 'DELETE', token: a.accessToken }), 204);
    await expectJson(await call('/api/workspaces', { token: b.accessToken }), 200);
    await expectJson(await call(`/api/printers/${pb.printer.id}`, { token: b.accessToken }), 200);
  });
});

describe('GET /api/workspaces/summary', () => {
  it('returns the WorkspaceSummaryDto with counts of the caller\u2019s workspace', async () => {
    const ws = await newWorkspace();
    const empty = await expectJson(await call('/api/workspaces/summary', { token: ws.accessToken }), 200);
    expect(empty.totalPrinters).toBe(0);
    expect(empty.totalDocuments).toBe(0);
    expect(empty.documentsLast24h).toBe(0);
    expectDateTime(empty.createdAt);
    // lastDocumentAt is nullable but not one of the always-present stamps: omitted while null
    expect(empty).not.toHaveProperty('lastDocumentAt');
    assertResponseRules(empty);

    const p = await createPrinter(ws);
    await createPrinter(ws);
    await importDoc(ws, p.printer.id, escposTextHex('one'));
    await importDoc(ws, p.printer.id, escposTextHex('two'));
    const body = await expectJson(await call('/api/workspaces/summary', { token: ws.accessToken }), 200);
    expect(body.totalPrinters).toBe(2);
    expect(body.totalDocuments).toBe(2);
    expect(body.documentsLast24h).toBe(2);
    expectDateTime(body.lastDocumentAt);
    for (const k of Object.keys(body)) expect(['totalPrinters', 'totalDocuments', 'documentsLast24h', 'lastDocumentAt', 'createdAt']).toContain(k);
    assertResponseRules(body);
  });
});

describe('GET /api/workspaces/admin-statistics', () => {
  it('is 403 problem+json for a normal workspace', async () => {
    const ws = await newWorkspace();
    await expectProblem(await call('/api/workspaces/admin-statistics', { token: ws.accessToken }), 403);
  });

  it('returns the AdminWorkspaceStatisticsDto for an admin', async () => {
    const admin = await adminWorkspace();
    const other = await newWorkspace(uuid(), 'Counted');
    const p = await createPrinter(other);
    await importDoc(other, p.printer.id, escposTextHex('stat'));
    const body = await expectJson(await call('/api/workspaces/admin-statistics', { token: admin.accessToken }), 200);
    const ints = [
      'totalWorkspaces', 'activeWorkspacesLast24h', 'activeWorkspacesLast7d', 'totalPrinters', 'totalDocuments', 'totalMedia',
      'totalMediaBytes', 'documentsLast24h', 'documentsLast7d', 'mediaLast24h', 'mediaLast7d',
    ];
    for (const k of ints) expect(Number.isInteger(body[k]), k).toBe(true);
    expect(body.totalWorkspaces).toBeGreaterThanOrEqual(2);
    expect(body.totalDocuments).toBeGreaterThanOrEqual(1);
    expect(body.totalPrinters).toBeGreaterThanOrEqual(1);
    expectDateTime(body.lastDocumentAt);
    expect(Array.isArray(body.workspaces)).toBe(true);
    const row = body.workspaces.find((w: any) => w.workspaceId === other.id);
    expect(row).toBeDefined();
    expect(row.workspaceName).toBe('Counted');
    expect(row.role).toBe('Normal');
    expect(row.printerCount).toBe(1);
    expect(row.documentCount).toBe(1);
    expect(row.documentsLast24h).toBe(1);
    expect(Number.isInteger(row.mediaCount)).toBe(true);
    expect(Number.isInteger(row.mediaBytes)).toBe(true);
    expect(row.documentRetentionDays).toBe(30);
    expectDateTime(row.lastDocumentAt);
    const adminRow = body.workspaces.find((w: any) => w.workspaceId === admin.id);
    expect(adminRow.role).toBe('Admin');
    for (const k of Object.keys(body)) expect([...ints, 'lastDocumentAt', 'workspaces']).toContain(k);
    assertResponseRules(body);
  });
});

describe('GET /api/workspaces/connections', () => {
  it('returns an array (empty without TCP traffic), with the default and an explicit window', async () => {
    const ws = await newWorkspace();
    expect(await expectJson(await call('/api/workspaces/connections', { token: ws.accessToken }), 200)).toEqual([]);
    expect(await expectJson(await call('/api/workspaces/connections?minutes=1', { token: ws.accessToken }), 200)).toEqual([]);
    expect(await expectJson(await call('/api/workspaces/connections?minutes=1440', { token: ws.accessToken }), 200)).toEqual([]);
  });

  it('lists recorded attempts of the caller\u2019s workspace only, as TcpConnectionEntryDto', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const p = await createPrinter(ws);
    const now = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare('INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed) VALUES (?, ?, ?, ?, ?)')
        .bind(ws.id, p.printer.id, '192.168.1.20', now, 1),
      env.DB.prepare('INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed) VALUES (?, ?, ?, ?, ?)')
        .bind(ws.id, p.printer.id, '10.9.9.9', new Date(Date.now() - 3 * 3600_000).toISOString(), 0),
      env.DB.prepare('INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed) VALUES (?, ?, ?, ?, ?)')
        .bind(other.id, p.printer.id, '172.16.0.1', now, 1),
    ]);
    const recent = await expectJson(await call('/api/workspaces/connections', { token: ws.accessToken }), 200);
    expect(recent).toEqual([{ clientIp: '192.168.1.20', connectedAt: now, allowed: true, connectionType: 'Tcp' }]);
    const day = await expectJson(await call('/api/workspaces/connections?minutes=1440', { token: ws.accessToken }), 200);
    expect(day.map((e: any) => e.clientIp)).toEqual(['192.168.1.20', '10.9.9.9']);
    expect(day[1].allowed).toBe(false);
    expectDateTime(day[1].connectedAt);
    assertResponseRules(day);
  });

  it('refuses minutes 0, 1441 and non-numbers with 400', async () => {
    const ws = await newWorkspace();
    for (const q of ['0', '1441', '-5', 'abc', '1.5']) {
      await expectProblem(await call(`/api/workspaces/connections?minutes=${q}`, { token: ws.accessToken }), 400, { errors: true });
    }
  });

  it('matches the query parameter name case-insensitively', async () => {
    const ws = await newWorkspace();
    await expectProblem(await call('/api/workspaces/connections?Minutes=0', { token: ws.accessToken }), 400, { errors: true });
    expect(await expectJson(await call('/api/workspaces/connections?MINUTES=5', { token: ws.accessToken }), 200)).toEqual([]);
  });
});
