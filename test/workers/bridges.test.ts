/**
 * Bridges per workspace (docs/contract/extensions.md "Sites: a bridge per LAN") inside workerd: tokens
 * created, shown once and stored hashed, listed with their connection state and revoked;
 * `settings.bridgeId` limited to the workspace's own bridges; each bridge's control channel
 * lists only its printers; a printer's session accepted only from its own bridge; a revoked
 * bridge told to listen for nothing, disconnected and refused.
 */
import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { call, createPrinter, env, eventually, expectJson, expectProblem, getPrinter, newWorkspace, uuid, type Ws } from './helpers.ts';

const worker = (exports as any).default as { fetch(r: Request): Promise<Response & { webSocket: WebSocket | null }> };

const upgrade = (path: string, bearer: string) =>
  worker.fetch(new Request(`http://localhost${path}`, { headers: { upgrade: 'websocket', authorization: `Bearer ${bearer}` } }));

async function createBridge(ws: Ws, name = 'Shop', publicHost = 'shop.example.net') {
  return expectJson<{ id: string; name: string; publicHost: string; token: string }>(
    await call('/api/workspaces/bridges', { token: ws.accessToken, json: { name, publicHost } }), 200);
}

/** A control channel; its `listeners` messages are kept in order. */
async function control(bearer: string) {
  const res = await upgrade('/internal/bridge/control', bearer);
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const messages: any[] = [];
  let closed: number | null = null;
  ws.addEventListener('message', (ev) => { messages.push(JSON.parse(String(ev.data))); });
  ws.addEventListener('close', (ev) => { closed = ev.code; });
  return { ws, messages, closedCode: () => closed, lastListeners: () => [...messages].reverse().find((m) => m.type === 'listeners')?.listeners };
}

