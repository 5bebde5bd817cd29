/**
 * Issue 32's eight findings, each reproduced through the real `npm start` and shown to hold
 * (extensions.md "Boundaries"). The first six run on the e2e global setup's service; webhooks
 * under a deployment's settings (ALLOW_PRIVATE_TARGETS off) and the login burst need settings
 * of their own and share one second service.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiFor, createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { until, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { serviceConfig, startService, type RunningService } from '../support/npm-start.ts';

const baseUrl = inject('baseUrl');
const wsUrl = (path: string) => baseUrl.replace(/^http/, 'ws') + path;

/** A WebSocket to an internal route with a bridge's credentials; resolves once open or refused. */
function openSocket(path: string, bearer: string): Promise<{ ws: WebSocket | null; status: number; messages: any[]; closed: Promise<number> }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl(path), { headers: { authorization: `Bearer ${bearer}` } });
    const messages: any[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data, isBinary) => { if (!isBinary) messages.push(JSON.parse(String(data))); });
    ws.on('unexpected-response', (_req, res) => { resolve({ ws: null, status: res.statusCode ?? 0, messages, closed }); ws.terminate(); });
    ws.on('open', () => resolve({ ws, status: 101, messages, closed }));
    ws.on('error', () => { /* reported through unexpected-response or close */ });
  });
}

/** One ESC/POS job printing a small raster image (GS v 0), distinct per seed. */
function imageJob(seed: number): Buffer {
  const raster = [0x1d, 0x76, 0x30, 0x00, 0x02, 0x00, 0x10, 0x00, ...Array.from({ length: 32 }, (_, i) => (i * 37 + seed * 11) & 0xff)];
  return Buffer.from([0x1b, 0x40, ...raster, 0x0a]);
}

const imageUrlOf = (doc: any): string =>
  doc.canvases.flatMap((c: any) => c.items).find((e: any) => e.type === 'image').media.url;

/** The media id an outsider computes from a picture: its SHA-256 shaped as a UUID v8 (the old rule). */
function contentDerivedId(png: Buffer): string {
  const h = createHash('sha256').update(png).digest('hex').slice(0, 32).split('');
  h[12] = '8';
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

async function printedImage(api: Api, port: number, printerId: string, seed: number, docsBefore = 0) {
  await printAndClose(port, imageJob(seed));
  const docs = await waitForDocuments(api, printerId, docsBefore + 1);
  const url = imageUrlOf(docs[0]);
  const res = await fetch(baseUrl + url);
  expect(res.status).toBe(200);
  return { url, id: url.split('/').pop()!, png: Buffer.from(await res.arrayBuffer()) };
}

describe('1. a bridge speaks only about the printers it serves', () => {
  it('a second workspace\u2019s bridge cannot write into another workspace\u2019s connection log; its own records get the Worker\u2019s time', async () => {
    const victim = await createWorkspaceAndLogin('victim');
    const victimPrinter = await createPrinter(victim.api);
    const attacker = await createWorkspaceAndLogin('attacker');
    const bridge = (await attacker.api('POST', '/api/workspaces/bridges', { name: 'rogue', publicHost: '127.0.0.9' })).body;
    // The attacker's "bridge": a plain WebSocket with its token, binding whatever it is told to.
    const control = await openSocket('/internal/bridge/control', bridge.token);
    expect(control.status).toBe(101);
    control.ws!.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.type === 'listeners') for (const l of msg.listeners) control.ws!.send(JSON.stringify({ type: 'bound', printerId: l.printerId, port: l.port, ok: true }));
    });
    const own = await attacker.api('POST', '/api/printers', {
      printer: { id: randomUUID(), displayName: 'rogue till' }, settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: bridge.id },
    });
    expect(own.status).toBe(200);
    const send = (m: object) => control.ws!.send(JSON.stringify(m));
    const forged = { type: 'connection', printerId: victimPrinter.printer.id, clientIp: '203.0.113.77', allowed: true };
    send(forged);
    send({ ...forged, printerId: victimPrinter.printer.id.toUpperCase() });
    send({ ...forged, clientIp: '<img src=x onerror=alert(1)>', printerId: own.body.printer.id });
    send({ ...forged, clientIp: 'x'.repeat(100_000), printerId: own.body.printer.id });
    send({ type: 'connection', printerId: own.body.printer.id, clientIp: '198.51.100.7', allowed: true, at: '2099-01-01T00:00:00.000Z' });
    send({ type: 'unbound', printerId: victimPrinter.printer.id });
    // The one valid record about its own printer is listed, stamped by the Worker (flushed within a second).
    const sentAt = Date.now();
    const ownLog = await until(async () => {
      const r = await attacker.api('GET', '/api/workspaces/connections');
      return r.body.length ? r.body : null;
    }, 10_000, 'the attacker\u2019s own connection record');
    expect(ownLog.map((e: any) => e.clientIp)).toEqual(['198.51.100.7']);
    expect(Math.abs(Date.parse(ownLog[0].connectedAt) - sentAt)).toBeLessThan(30_000);
    // Nothing reached the victim; its printer is still started.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await victim.api('GET', '/api/workspaces/connections')).body).toEqual([]);
    expect((await victim.api('GET', `/api/printers/${victimPrinter.printer.id}`)).body.runtimeStatus.state).toBe('Started');
    control.ws!.close();
  });
});

