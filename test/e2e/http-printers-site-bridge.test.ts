/**
 * HTTP printers on a site's bridge (extensions.md "Sites: a bridge per LAN" and "HTTP printers
 * on the printer's own port"): a real tcp-bridge started with only its BRIDGE_TOKEN, its own
 * address, state directory and LPD port, reaching the Worker through a relay the test can cut.
 * The printer's port serves Epson ePOS-Print over HTTP and over HTTPS (the site bridge's own
 * certificate, verified) and still takes raw jobs; a body over the job limit is answered 413 and
 * a request while the Worker is away 503, both at once and with CORS headers; the printer page
 * in Chromium names the site bridge's LPD port, and that queue prints.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createWorkspaceAndLogin, type Api } from './api.ts';
import { openChromium, signIn } from './browser.ts';
import { documentText, listDocuments, until, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { startBridgeProcess, type BridgeHandle } from '../bridge-unit/support/stack.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { startWorkerProxy, type WorkerProxy } from '../support/worker-proxy.ts';
import { eposSdkPost as sdkPost, postOverHttps } from './vendor-sdk-requests.ts';
import { LISTENER_DEFAULTS } from '../../src/shared/bridge-protocol.ts';

const run = promisify(execFile);
const baseUrl = inject('baseUrl');
/** The site's LAN address (a loopback address of its own). */
const HOST = '127.0.0.7';


let api: Api;
let token: string;
let proxy: WorkerProxy;
let bridge: BridgeHandle;
let stateDir: string;
let lpdPort: number;
let printer: { id: string; port: number };

async function freePort(host: string): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, host, r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  ({ api, token } = await createWorkspaceAndLogin('http printers on a site'));
  proxy = await startWorkerProxy(baseUrl);
  const created = await api('POST', '/api/workspaces/bridges', { name: 'Shop bridge', publicHost: HOST });
  expect(created.status).toBe(200);
  stateDir = mkdtempSync(join(tmpdir(), 'slipstream-site-'));
  lpdPort = await freePort(HOST);
  bridge = startBridgeProcess({
    workerUrl: proxy.url, secret: '', bindHost: HOST,
    env: { BRIDGE_TOKEN: created.body.token, STATE_DIR: stateDir, PUBLIC_HOST: HOST, LPD_PORT: String(lpdPort) },
  });
  await bridge.waitForLog((l) => l.event === 'control.connected');
  const res = await api('POST', '/api/printers', {
    printer: { id: randomUUID(), displayName: 'Shop till' },
    settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: created.body.id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  printer = { id: res.body.printer.id, port: res.body.settings.tcpListenPort };
  await until(async () => existsSync(join(stateDir, 'tls-cert.pem')) || undefined, 15_000, 'the site bridge\u2019s certificate');
}, 60_000);

afterAll(async () => {
  await bridge?.stop();
  await proxy?.down();
});

const eposUrl = (scheme: 'http' | 'https') => `${scheme}://${HOST}:${printer.port}${sdkPost.path}`;

describe('a site bridge\u2019s printer port', () => {
  it('serves ePOS-Print over HTTP and HTTPS (its own certificate) and still takes raw jobs', async () => {
    const plain = await fetch(eposUrl('http'), { method: 'POST', headers: { ...sdkPost.headers, Origin: 'https://pos.example' }, body: sdkPost.body });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBe('https://pos.example');
    expect(await plain.text()).toMatch(/<response success="true" code="" status="\d+"/);

    const ca = readFileSync(join(stateDir, 'tls-cert.pem'));
    const secure = await postOverHttps(eposUrl('https'), ca, sdkPost);
    expect(secure).toMatch(/<response success="true" code="" status="\d+"/);

    await printAndClose(printer.port, Buffer.from('\x1b@raw on the site\n\x1dV\x42\x00', 'latin1'), HOST);
    const docs = await waitForDocuments(api, printer.id, 3);
    expect(docs.map((d: any) => d.transport).sort()).toEqual(['EposPrint', 'EposPrint', 'Tcp']);
    expect(documentText(docs.find((d: any) => d.transport === 'Tcp'))).toContain('raw on the site');
  });

  it('answers a body over the job limit with 413 and CORS headers, at once, printing nothing', async () => {
    const before = (await listDocuments(api, printer.id)).length;
    const body = Buffer.alloc(LISTENER_DEFAULTS.maxJobBytes + 1024, 0x41);
    const res = await fetch(eposUrl('http'), { method: 'POST', headers: { 'Content-Type': 'text/xml', Origin: 'https://pos.example' }, body, signal: AbortSignal.timeout(20_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://pos.example');
    expect(res.headers.get('access-control-allow-private-network')).toBe('true');
    expect(await res.text()).toMatch(/larger than the maximum job size of 16777216 bytes/);
    // The connection still serves: the next request prints.
    const next = await fetch(eposUrl('http'), { method: 'POST', headers: sdkPost.headers, body: sdkPost.body });
    expect(next.status).toBe(200);
    await waitForDocuments(api, printer.id, before + 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await listDocuments(api, printer.id)).toHaveLength(before + 1); // the refused body made none
  });

  it('shows its bridge\u2019s LPD port on the printer page, and that queue prints', async () => {
    const ui = await openChromium();
    try {
      await signIn(ui.page, baseUrl, token);
      await ui.page.goto(`${baseUrl}/printers/${printer.id}`);
      await ui.page.getByText('Addresses to point a POS at').click();
      const lpd = ui.page.locator('.print-url code', { hasText: 'lpd://' });
      await lpd.waitFor();
      expect(await lpd.textContent()).toBe(`lpd://${HOST}:${lpdPort}/${printer.port}`);
      expect(lpdPort).not.toBe(8515);
    } finally {
      await ui.close();
    }
    const file = join(stateDir, 'lpd-job.bin');
    writeFileSync(file, Buffer.from('\x1b@via the site LPD\n\x1dV\x42\x00', 'latin1'));
    await run('/usr/lib/cups/backend/lpd', ['7', 'tester', 'receipt', '1', '', file], {
      env: { ...process.env, DEVICE_URI: `lpd://${HOST}:${lpdPort}/${printer.port}?reserve=none`, CONTENT_TYPE: 'application/vnd.cups-raw' },
      timeout: 30_000,
    });
    await until(async () => {
      const docs = await listDocuments(api, printer.id);
      return docs.find((d) => d.transport === 'Lpd' && documentText(d).includes('via the site LPD'));
    }, 15_000, 'the LPD document');
  });

  // Last: it cuts the site off from the Worker.
  it('answers 503 with CORS headers at once while the Worker is away, and still serves its page', async () => {
    await proxy.down();
    await bridge.waitForLog((l) => l.event === 'control.disconnected');
    const started = performance.now();
    const res = await fetch(eposUrl('http'), {
      method: 'POST', headers: { ...sdkPost.headers, Origin: 'https://pos.example' }, body: sdkPost.body, signal: AbortSignal.timeout(20_000),
    });
    const ms = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://pos.example');
    expect(res.headers.get('access-control-allow-private-network')).toBe('true');
    expect(await res.text()).toMatch(/printer service is unreachable; the job was not printed/);
    console.log(`503 while the Worker is away answered in ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(10_000); // an answer, not a wait for the client's timeout
    const pre = await fetch(eposUrl('http'), { method: 'OPTIONS', headers: { Origin: 'https://pos.example', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(204);
    expect((await fetch(`http://${HOST}:${printer.port}/`)).status).toBe(200);
  });
});
