/**
 * Issue 32 in workerd, for what needs no sockets: deleting a workspace or printer leaves no
 * document, row or R2 object; outbound URLs under a deployment's default settings; bridge
 * fields. The findings themselves are reproduced through `npm start` in test/e2e/boundaries.test.ts.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, createPrinter, elementsOf, env, escposLargeRasterHex, escposRasterHex, expectProblem, expectStatus, importDoc, listDocs, newWorkspace, type Ws } from './helpers.ts';
import { outboundUrlProblem } from '../../src/worker/services/outbound-url.ts';
import { clientAddressOf, parseControlMessage, parseSessionControl } from '../../src/worker/services/bridge-input.ts';
import { DeferredMediaPurge } from '../../src/worker/objects/printer-retirement.ts';
import type { Env } from '../../src/worker/env.ts';

const stub = (printerId: string) => env.PRINTER.get(env.PRINTER.idFromName(printerId));

/** A printer with one imported document holding an image (a large one: a keyed medium of its own); its medium's URL and R2 key. */
async function printerWithImage(ws: Ws, seed: number) {
  const printerId = (await createPrinter(ws)).printer.id as string;
  await importDoc(ws, printerId, escposLargeRasterHex(seed), 'Hex');
  const doc = (await listDocs(ws, printerId)).result.items[0];
  const url = elementsOf(doc).find((e: any) => e.type === 'image').media.url as string;
  expect((await call(url)).status).toBe(200);
  return { printerId, url, key: `media/k/${url.split('/').pop()}.png` };
}

async function leftInD1(column: 'workspace_id' | 'printer_id', id: string) {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).bind(id).first<{ n: number }>())!.n;
  return { media: await count('media'), counters: await count('document_counters'), connections: await count('tcp_connections') };
}