describe('bridges per workspace', () => {
  it('creates a bridge whose token is shown once and stored only as its SHA-256', async () => {
    const ws = await newWorkspace();
    const created = await createBridge(ws, 'Shop 12', 'shop-12.example.net');
    expect(created).toMatchObject({ name: 'Shop 12', publicHost: 'shop-12.example.net' });
    expect(created.token).toMatch(/^ssb_[A-Za-z0-9_-]{43}$/);
    const listed = await expectJson<any[]>(await call('/api/workspaces/bridges', { token: ws.accessToken }));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: created.id, name: 'Shop 12', publicHost: 'shop-12.example.net', isConnected: false, listeningPrinterCount: 0 });
    expect(listed[0]).not.toHaveProperty('lastSeenAt'); // null omission until it first connects
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const row = await env.DB.prepare('SELECT token_hash FROM bridges WHERE id = ?').bind(created.id).first<{ token_hash: string }>();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(created.token)));
    expect(row!.token_hash).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''));
    // Another workspace sees none of it.
    const other = await newWorkspace();
    expect(await expectJson(await call('/api/workspaces/bridges', { token: other.accessToken }))).toEqual([]);
    await expectProblem(await call(`/api/workspaces/bridges/${created.id}`, { method: 'DELETE', token: other.accessToken }), 404);
  });

  it('refuses a bad name or host and anonymous callers', async () => {
    const ws = await newWorkspace();
    const bad = await expectProblem(await call('/api/workspaces/bridges', { token: ws.accessToken, json: { name: '', publicHost: 'http://x/' } }), 400);
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(['name', 'publicHost']);
    await expectProblem(await call('/api/workspaces/bridges', { json: { name: 'x', publicHost: 'h' } }), 401);
  });

  it('assigns printers only to the workspace\u2019s own bridges and gives them the bridge\u2019s public host', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const mine = await createBridge(ws, 'Mine', 'mine.example.net');
    const theirs = await createBridge(other, 'Theirs', 'theirs.example.net');
    const base = { protocol: 'EscPos', widthInDots: 576 };
    const refused = await expectProblem(await call('/api/printers', {
      token: ws.accessToken, json: { printer: { id: uuid(), displayName: 'P' }, settings: { ...base, bridgeId: theirs.id } },
    }), 400);
    expect(refused.errors).toHaveProperty(['settings.bridgeId']);
    await expectProblem(await call('/api/printers', {
      token: ws.accessToken, json: { printer: { id: uuid(), displayName: 'P' }, settings: { ...base, bridgeId: uuid() } },
    }), 400);

    const onSite = await createPrinter(ws, { settings: { ...base, bridgeId: mine.id } as any });
    expect(onSite.settings).toMatchObject({ bridgeId: mine.id, publicHost: 'mine.example.net' });
    const shared = await createPrinter(ws);
    expect(shared.settings).not.toHaveProperty('bridgeId'); // null omission: the shared bridge
    expect(shared.settings.publicHost).toBe('localhost');

    const put = (id: string, settings: object) => call(`/api/printers/${id}`, {
      method: 'PUT', token: ws.accessToken, json: { printer: { id, displayName: 'P' }, settings: { ...base, ...settings } },
    });
    // Omitted on update: unchanged; another workspace's bridge: 400; null: back to the shared bridge.
    expect((await expectJson(await put(onSite.printer.id, {}))).settings.bridgeId).toBe(mine.id);
    await expectProblem(await put(onSite.printer.id, { bridgeId: theirs.id }), 400);
    expect((await getPrinter(ws, onSite.printer.id)).settings.bridgeId).toBe(mine.id);
    const moved = await expectJson(await put(onSite.printer.id, { bridgeId: null }));
    expect(moved.settings.publicHost).toBe('localhost');
    expect(moved.settings).not.toHaveProperty('bridgeId');
  });

  it('sends each bridge only its printers and accepts a printer\u2019s sessions only from its own bridge', async () => {
    const ws = await newWorkspace();
    const site = await createBridge(ws);
    const sitePrinter = await createPrinter(ws, { settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: site.id } as any });
    const sharedPrinter = await createPrinter(ws);

    const siteChannel = await control(site.token);
    const sharedChannel = await control(TEST_BRIDGE_SECRET);
    const siteIds = await eventually(async () => siteChannel.lastListeners()?.map((l: any) => l.printerId));
    expect(siteIds).toEqual([sitePrinter.printer.id]);
    const sharedIds = await eventually(async () => sharedChannel.lastListeners()?.map((l: any) => l.printerId));
    expect(sharedIds).toContain(sharedPrinter.printer.id);
    expect(sharedIds).not.toContain(sitePrinter.printer.id);

    // The bind report counts for the bridge's listing.
    siteChannel.ws.send(JSON.stringify({ type: 'bound', printerId: sitePrinter.printer.id, port: sitePrinter.settings.tcpListenPort, ok: true }));
    const listed = await eventually(async () => {
      const [b] = await expectJson<any[]>(await call('/api/workspaces/bridges', { token: ws.accessToken }));
      return b.listeningPrinterCount === 1 ? b : undefined;
    });
    expect(listed).toMatchObject({ isConnected: true, version: expect.any(String) });
    expect(listed.lastSeenAt).toEqual(expect.any(String));
    await eventually(async () => (await getPrinter(ws, sitePrinter.printer.id)).runtimeStatus?.state === 'Started' || undefined);

    const session = (printerId: string, bearer: string) => upgrade(`/internal/bridge/printers/${printerId}/session`, bearer);
    const own = await session(sitePrinter.printer.id, site.token);
    expect(own.status).toBe(101);
    own.webSocket!.accept();
    own.webSocket!.close(1000);
    expect((await session(sharedPrinter.printer.id, site.token)).status).toBe(403);
    expect((await session(sitePrinter.printer.id, TEST_BRIDGE_SECRET)).status).toBe(403);
    // Moving the printer to the shared bridge moves its listener.
    await expectJson(await call(`/api/printers/${sitePrinter.printer.id}`, {
      method: 'PUT', token: ws.accessToken,
      json: { printer: { id: sitePrinter.printer.id, displayName: 'P' }, settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: null } },
    }));
    expect(await eventually(async () => (siteChannel.lastListeners()?.length === 0 ? true : undefined))).toBe(true);
    expect(await eventually(async () => sharedChannel.lastListeners()?.some((l: any) => l.printerId === sitePrinter.printer.id) || undefined)).toBe(true);
    siteChannel.ws.close(1000);
    sharedChannel.ws.close(1000);
  });

  it('revoking tells the bridge to listen for nothing, disconnects it and refuses its token', async () => {
    const ws = await newWorkspace();
    const site = await createBridge(ws);
    const printer = await createPrinter(ws, { settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: site.id } as any });
    const channel = await control(site.token);
    await eventually(async () => channel.lastListeners()?.length === 1 || undefined);

    const res = await call(`/api/workspaces/bridges/${site.id}`, { method: 'DELETE', token: ws.accessToken });
    expect(res.status).toBe(204);
    expect(await eventually(async () => channel.closedCode() ?? undefined)).toBe(4001);
    expect(channel.lastListeners()).toEqual([]);
    expect(await expectJson(await call('/api/workspaces/bridges', { token: ws.accessToken }))).toEqual([]);
    const refusedControl = await upgrade('/internal/bridge/control', site.token);
    expect(refusedControl.status).toBe(401);
    expect(refusedControl.webSocket).toBeNull();
    expect((await upgrade(`/internal/bridge/printers/${printer.printer.id}/session`, site.token)).status).toBe(401);
    expect((await upgrade('/internal/bridge/control', 'ssb_' + 'x'.repeat(43))).status).toBe(401);
    // The printer keeps its bridge and listens nowhere (not silently on the shared bridge).
    const after = await getPrinter(ws, printer.printer.id);
    expect(after.settings.bridgeId).toBe(site.id);
    expect(after.runtimeStatus.state).toBe('Starting');
  });

  it('keeps the deployment-only internal routes for the shared secret', async () => {
    const ws = await newWorkspace();
    const site = await createBridge(ws);
    const res = await call('/internal/config/apply', { token: site.token, json: { workspaces: [] } });
    await expectProblem(res, 403);
  });
});
