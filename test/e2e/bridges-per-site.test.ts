/**
 * Two sites on one deployment (docs/contract/extensions.md "Sites: a bridge per LAN"): two real tcp-bridge
 * processes, each started with nothing but its workspace's BRIDGE_TOKEN and WORKER_URL, bound
 * to their own loopback addresses (127.0.0.2 and 127.0.0.3) next to the shared bridge of
 * `npm start` (127.0.0.1). Each binds only its printers, prints reach the right workspace,
 * revoking one closes its listeners within 5 s and leaves the other printing, and a wrong or
 * revoked token is refused.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createWorkspaceAndLogin, type Api } from './api.ts';
import { documentText, until, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { startBridgeProcess, type BridgeHandle } from '../bridge-unit/support/stack.ts';
import { isRefused, printAndClose } from '../bridge-unit/support/tcp.ts';

const baseUrl = inject('baseUrl');

interface Site {
  api: Api;
  host: string;
  bridge: { id: string; token: string };
  process: BridgeHandle;
  printer: { id: string; port: number; publicHost: string };
}

const started: BridgeHandle[] = [];

/** A site's bridge as its README section says: only BRIDGE_TOKEN and WORKER_URL (plus its address). */
function startSiteBridge(token: string, host: string): BridgeHandle {
  const p = startBridgeProcess({ workerUrl: baseUrl, secret: '', bindHost: host, env: { BRIDGE_TOKEN: token } });
  started.push(p);
  return p;
}

async function openSite(name: string, host: string): Promise<Site> {
  const { api } = await createWorkspaceAndLogin(name);
  const created = await api('POST', '/api/workspaces/bridges', { name: `${name} bridge`, publicHost: host });
  expect(created.status).toBe(200);
  const bridge = created.body as { id: string; token: string };
  const process = startSiteBridge(bridge.token, host);
  await process.waitForLog((l) => l.event === 'control.connected');
  const res = await api('POST', '/api/printers', {
    printer: { id: randomUUID(), displayName: `${name} till` },
    settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: bridge.id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The create waited for this site's bridge to bind the port.
  expect(res.body.runtimeStatus.state).toBe('Started');
  const printer = { id: res.body.printer.id, port: res.body.settings.tcpListenPort, publicHost: res.body.settings.publicHost };
  return { api, host, bridge, process, printer };
}

let a: Site;
let b: Site;

beforeAll(async () => {
  [a, b] = await Promise.all([openSite('site A', '127.0.0.2'), openSite('site B', '127.0.0.3')]);
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
});

describe('a bridge per site', () => {
  it('each bridge binds only its own printers, at its own address', async () => {
    expect(a.printer.publicHost).toBe('127.0.0.2');
    expect(b.printer.publicHost).toBe('127.0.0.3');
    for (const [site, other] of [[a, b], [b, a]] as const) {
      expect(await isRefused(site.printer.port, site.host)).toBe(false);
      // Not bound by the other site's bridge, nor by the shared bridge of `npm start`.
      expect(await isRefused(site.printer.port, other.host)).toBe(true);
      expect(await isRefused(site.printer.port, '127.0.0.1')).toBe(true);
      const bound = site.process.logs().filter((l) => l.event === 'listener.bound').map((l) => l.printerId);
      expect(bound).toEqual([site.printer.id]);
    }
    const listed = await a.api('GET', '/api/workspaces/bridges');
    expect(listed.body).toEqual([expect.objectContaining({ id: a.bridge.id, isConnected: true, listeningPrinterCount: 1, remoteAddress: expect.any(String), version: expect.stringMatching(/^slipstream-tcp-bridge\//) })]);
  });

  it('prints reach the right workspace', async () => {
    await printAndClose(a.printer.port, 'Receipt for site A\n', a.host);
    await printAndClose(b.printer.port, 'Receipt for site B\n', b.host);
    const [docA] = await waitForDocuments(a.api, a.printer.id, 1);
    const [docB] = await waitForDocuments(b.api, b.printer.id, 1);
    expect(documentText(docA)).toContain('Receipt for site A');
    expect(documentText(docB)).toContain('Receipt for site B');
    // Neither workspace sees the other's printer.
    expect((await a.api('GET', `/api/printers/${b.printer.id}`)).status).toBe(404);
    expect((await b.api('GET', `/api/printers/${a.printer.id}`)).status).toBe(404);
  });

  it('a wrong token is refused', async () => {
    const wrong = startSiteBridge('ssb_' + 'x'.repeat(43), '127.0.0.4');
    const refused = await wrong.waitForLog((l) => l.event === 'control.rejected');
    expect(refused.status).toBe(401);
    expect(wrong.logs().some((l) => l.event === 'control.connected')).toBe(false);
  });

  it('revoking one bridge closes its listeners within 5 s and leaves the other printing', async () => {
    const revoked = await a.api('DELETE', `/api/workspaces/bridges/${a.bridge.id}`);
    expect(revoked.status).toBe(204);
    const t0 = Date.now();
    await until(() => isRefused(a.printer.port, a.host), 5000, 'site A\'s port closed within 5 s of the revoke');
    expect(Date.now() - t0).toBeLessThan(5000);
    // It cannot come back: its reconnects are refused.
    const refused = await a.process.waitForLog((l) => l.event === 'control.rejected', 20_000);
    expect(refused.status).toBe(401);
    expect(await isRefused(a.printer.port, a.host)).toBe(true);
    const printer = await a.api('GET', `/api/printers/${a.printer.id}`);
    expect(printer.body.runtimeStatus.state).toBe('Starting');

    await printAndClose(b.printer.port, 'Site B still printing\n', b.host);
    const docs = await waitForDocuments(b.api, b.printer.id, 2);
    expect(docs.map(documentText).join('\n')).toContain('Site B still printing');
    const listed = await b.api('GET', '/api/workspaces/bridges');
    expect(listed.body[0]).toMatchObject({ id: b.bridge.id, isConnected: true, listeningPrinterCount: 1 });
  }, 40_000);
});
