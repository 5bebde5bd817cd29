/**
 * Cloud printers through the real `npm start` (extensions.md "Cloud printers"): Slipstream
 * printers polling a CloudPRNT server written from Star's developer guide
 * (support/cloudprnt-server.ts checks every request field by field). Intervals of 1 s keep
 * the run short.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { encode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceAndLogin, type Api } from './api.ts';
import { documentText, listDocuments, until, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { CloudPrntServer } from './support/cloudprnt-server.ts';
import { printRequestInfo, SdpServer } from './support/sdp-server.ts';

let api: Api;
const servers: { close(): unknown }[] = [];

beforeAll(async () => {
  api = (await createWorkspaceAndLogin('cloud printers')).api;
});
afterAll(async () => { for (const s of servers) await s.close(); });

async function cloudPrinter(protocol: 'StarPrnt' | 'StarLine' | 'EscPos', url: string, kind = 'StarCloudPrnt') {
  const res = await api('POST', '/api/printers', {
    printer: { id: crypto.randomUUID(), displayName: `cloud ${protocol}` },
    settings: { protocol, cloudPrint: { kind, url, intervalSeconds: 1 } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.printer.id as string;
}

async function server(): Promise<CloudPrntServer> {
  const s = await new CloudPrntServer().start();
  servers.push(s);
  return s;
}

/** A grey picture `width` × 20, left half black, right half white. */
const png = (width: number) => {
  const data = new Uint8Array(width * 20);
  for (let y = 0; y < 20; y++) for (let x = 0; x < width; x++) data[y * width + x] = x < width / 2 ? 0 : 255;
  return Buffer.from(encode({ width, height: 20, data, channels: 1, depth: 8 }));
};

describe('settings.cloudPrint', () => {
  it('refuses a kind the protocol does not speak and a URL that is not http(s), naming the field', async () => {
    const base = { printer: { id: crypto.randomUUID(), displayName: 'x' } };
    const kind = await api('POST', '/api/printers', { ...base, settings: { protocol: 'EscPos', cloudPrint: { kind: 'StarCloudPrnt', url: 'http://127.0.0.1:1/' } } });
    expect(kind.status).toBe(400);
    expect(JSON.stringify(kind.body)).toContain('settings.cloudPrint.kind');
    const url = await api('POST', '/api/printers', { ...base, settings: { protocol: 'StarPrnt', cloudPrint: { kind: 'StarCloudPrnt', url: 'ftp://127.0.0.1/' } } });
    expect(url.status).toBe(400);
    expect(JSON.stringify(url.body)).toContain('settings.cloudPrint.url');
    const interval = await api('POST', '/api/printers', { ...base, settings: { protocol: 'StarPrnt', cloudPrint: { kind: 'StarCloudPrnt', url: 'http://127.0.0.1:1/', intervalSeconds: 61 } } });
    expect(interval.status).toBe(400);
  });
});

