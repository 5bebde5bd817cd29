/**
 * Listener lifecycle through the real bridge and Worker: stop/start, port in use,
 * whitelist, buffer emulation backpressure.
 */
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { documentHex, hexOf, listDocuments, subscribe, until, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { connect, isRefused, printAndClose, waitClosed } from '../bridge-unit/support/tcp.ts';

const baseUrl = inject('baseUrl');
let ws: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
let api: Api;

beforeAll(async () => {
  ws = await createWorkspaceAndLogin('bridge listeners');
  api = ws.api;
});

async function newPrinter(extra: Parameters<typeof createPrinter>[1] = {}) {
  const p = await createPrinter(api, extra);
  expect(p.runtimeStatus?.state).toBe('Started');
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

/** Connects; true when the bridge closed the connection at once without reading it. */
async function refusedAtOnce(port: number): Promise<boolean> {
  let s: net.Socket;
  try {
    s = await connect(port);
  } catch {
    return true;
  }
  s.on('error', () => {});
  s.write('must not print\n');
  const closed = await waitClosed(s, 3000).catch(() => null);
  if (!closed) {
    s.destroy();
    return false;
  }
  return closed.ms < 500;
}

describe('listeners', () => {
  it('stopping a printer refuses connections; starting it accepts them again', async () => {
    const { id, port } = await newPrinter();
    await printAndClose(port, 'before stop\n');
    const stop = await api('PATCH', `/api/printers/${id}/operational-flags`, { targetState: 'Stopped' });
    expect(stop.status).toBe(200);
    await until(() => isRefused(port), 1000, 'port closed within a second of the stop');
    const stopped = await api('GET', `/api/printers/${id}`);
    expect(stopped.body.runtimeStatus.state).toBe('Stopped');
    const start = await api('PATCH', `/api/printers/${id}/operational-flags`, { targetState: 'Started' });
    expect(start.status).toBe(200);
    expect(await isRefused(port)).toBe(false); // the start request waited for the bind
    await printAndClose(port, 'after start\n');
    // Empty documents may come from the refusal probe above (a connect+close while still open).
    const docs = await until(async () => {
      const all = (await listDocuments(api, id)).filter((d) => d.bytesReceived > 0);
      return all.length >= 2 ? all : null;
    }, 10_000, 'two documents');
    expect(docs.map((d) => d.bytesReceived).sort()).toEqual([12, 12]);
  });

  it('stopping a printer ends its open connections and finalises their jobs', async () => {
    const { id, port } = await newPrinter();
    const s = await connect(port);
    s.on('error', () => {});
    s.write('open while stopping\n');
    await new Promise((r) => setTimeout(r, 200));
    await api('PATCH', `/api/printers/${id}/operational-flags`, { targetState: 'Stopped' });
    await waitClosed(s, 5000);
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.bytesReceived).toBe(20);
  });

  it('deleting a printer closes its port within a second', async () => {
    const { id, port } = await newPrinter();
    await printAndClose(port, 'before delete\n');
    await waitForDocuments(api, id, 1);
    const del = await api('DELETE', `/api/printers/${id}`);
    expect(del.status).toBe(204);
    await until(() => isRefused(port), 1000, 'port closed within a second of the delete');
  });

  it('a port held by another program: create answers 500 naming the port and how to free it (state Error); once free, the printer starts and prints', async () => {
    const first = await newPrinter();
    const next = first.port + 1;
    const blocker = net.createServer();
    await new Promise<void>((r, j) => {
      blocker.once('error', j);
      blocker.listen(next, '0.0.0.0', () => r());
    });
    try {
      const printerId = randomUUID();
      const res = await api('POST', '/api/printers', {
        printer: { id: printerId, displayName: 'port in use' },
        settings: { protocol: 'EscPos', widthInDots: 576, heightInDots: null, emulateBufferCapacity: false, bufferDrainRate: null, bufferMaxCapacity: null },
      });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toContain(`Another program on the bridge's machine holds port ${next}`);
      expect(res.body.detail).toContain(`ss -ltnp 'sport = :${next}'`);
      const got = await api('GET', `/api/printers/${printerId}`);
      expect(got.status).toBe(200);
      expect(got.body.settings.tcpListenPort).toBe(next);
      expect(got.body.runtimeStatus.state).toBe('Error');

      // The bridge retries the bind: the printer starts once the port is free, no request needed.
      await new Promise((r) => blocker.close(r));
      await until(async () => (await api('GET', `/api/printers/${printerId}`)).body.runtimeStatus.state === 'Started', 15_000, 'Started once the port is free', 200);
      await printAndClose(next, 'printed once the port was free\n');
      const [doc] = await waitForDocuments(api, printerId, 1);
      expect(JSON.stringify(doc)).toContain('printed once the port was free');
    } finally {
      if (blocker.listening) await new Promise((r) => blocker.close(r));
    }
  });

  it('whitelist: a client outside is refused and logged allowed:false; inside prints and is logged allowed:true', async () => {
    // A workspace of its own: the connections list is per workspace.
    const own = await createWorkspaceAndLogin('bridge whitelist');
    const p = await createPrinter(own.api);
    const id = p.printer.id as string;
    const port = p.settings.tcpListenPort as number;
    try {
      const outside = await own.api('PATCH', '/api/workspaces', { tcpWhitelistEnabled: true, tcpWhitelistEntries: '10.0.0.0/8\n# office\n192.168.7.0/24' });
      expect(outside.status).toBe(200);
      await until(() => refusedAtOnce(port), 3000, 'whitelist applied');
      // Attempts travel bridge -> control channel -> D1 asynchronously: wait for them to be listed.
      const conns1 = await until(async () => {
        const r = await own.api('GET', '/api/workspaces/connections?minutes=5');
        expect(r.status).toBe(200);
        return r.body.length >= 1 ? r : null;
      }, 5000, 'the refused attempt listed');
      for (const c of conns1.body) expect(c).toMatchObject({ clientIp: '127.0.0.1', allowed: false, connectionType: 'Tcp' });

      const inside = await own.api('PATCH', '/api/workspaces', { tcpWhitelistEnabled: true, tcpWhitelistEntries: '10.0.0.0/8, 127.0.0.1' });
      expect(inside.status).toBe(200);
      await until(async () => !(await refusedAtOnce(port)), 3000, 'whitelist with 127.0.0.1 applied');
      await printAndClose(port, 'whitelisted\n');
      const docs = await until(async () => {
        const all = await listDocuments(own.api, id);
        return all.some((d) => d.bytesReceived === 12) ? all : null;
      }, 10_000, 'the whitelisted job');
      // Refused attempts printed nothing: only the probe that got through and the real job.
      for (const d of docs) expect([0, 12, 15]).toContain(d.bytesReceived);
      const conns2 = await until(async () => {
        const r = await own.api('GET', '/api/workspaces/connections?minutes=5');
        return r.body.some((c: any) => c.clientIp === '127.0.0.1' && c.allowed === true) ? r : null;
      }, 5000, 'the allowed attempt listed');
      expect(conns2.body.length).toBeGreaterThan(conns1.body.length);
    } finally {
      await own.api('PATCH', '/api/workspaces', { tcpWhitelistEnabled: false });
    }
  });

  it('buffer emulation: a writer of 10x the capacity is held back and the document arrives whole', async () => {
    const capacity = 2048;
    const rate = 4096;
    const { id, port } = await newPrinter({ emulateBufferCapacity: true, bufferMaxCapacity: capacity, bufferDrainRate: rate });
    const runtime = subscribe(baseUrl, `/api/printers/${id}/runtime/stream`, ws.accessToken);
    await runtime.connected;
    const lines: string[] = [];
    for (let i = 0; lines.join('').length < capacity * 10; i++) lines.push(`line ${String(i).padStart(5, '0')} ${'x'.repeat(30)}\n`);
    const payload = Buffer.from(lines.join('').slice(0, capacity * 10));
    const t0 = Date.now();
    await printAndClose(port, payload);
    const [doc] = await waitForDocuments(api, id, 1, 20_000);
    const ms = Date.now() - t0;
    // The bridge only takes bytes as the emulated buffer drains: ~(10 - 1) x capacity / rate.
    expect(ms).toBeGreaterThanOrEqual(((payload.length - capacity) / rate) * 1000 - 200);
    expect(doc.bytesReceived).toBe(payload.length);
    expect(documentHex(doc)).toBe(hexOf(payload));
    await runtime.waitFor((e) => e.data?.runtime?.bufferedBytes === 0, 5000);
    runtime.close();
    const figures = runtime.events
      .filter((e) => e.event === 'status' && typeof e.data?.runtime?.bufferedBytes === 'number')
      .map((e) => ({ at: e.at, bytes: e.data.runtime.bufferedBytes as number, delta: e.data.runtime.bufferedBytesDeltaBps as number }));
    const busy = figures.filter((f) => f.bytes > 0);
    expect(Math.max(...busy.map((f) => f.bytes))).toBeGreaterThan(capacity * 0.8);
    expect(Math.max(...busy.map((f) => f.bytes))).toBeLessThanOrEqual(capacity);
    // At least twice a second while changing.
    for (let i = 1; i < busy.length; i++) expect(busy[i].at - busy[i - 1].at).toBeLessThanOrEqual(600);
    expect(busy.length).toBeGreaterThanOrEqual(Math.floor(ms / 500));
    expect(busy.some((f) => f.delta < 0)).toBe(true);
  });
});
