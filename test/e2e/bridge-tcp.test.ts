/**
 * Raw TCP printing through the real bridge and the real Worker (wrangler dev): documents,
 * idle timeout, status replies, drawer pulse.
 */
import { inject } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { documentHex, documentText, hexOf, subscribe, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { connect, printAndClose, readBytes, waitClosed } from '../bridge-unit/support/tcp.ts';

const baseUrl = inject('baseUrl');
let ws: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
let api: Api;

beforeAll(async () => {
  ws = await createWorkspaceAndLogin('bridge tcp');
  api = ws.api;
});

async function newPrinter(extra: Parameters<typeof createPrinter>[1] = {}) {
  const p = await createPrinter(api, extra);
  expect(p.runtimeStatus?.state).toBe('Started');
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

describe('raw TCP printing', () => {
  it('prints text over TCP: the document is listed and streamed with the right bytes and client address', async () => {
    const { id, port } = await newPrinter();
    const canvas = subscribe(baseUrl, `/api/printers/${id}/documents/canvas/stream`, ws.accessToken);
    await canvas.connected;
    const payload = Buffer.from('\x1b@Hello from TCP\nSecond line\n\x1dV\x00', 'latin1');
    await printAndClose(port, payload);
    const streamed = await canvas.waitFor((e) => e.event === 'documentCanvasReady');
    canvas.close();
    const [doc] = await waitForDocuments(api, id, 1);
    for (const d of [doc, streamed.data]) {
      expect(d.printerId).toBe(id);
      expect(d.clientAddress).toBe('127.0.0.1');
      expect(d.bytesReceived).toBe(payload.length);
      expect(d.bytesSent).toBe(0);
      expect(documentHex(d)).toBe(hexOf(payload));
      expect(documentText(d)).toContain('Hello from TCP');
    }
    expect(streamed.id).toBe(doc.id);
  });

  it('finalises a connection left open past the idle timeout and closes it', async () => {
    const { id, port } = await newPrinter();
    const s = await connect(port);
    s.write('idle job\n');
    const t0 = Date.now();
    const closed = await waitClosed(s, 10_000);
    // LISTENER_IDLE_TIMEOUT_MS is 1000 in the e2e setup.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(closed.error).toBeUndefined();
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.bytesReceived).toBe(9);
    expect(documentText(doc)).toContain('idle job');
    expect(doc.clientAddress).toBe('127.0.0.1');
  });

  it('answers DLE EOT 1..4 for every operational flag combination, before the client closes', async () => {
    const { id, port } = await newPrinter();
    const flags = ['isCoverOpen', 'isPaperOut', 'isOffline', 'hasError', 'isPaperNearEnd'] as const;
    for (let mask = 0; mask < 32; mask++) {
      const f = Object.fromEntries(flags.map((k, i) => [k, (mask & (1 << i)) !== 0])) as Record<(typeof flags)[number], boolean>;
      const res = await api('PATCH', `/api/printers/${id}/operational-flags`, f);
      expect(res.status).toBe(200);
      const offline = f.isOffline || f.isCoverOpen || f.isPaperOut || f.hasError;
      const expected = [
        0x12 | 0x04 /* drawer 1 closed: pin 3 HIGH */ | (offline ? 0x08 : 0),
        0x12 | (f.isCoverOpen ? 0x04 : 0) | (f.isPaperOut ? 0x20 : 0) | (f.hasError || f.isCoverOpen ? 0x40 : 0),
        0x12 | (f.hasError ? 0x40 : 0),
        0x12 | (f.isPaperNearEnd ? 0x0c : 0) | (f.isPaperOut ? 0x60 : 0),
      ];
      const s = await connect(port);
      const got: number[] = [];
      for (const n of [1, 2, 3, 4]) {
        s.write(Buffer.from([0x10, 0x04, n]));
        got.push((await readBytes(s, 1, 5000))[0]);
      }
      expect({ mask, flags: f, got }).toEqual({ mask, flags: f, got: expected });
      s.end();
      await waitClosed(s);
    }
    const docs = await waitForDocuments(api, id, 32, 30_000);
    for (const d of docs) {
      expect(d.bytesReceived).toBe(12);
      expect(d.bytesSent).toBe(4);
    }
  });

  it('ESC p opens the drawer (OpenedByCommand), and DLE EOT 1 then reads pin 3 LOW', async () => {
    const { id, port } = await newPrinter();
    const runtime = subscribe(baseUrl, `/api/printers/${id}/runtime/stream`, ws.accessToken);
    await runtime.connected;
    const s = await connect(port);
    s.write(Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]));
    await runtime.waitFor((e) => e.event === 'status' && e.data?.runtime?.drawer1State === 'OpenedByCommand');
    s.write(Buffer.from([0x10, 0x04, 0x01]));
    expect((await readBytes(s, 1))[0]).toBe(0x12);
    s.end();
    await waitClosed(s);
    runtime.close();
    const printer = await api('GET', `/api/printers/${id}`);
    expect(printer.body.runtimeStatus.drawer1State).toBe('OpenedByCommand');
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.bytesSent).toBe(1);
  });
});