describe('2. nothing is stored after the delete has answered', () => {
  it('a session opened at once after DELETE /api/workspaces, with the shared secret or the workspace\u2019s bridge token, is refused; one open during it is ended without a document', async () => {
    const w = await createWorkspaceAndLogin('deleted at once');
    const shared = await createPrinter(w.api);
    const bridge = (await w.api('POST', '/api/workspaces/bridges', { name: 'site', publicHost: '127.0.0.9' })).body;
    const onSite = await w.api('POST', '/api/printers', {
      printer: { id: randomUUID(), displayName: 'site till' }, settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: bridge.id },
    });
    const secret = inject('bridgeSecret');
    const sessionPath = (id: string) => `/internal/bridge/printers/${id}/session?sessionId=${randomUUID()}&clientAddress=127.0.0.1`;
    // Before the delete both are accepted (the test can fail), and one stays open mid-job.
    const open = await openSocket(sessionPath(shared.printer.id), secret);
    expect(open.status).toBe(101);
    open.ws!.send(Buffer.from('half a receipt\n'));
    const before = await openSocket(sessionPath(onSite.body.printer.id), bridge.token);
    expect(before.status).toBe(101);
    before.ws!.close();

    expect((await w.api('DELETE', '/api/workspaces')).status).toBe(204);
    const [bySecret, byToken] = await Promise.all([
      openSocket(sessionPath(shared.printer.id), secret),
      openSocket(sessionPath(onSite.body.printer.id), bridge.token),
    ]);
    expect(bySecret.status).not.toBe(101);
    expect(byToken.status).not.toBe(101);
    // The job open during the delete was ended by the Worker, and its end finalises nothing.
    expect(await open.closed).toBe(4004);
    expect(open.messages.filter((m) => m.type === 'finalised')).toEqual([]);
    await new Promise((r) => setTimeout(r, 4000));
    expect((await openSocket(sessionPath(shared.printer.id), secret)).status).not.toBe(101);
  });
});

describe('3. a re-created workspace id starts empty', () => {
  it('the previous owner\u2019s connection log is gone, even records flushed after the delete', async () => {
    const id = randomUUID();
    const first = await createWorkspaceAndLogin('first owner', id);
    const printer = await createPrinter(first.api);
    await printAndClose(printer.settings.tcpListenPort, 'hello\n');
    await until(async () => (await first.api('GET', '/api/workspaces/connections')).body.length > 0 || null, 10_000, 'a listed connection');
    // One more connection still in the hub's one-second batch when the delete runs.
    await printAndClose(printer.settings.tcpListenPort, 'again\n');
    expect((await first.api('DELETE', '/api/workspaces')).status).toBe(204);
    const second = await createWorkspaceAndLogin('second owner', id);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await second.api('GET', '/api/workspaces/connections')).body).toEqual([]);
    expect((await second.api('GET', '/api/printers')).body).toEqual([]);
    expect((await second.api('GET', '/api/workspaces/summary')).status).toBe(200);
  });
});