const documentsInObject = (printerId: string) =>
  runInDurableObject(stub(printerId), async (_o, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM documents').one().n);

describe('deleting leaves nothing behind', () => {
  it('a workspace: documents, media rows, counters, connection rows and R2 objects are gone when DELETE answers', async () => {
    const ws = await newWorkspace();
    const { printerId, url, key } = await printerWithImage(ws, 9001);
    // A small picture too: it is in its document's pack (media-pack.ts).
    await importDoc(ws, printerId, escposRasterHex(9001), 'Hex');
    const small = elementsOf((await listDocs(ws, printerId)).result.items[0]).find((e: any) => e.type === 'image').media;
    expect(small.storageKey).toMatch(/^packs\//);
    expect((await call(small.url)).status).toBe(200);
    await env.DB.prepare("INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed) VALUES (?, ?, '10.0.0.1', ?, 1)")
      .bind(ws.id, printerId, new Date().toISOString()).run();
    const before = await leftInD1('workspace_id', ws.id);
    expect(before.media + before.counters + before.connections).toBeGreaterThan(2);
    expect(await env.MEDIA.head(key)).not.toBeNull();
    await expectStatus(await call('/api/workspaces', { method: 'DELETE', token: ws.accessToken }), 204);
    expect(await leftInD1('workspace_id', ws.id)).toEqual({ media: 0, counters: 0, connections: 0 });
    expect(await env.MEDIA.head(key)).toBeNull();
    expect(await env.MEDIA.head(small.storageKey)).toBeNull();
    expect(await documentsInObject(printerId)).toBe(0);
    await expectProblem(await call(url), 404);
    await expectProblem(await call(small.url), 404);
  });

  it('a printer: the same for its own rows and images, while the workspace\u2019s other printer keeps its copy', async () => {
    const ws = await newWorkspace();
    const gone = await printerWithImage(ws, 9002);
    const kept = await printerWithImage(ws, 9002);
    expect(kept.url).toBe(gone.url); // one medium per workspace
    await expectStatus(await call(`/api/printers/${gone.printerId}`, { method: 'DELETE', token: ws.accessToken }), 204);
    expect(await leftInD1('printer_id', gone.printerId)).toEqual({ media: 0, counters: 0, connections: 0 });
    expect(await documentsInObject(gone.printerId)).toBe(0);
    expect((await call(kept.url)).status).toBe(200);
    await expectStatus(await call(`/api/printers/${kept.printerId}`, { method: 'DELETE', token: ws.accessToken }), 204);
    await expectProblem(await call(kept.url), 404);
    expect(await env.MEDIA.head(kept.key)).toBeNull();
  });
});

describe('images a deleted printer leaves because they are recent', () => {
  it('are deleted by its alarm once no row uses them and they are older than MEDIA_KEEP_RECENT_MS; one used again is left alone', async () => {
    const ws = await newWorkspace();
    const { key: used } = await printerWithImage(ws, 9003);
    const left = `media/k/${crypto.randomUUID()}.png`;
    await env.MEDIA.put(left, new Uint8Array([1, 2, 3]));
    const purgeWith = (keepMs: string) => runInDurableObject(stub(crypto.randomUUID()), async (_o, state) => {
      const purge = new DeferredMediaPurge(state.storage.sql);
      purge.add([left, used]);
      const next = await purge.run({ ...env, MEDIA_KEEP_RECENT_MS: keepMs } as unknown as Env);
      return { next, empty: purge.isEmpty };
    });
    const early = await purgeWith('600000');
    expect(early.next).toBeGreaterThan(Date.now());
    expect(early.empty).toBe(false);
    expect(await env.MEDIA.head(left)).not.toBeNull();
    const late = await purgeWith('1');
    expect(late).toEqual({ next: null, empty: true });
    expect(await env.MEDIA.head(left)).toBeNull();
    expect(await env.MEDIA.head(used)).not.toBeNull(); // a live printer's document still uses it
  });
});

describe('outbound URLs under a deployment\u2019s default (ALLOW_PRIVATE_TARGETS unset)', () => {
  const policy = { allowPrivateTargets: false, ownHosts: ['print.example.com'] };

  it('refuses loopback, private, link-local, local names and the own host, in every spelling', () => {
    for (const url of [
      'http://127.0.0.1/', 'http://127.1/', 'http://0x7f000001/', 'http://2130706433/', 'http://[::1]/', 'http://[::ffff:7f00:1]/',
      'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.1.1/', 'http://100.64.0.1/', 'http://169.254.169.254/', 'http://[fe80::1]/',
      'http://[fd00::1]/', 'http://0.0.0.0/', 'http://localhost/', 'http://a.localhost/', 'http://printer.local/', 'http://intranet/',
      'http://print.example.com/', 'http://PRINT.example.com./x',
    ]) {
      expect(outboundUrlProblem(url, policy), url).toContain('ALLOW_PRIVATE_TARGETS');
    }
    expect(outboundUrlProblem('https://hooks.example.net/x', policy)).toBeNull();
    expect(outboundUrlProblem('http://93.184.215.14/x', policy)).toBeNull();
    expect(outboundUrlProblem('http://[2606:4700::1111]/x', policy)).toBeNull();
    expect(outboundUrlProblem('http://127.0.0.1:8080/x', { ...policy, allowPrivateTargets: true })).toBeNull();
    expect(outboundUrlProblem('http://user:pw@hooks.example.net/x', policy)).toMatch(/password/);
  });

  it('PUT /api/workspaces/webhook answers 400 naming the setting, and stores nothing', async () => {
    const ws = await newWorkspace();
    const res = await call('/api/workspaces/webhook', { method: 'PUT', token: ws.accessToken, json: { url: 'http://127.0.0.1:8787/cdn-cgi/local/scheduled' } });
    const problem = await expectProblem(res, 400);
    expect(problem.detail).toContain('ALLOW_PRIVATE_TARGETS');
    await expectStatus(await call('/api/workspaces/webhook', { token: ws.accessToken }), 204);
  });
});

describe('bridge fields', () => {
  it('accepts the messages a real bridge sends and refuses malformed or oversized ones with a reason', () => {
    const printerId = crypto.randomUUID();
    expect(parseControlMessage(JSON.stringify({ type: 'connection', printerId, clientIp: '::ffff:10.0.0.5', allowed: false, at: '2099-01-01' })))
      .toEqual({ ok: true, value: { type: 'connection', printerId, clientIp: '10.0.0.5', allowed: false } });
    for (const [msg, reason] of [
      [{ type: 'connection', printerId, clientIp: '<b>x</b>', allowed: true }, 'clientIp'],
      [{ type: 'connection', printerId: 'not-an-id', clientIp: '10.0.0.1', allowed: true }, 'printerId'],
      [{ type: 'connection', printerId, clientIp: '10.0.0.1', allowed: 'yes' }, 'allowed'],
      [{ type: 'bound', printerId, port: 70000, ok: true }, 'port'],
      [{ type: 'connection', printerId, clientIp: 'x'.repeat(5000), allowed: true }, 'longer'],
      [{ type: 'something' }, 'unknown type'],
    ] as const) {
      const r = parseControlMessage(JSON.stringify(msg));
      expect(r.ok).toBe(false);
      expect(!r.ok && r.reason).toContain(reason);
    }
    expect(parseSessionControl(JSON.stringify({ type: 'start', sessionId: 'a b', clientAddress: '10.0.0.1' })).ok).toBe(false);
    expect(parseSessionControl(JSON.stringify({ type: 'start', sessionId: 's-1', clientAddress: 'fe80::1%eth0' })).ok).toBe(false);
    expect(parseSessionControl(JSON.stringify({ type: 'buffer', bufferedBytes: -1, bufferedBytesDeltaBps: 0 })).ok).toBe(false);
    expect(parseSessionControl(JSON.stringify({ type: 'end', reason: 'closed', bytesSent: 12 }))).toEqual({ ok: true, value: { type: 'end', reason: 'closed', bytesSent: 12 } });
    expect(clientAddressOf('2001:db8::1')).toBe('2001:db8::1');
  });
});