describe('Star CloudPRNT', () => {
  it('polls with the guide’s fields, answers client actions, prints StarPRNT, PNG and text jobs and confirms each with 200 OK', async () => {
    const s = await server();
    s.clientActionRequests = ['PageInfo', 'ClientType', 'ClientVersion', 'Encodings'];
    const id = await cloudPrinter('StarPrnt', s.url);
    const answered = await until(() => s.polls.find((p) => p.clientAction), 15_000, 'client action answers');
    const results = Object.fromEntries(answered.clientAction!.map((a) => [a.request, a.result]));
    expect(Number((results.PageInfo as any).printWidth)).toBeGreaterThan(40);
    expect(Number((results.PageInfo as any).horizontalResolution)).toBeCloseTo(8, 0);
    expect(String(results.ClientType)).toMatch(/Star/);
    expect(String(results.Encodings)).toContain('application/vnd.star.starprnt');

    s.queue.push(
      { token: 'starprnt-1', mediaTypes: [{ type: 'application/vnd.star.starprnt', body: Buffer.from('\x1b@CloudPRNT order 17\n\x1bd\x02', 'latin1') }] },
      // The printer takes the type it prefers among those offered: not the markup (a server-side format); PNG.
      { token: 'png-2', mediaTypes: [{ type: 'text/vnd.star.markup', body: Buffer.from('[cut]') }, { type: 'image/png', body: png(800) }] },
      { token: 'png-small', mediaTypes: [{ type: 'image/png', body: png(200) }] },
      { token: 'text-3', mediaTypes: [{ type: 'text/plain', body: Buffer.from('Plain text order 19\n') }] },
    );
    const docs = await waitForDocuments(api, id, 4, 30_000);
    await until(() => s.confirmations.length >= 4, 10_000, 'four confirmations');
    expect(s.violations).toEqual([]);
    expect(s.queue).toEqual([]);
    expect(s.jobRequests.map((r) => r.type)).toEqual(['application/vnd.star.starprnt', 'image/png', 'image/png', 'text/plain']);
    expect(s.confirmations.map((c) => [c.method, c.code, c.token])).toEqual([
      ['DELETE', '200 OK', 'starprnt-1'], ['DELETE', '200 OK', 'png-2'], ['DELETE', '200 OK', 'png-small'], ['DELETE', '200 OK', 'text-3'],
    ]);
    // One stable MAC for the printer in every request.
    expect(new Set([...s.polls.map((p) => p.mac), ...s.jobRequests.map((r) => r.mac), ...s.confirmations.map((c) => c.mac)]).size).toBe(1);
    const [text, small, wide, starprnt] = docs; // newest first
    expect(docs.every((d) => d.transport === 'CloudPrnt')).toBe(true);
    expect(documentText(starprnt)).toContain('CloudPRNT order 17');
    expect(documentText(text)).toContain('Plain text order 19');
    expect(wide.bytesReceived).toBe(png(800).length);
    // Pictures print pixel for pixel; one wider than the print width (576 dots on the default TSP100IV) is scaled down to it.
    const pictureWidth = (d: any) => Math.max(...d.canvases.flatMap((c: any) => c.items).filter((i: any) => i.type === 'image').map((i: any) => i.widthInDots ?? i.width ?? 0));
    expect(pictureWidth(wide)).toBe(576);
    expect(pictureWidth(small)).toBe(200);

    const printer = await api('GET', `/api/printers/${id}`);
    expect(Date.parse(printer.body.runtimeStatus.cloudPrintLastPollAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(printer.body.runtimeStatus.cloudPrintLastError).toBeUndefined();
  }, 60_000);

  it('a Star Line printer takes vnd.star.line and confirms by GET when deleteMethod says so', async () => {
    const s = await server();
    s.deleteMethod = 'GET';
    const id = await cloudPrinter('StarLine', s.url);
    s.queue.push({ token: 'line-1', mediaTypes: [{ type: 'application/vnd.star.starprnt', body: Buffer.from('no') }, { type: 'application/vnd.star.line', body: Buffer.from('\x1b@Star Line order 5\n\x1bd\x02', 'latin1') }] });
    const [doc] = await waitForDocuments(api, id, 1, 20_000);
    await until(() => s.confirmations.length >= 1, 10_000, 'confirmation');
    expect(documentText(doc)).toContain('Star Line order 5');
    expect(s.jobRequests.map((r) => r.type)).toEqual(['application/vnd.star.line']);
    expect(s.confirmations[0]).toMatchObject({ method: 'GET', code: '200 OK', token: 'line-1' });
    expect(s.violations).toEqual([]);
  }, 40_000);

  it('paper out: the next poll says 410, the job is neither fetched nor consumed, and prints once paper is back', async () => {
    const s = await server();
    const id = await cloudPrinter('StarPrnt', s.url);
    await until(() => s.polls.length >= 1, 15_000, 'first poll');
    expect(s.polls[0].statusCode).toBe('200 OK');
    expect((await api('PATCH', `/api/printers/${id}/operational-flags`, { isPaperOut: true })).status).toBe(200);
    const changedAt = Date.now();
    s.queue.push({ token: 'paper-1', mediaTypes: [{ type: 'text/plain', body: Buffer.from('after the paper came back\n') }] });
    const outPoll = await until(() => s.polls.find((p) => p.at > changedAt && p.statusCode.startsWith('410')), 10_000, 'a 410 poll');
    expect(outPoll.statusCode).toBe('410 Out of paper');
    await until(() => s.polls.filter((p) => p.at > changedAt).length >= 3, 10_000, 'three polls while out of paper');
    expect(s.jobRequests).toEqual([]);
    expect(s.queue.map((j) => j.token)).toEqual(['paper-1']);
    expect(await listDocuments(api, id)).toEqual([]);
    await api('PATCH', `/api/printers/${id}/operational-flags`, { isPaperOut: false });
    const [doc] = await waitForDocuments(api, id, 1, 15_000);
    expect(documentText(doc)).toContain('after the paper came back');
    await until(() => s.confirmations.length === 1, 10_000, 'confirmation');
    expect(s.confirmations[0].code).toBe('200 OK');
    expect(s.violations).toEqual([]);
  }, 60_000);

  it('polls every interval while Started, not while Stopped, never after delete', async () => {
    const s = await server();
    const id = await cloudPrinter('StarPrnt', s.url);
    await until(() => s.polls.length >= 3, 15_000, 'three polls');
    const gaps = s.polls.slice(1).map((p, i) => p.at - s.polls[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900);
    await api('PATCH', `/api/printers/${id}/operational-flags`, { targetState: 'Stopped' });
    await new Promise((r) => setTimeout(r, 1500));
    const stoppedAt = s.polls.length;
    await new Promise((r) => setTimeout(r, 3000));
    expect(s.polls.length).toBe(stoppedAt);
    await api('PATCH', `/api/printers/${id}/operational-flags`, { targetState: 'Started' });
    await until(() => s.polls.length >= stoppedAt + 2, 15_000, 'polls after start');
    expect((await api('DELETE', `/api/printers/${id}`)).status).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 1500));
    const deletedAt = s.polls.length;
    await new Promise((r) => setTimeout(r, 3000));
    expect(s.polls.length).toBe(deletedAt);
  }, 60_000);

  it('a dead server and a slow one: the error is shown, polls never overlap, and the printer keeps polling', async () => {
    // Dead: a port with nothing listening.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const dead = await cloudPrinter('StarPrnt', `http://127.0.0.1:${deadPort}/cloudprnt`);
    const shown = await until(async () => {
      const p = await api('GET', `/api/printers/${dead}`);
      return p.body.runtimeStatus?.cloudPrintLastError ? p.body.runtimeStatus : null;
    }, 15_000, 'the dead server shown');
    expect(shown.cloudPrintLastPollAt).toBeTruthy();

    // Slow: each poll answered after 2.5 s, with an interval of 1 s.
    let open = 0, maxOpen = 0, polls = 0;
    const slow = http.createServer((req, res) => {
      open++; polls++; maxOpen = Math.max(maxOpen, open);
      req.resume();
      setTimeout(() => { open--; res.writeHead(200, { 'content-type': 'application/json' }).end('{"jobReady":false}'); }, 2500);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    servers.push({ close: () => { slow.closeAllConnections(); slow.close(); } });
    const slowId = await cloudPrinter('StarPrnt', `http://127.0.0.1:${(slow.address() as AddressInfo).port}/cloudprnt`);
    await until(() => polls >= 3, 20_000, 'three slow polls');
    expect(maxOpen).toBe(1);
    // The object stays responsive meanwhile.
    const t0 = Date.now();
    expect((await api('GET', `/api/printers/${slowId}/documents/canvas?Limit=1`)).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2000);
  }, 60_000);

  it('a server answering 500, garbage or a redirect: each shown on the printer, and polling goes on', async () => {
    let mode: 'error' | 'garbage' | 'redirect' | 'ok' = 'error';
    let polls = 0;
    const odd = http.createServer((req, res) => {
      polls++;
      req.resume();
      if (mode === 'error') res.writeHead(500).end('boom');
      else if (mode === 'garbage') res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json');
      else if (mode === 'redirect') res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"jobReady":false}');
    });
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
    servers.push({ close: () => { odd.closeAllConnections(); odd.close(); } });
    const id = await cloudPrinter('StarPrnt', `http://127.0.0.1:${(odd.address() as AddressInfo).port}/cloudprnt`);
    const errorShown = async (pattern: RegExp) => until(async () => {
      const p = await api('GET', `/api/printers/${id}`);
      return pattern.test(p.body.runtimeStatus?.cloudPrintLastError ?? '') ? p.body.runtimeStatus.cloudPrintLastError : null;
    }, 15_000, `error ${pattern}`);
    expect(await errorShown(/HTTP 500/)).toMatch(/poll/);
    mode = 'garbage';
    expect(await errorShown(/not JSON/)).toBeTruthy();
    mode = 'redirect';
    expect(await errorShown(/302/)).toMatch(/redirect/);
    mode = 'ok';
    await until(async () => {
      const p = await api('GET', `/api/printers/${id}`);
      return p.body.runtimeStatus.cloudPrintLastError === undefined ? true : null;
    }, 15_000, 'the error cleared');
    expect(polls).toBeGreaterThanOrEqual(4);
  }, 60_000);
});

describe('Epson Server Direct Print', () => {
  it('two ePOSPrint jobs in one PrintRequestInfo (raw and escaped PrintData) become two documents and one SetResponse with two responses', async () => {
    const s = await new SdpServer().start();
    servers.push(s);
    const id = await cloudPrinter('EscPos', s.url, 'EpsonServerDirectPrint');
    await until(() => s.getRequests.length >= 1, 15_000, 'a GetRequest');
    expect(s.getRequests[0]).toEqual({ id, name: 'cloud EscPos' });
    s.pending = printRequestInfo([{ id: 'order-101', text: 'SDP raw job 101', escaped: false }, { id: 'order-102', text: 'SDP escaped job 102', escaped: true }]);
    const docs = await waitForDocuments(api, id, 2, 15_000);
    await until(() => s.setResponses.length >= 1, 10_000, 'a SetResponse');
    expect(s.setResponses).toHaveLength(1);
    expect(s.setResponses[0]).toEqual([
      { printjobid: 'order-101', success: 'true', code: '', status: expect.stringMatching(/^\d+$/) },
      { printjobid: 'order-102', success: 'true', code: '', status: expect.stringMatching(/^\d+$/) },
    ]);
    expect(docs.map((d) => d.transport)).toEqual(['ServerDirectPrint', 'ServerDirectPrint']);
    expect(documentText(docs[1])).toContain('SDP raw job 101');
    expect(documentText(docs[0])).toContain('SDP escaped job 102');
    expect(s.violations).toEqual([]);
  }, 40_000);

  it('paper out: nothing prints and the job’s response says EPTR_REC_EMPTY', async () => {
    const s = await new SdpServer().start();
    servers.push(s);
    const id = await cloudPrinter('EscPos', s.url, 'EpsonServerDirectPrint');
    await api('PATCH', `/api/printers/${id}/operational-flags`, { isPaperOut: true });
    s.pending = printRequestInfo([{ id: 'order-201', text: 'never printed', escaped: false }]);
    await until(() => s.setResponses.length >= 1, 15_000, 'a SetResponse');
    expect(s.setResponses[0]).toEqual([{ printjobid: 'order-201', success: 'false', code: 'EPTR_REC_EMPTY', status: expect.stringMatching(/^\d+$/) }]);
    expect(await listDocuments(api, id)).toEqual([]);
    const printer = await api('GET', `/api/printers/${id}`);
    expect(printer.body.runtimeStatus.cloudPrintLastError).toContain('EPTR_REC_EMPTY');
  }, 40_000);
});