describe('4 and 5. media ids are not computable from the picture; a deleted workspace\u2019s media answer 404', () => {
  let a: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
  let b: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
  let pa: any, pb: any;
  beforeAll(async () => {
    [a, b] = await Promise.all([createWorkspaceAndLogin('media a'), createWorkspaceAndLogin('media b')]);
    [pa, pb] = await Promise.all([createPrinter(a.api), createPrinter(b.api)]);
  });

  it('an outsider rendering candidates learns nothing: the content-derived ids of the printed picture and of a candidate never printed answer 404', async () => {
    const printed = await printedImage(a.api, pa.settings.tcpListenPort, pa.printer.id, 321);
    // The attacker renders the exact picture (here: the very bytes served) and a candidate not printed.
    const candidates = [printed.png, Buffer.concat([printed.png, Buffer.from([0])])].map(contentDerivedId);
    expect(candidates).not.toContain(printed.id);
    for (const id of candidates) expect((await fetch(`${baseUrl}/api/media/${id}`)).status).toBe(404);
    // The same picture in another workspace has another id; printed again in the same workspace, the same one.
    const elsewhere = await printedImage(b.api, pb.settings.tcpListenPort, pb.printer.id, 321);
    expect(elsewhere.png.equals(printed.png)).toBe(true);
    expect(elsewhere.id).not.toBe(printed.id);
    const again = await printedImage(a.api, pa.settings.tcpListenPort, pa.printer.id, 321, 1);
    expect(again.id).toBe(printed.id);
  });

  it('pictures of a deleted workspace answer 404 once the delete has answered; the other workspace\u2019s copy still answers', async () => {
    const mine = await printedImage(a.api, pa.settings.tcpListenPort, pa.printer.id, 777, 2);
    const theirs = await printedImage(b.api, pb.settings.tcpListenPort, pb.printer.id, 777, 1);
    expect((await a.api('DELETE', '/api/workspaces')).status).toBe(204);
    expect((await fetch(baseUrl + mine.url)).status).toBe(404);
    expect((await fetch(baseUrl + theirs.url)).status).toBe(200);
    // A deleted printer's pictures too.
    expect((await b.api('DELETE', `/api/printers/${pb.printer.id}`)).status).toBe(204);
    expect((await fetch(baseUrl + theirs.url)).status).toBe(404);
  });
});

describe('8. cookie-only requests and whitelist entries', () => {
  it('POST /api/auth/logout and DELETE /api/workspaces with only the session cookie are refused; a zone in a whitelist entry is 400', async () => {
    const w = await createWorkspaceAndLogin('cookie');
    const set = await w.api('POST', '/api/auth/session-cookie');
    const cookie = (set.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^slipstream_session=.+/);
    const withCookie = (method: string, path: string) => fetch(baseUrl + path, { method, headers: { cookie } });
    expect((await withCookie('GET', '/api/workspaces')).status).toBe(200); // reads still work
    expect((await withCookie('POST', '/api/auth/logout')).status).toBe(401);
    expect((await withCookie('DELETE', '/api/workspaces')).status).toBe(401);
    expect((await w.api('GET', '/api/workspaces')).status).toBe(200);
    expect((await w.api('POST', '/api/auth/logout')).status).toBe(200);
    const zone = await w.api('PATCH', '/api/workspaces', { tcpWhitelistEntries: '10.0.0.0/8\nfe80::1%eth0' });
    expect(zone.status).toBe(400);
    expect(JSON.stringify(zone.body)).toContain('fe80::1%eth0');
    expect((await w.api('GET', '/api/workspaces')).body.tcpWhitelistEntries).toBe('');
  });
});

describe('under a deployment\u2019s settings (ALLOW_PRIVATE_TARGETS off, RATE_LIMIT_PER_MINUTE 5)', () => {
  let service: RunningService;
  let receiver: Server;
  let received = 0;
  let receiverPort = 0;
  beforeAll(async () => {
    receiver = createServer((req, res) => { received++; req.resume(); res.end('secret answer'); });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverPort = (receiver.address() as { port: number }).port;
    service = await startService(await serviceConfig({ ALLOW_PRIVATE_TARGETS: 'false', RATE_LIMIT_PER_MINUTE: '5' }));
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    receiver?.close();
  });

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(service.baseUrl + path, {
      method, headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  it('6. webhooks to loopback, private, link-local or the deployment\u2019s own host are 400 naming ALLOW_PRIVATE_TARGETS; nothing is called', async () => {
    const created = await call('POST', '/api/workspaces', { id: randomUUID(), workspaceName: 'hooks' });
    const login = await call('POST', '/api/auth/login', { token: created.body.token });
    const auth = { authorization: `Bearer ${login.body.accessToken}` };
    const ownPort = new URL(service.baseUrl).port;
    const targets = [
      `http://127.0.0.1:${receiverPort}/hook`, `http://localhost:${receiverPort}/hook`, `http://[::1]:${receiverPort}/hook`,
      `http://2130706433:${receiverPort}/hook`, `http://[::ffff:127.0.0.1]:${receiverPort}/hook`, 'http://10.1.2.3/hook',
      'http://192.168.0.10/hook', 'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/hook', 'http://0.0.0.0/hook',
      `http://127.0.0.1:${ownPort}/cdn-cgi/local/scheduled`, 'http://printers.local/hook',
    ];
    for (const url of targets) {
      const res = await call('PUT', '/api/workspaces/webhook', { url }, auth);
      expect(res.status, url).toBe(400);
      expect(res.body.detail, url).toContain('ALLOW_PRIVATE_TARGETS');
    }
    expect((await call('GET', '/api/workspaces/webhook', undefined, auth)).status).toBe(204);
    // A public target is accepted (nothing needs to answer it for the PUT).
    expect((await call('PUT', '/api/workspaces/webhook', { url: 'https://hooks.example.com/slipstream' }, auth)).status).toBe(200);
    expect(received).toBe(0);
  });

  it('1 (log). a message about a printer the bridge does not serve is dropped with a logged reason', async () => {
    const created = await call('POST', '/api/workspaces', { id: randomUUID(), workspaceName: 'logged' }, { 'cf-connecting-ip': '198.51.100.201' });
    const login = await call('POST', '/api/auth/login', { token: created.body.token }, { 'cf-connecting-ip': '198.51.100.201' });
    const bridge = await call('POST', '/api/workspaces/bridges', { name: 'b', publicHost: '127.0.0.9' }, { authorization: `Bearer ${login.body.accessToken}` });
    const ws = new WebSocket(service.baseUrl.replace(/^http/, 'ws') + '/internal/bridge/control', { headers: { authorization: `Bearer ${bridge.body.token}` } });
    await new Promise((r) => ws.on('open', r));
    const stranger = randomUUID();
    ws.send(JSON.stringify({ type: 'connection', printerId: stranger, clientIp: '203.0.113.5', allowed: true }));
    const line = await until(() => service.output.find((l) => l.includes('bridge.dropped') && l.includes(stranger)), 10_000, 'the dropped message in the log');
    expect(line).toContain('not a printer this bridge serves');
    expect(line).toContain(bridge.body.id);
    ws.close();
  });

  it('7. a login burst varying CF-Connecting-IP does not lock out a legitimate login from a quiet address', async () => {
    const created = await call('POST', '/api/workspaces', { id: randomUUID(), workspaceName: 'owner' }, { 'cf-connecting-ip': '198.51.100.200' });
    expect(created.status).toBe(200);
    // 5 a minute per address, 100 a minute for everyone: 150 guesses from 150 addresses.
    const guesses: number[] = [];
    for (let batch = 0; batch < 150; batch += 30) {
      guesses.push(...(await Promise.all(Array.from({ length: 30 }, (_, i) =>
        call('POST', '/api/auth/login', { token: `ss_guess-${randomUUID()}` }, { 'cf-connecting-ip': `203.0.113.${1 + batch + i}` }).then((r) => r.status)))));
    }
    expect(guesses.filter((s) => s === 401).length).toBeGreaterThan(0);
    // The owner, from an address that was quiet, logs in at once.
    const owner = await call('POST', '/api/auth/login', { token: created.body.token }, { 'cf-connecting-ip': '192.0.2.55' });
    expect(owner.status).toBe(200);
    // The per-address limit still holds: one address's sixth guess within the minute is 429.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('POST', '/api/auth/login', { token: 'ss_guess-x' }, { 'cf-connecting-ip': '192.0.2.99' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
  }, 120_000);
});
