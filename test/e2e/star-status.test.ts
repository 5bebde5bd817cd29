/**
 * Star status over real TCP through the bridge and the Worker (wrangler dev): ENQ, EOT and
 * ESC ACK SOH for every flag combination, and the ASB sent again when flags or drawers change
 * while the connection is open (ESC RS a 1), as StarIO-based drivers read it.
 */
import type { Socket } from 'node:net';
import { inject } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { connect, readBytes, waitClosed } from '../bridge-unit/support/tcp.ts';

inject('baseUrl');
let api: Api;

beforeAll(async () => {
  api = (await createWorkspaceAndLogin('star status')).api;
});

const FLAGS = ['isCoverOpen', 'isPaperOut', 'isOffline', 'hasError', 'isPaperNearEnd'] as const;
type Flags = Record<(typeof FLAGS)[number], boolean>;

/** The ASB Star's specification gives for these flags (9 bytes, version 3), drawer closed. */
function expectedAsb(f: Flags, drawerOpen = false): number[] {
  const offline = f.isOffline || f.isCoverOpen || f.isPaperOut || f.hasError;
  const st1 = (f.isCoverOpen ? 0x20 : 0) | (offline ? 0x08 : 0) | (drawerOpen ? 0x04 : 0);
  const st4 = (f.isPaperOut ? 0x08 : 0) | (f.isPaperNearEnd ? 0x04 : 0);
  return [0x23, 0x06, st1, f.hasError ? 0x20 : 0, 0, st4, 0, 0, 0];
}

async function newStarPrinter(protocol: 'StarPrnt' | 'StarLine') {
  const p = await createPrinter(api, { protocol });
  expect(p.runtimeStatus?.state).toBe('Started');
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

/** Every byte the socket receives, read in order with `next(n)`. */
function collect(s: Socket) {
  let buf = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  s.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    wake?.();
  });
  return {
    async next(n: number, timeoutMs = 5000): Promise<number[]> {
      const until = Date.now() + timeoutMs;
      while (buf.length < n) {
        if (Date.now() > until) throw new Error(`${buf.length} of ${n} bytes after ${timeoutMs} ms`);
        await new Promise<void>((r) => { wake = r; setTimeout(r, 50); });
      }
      const out = [...buf.subarray(0, n)];
      buf = buf.subarray(n);
      return out;
    },
  };
}

const setFlags = async (id: string, f: Partial<Flags>) => expect((await api('PATCH', `/api/printers/${id}/operational-flags`, f)).status).toBe(200);

describe('Star status over TCP', () => {
  it('ENQ, EOT and ESC ACK SOH carry every flag combination, answered before the client closes', async () => {
    const { id, port } = await newStarPrinter('StarPrnt');
    for (let mask = 0; mask < 32; mask++) {
      const f = Object.fromEntries(FLAGS.map((k, i) => [k, (mask & (1 << i)) !== 0])) as Flags;
      await setFlags(id, f);
      const s = await connect(port);
      s.write(Buffer.from([0x05]));
      const enq = (await readBytes(s, 1, 5000))[0];
      s.write(Buffer.from([0x04]));
      const eot = (await readBytes(s, 1, 5000))[0];
      s.write(Buffer.from([0x1b, 0x06, 0x01]));
      const asb = [...(await readBytes(s, 9, 5000))];
      const expected = {
        enq: 0x20 | (f.isPaperOut ? 0x08 : 0) | (f.hasError || f.isCoverOpen ? 0x04 : 0),
        eot: 0x10 | (f.isPaperOut ? 0x08 : 0) | (f.isPaperNearEnd ? 0x04 : 0),
        asb: expectedAsb(f),
      };
      expect({ mask, enq, eot, asb }).toEqual({ mask, ...expected });
      s.end();
      await waitClosed(s);
    }
    const docs = await waitForDocuments(api, id, 32, 30_000);
    for (const d of docs) {
      expect(d.bytesReceived).toBe(5);
      expect(d.bytesSent).toBe(11);
    }
    // Paper out and cover open also show on the document, as for ESC/POS.
    const reporting = (what: string) => docs.filter((d) => (d.errorMessages ?? []).some((e: string) => e.startsWith('Printed while the printer reported') && e.includes(what))).length;
    expect([reporting('paper out'), reporting('cover open')]).toEqual([16, 16]);
  });

  it('ESC RS a 1: the ASB comes at once and again on every flag or drawer change while connected', async () => {
    const { id, port } = await newStarPrinter('StarLine');
    const none: Flags = { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false };
    await setFlags(id, none);
    const s = await connect(port);
    // Replies that arrive while a step awaits the API are kept, not dropped between reads.
    const inbox = collect(s);
    // The job ends after LISTENER_IDLE_TIMEOUT_MS of silence (1 s in e2e): as a POS keeps a
    // status connection alive, send a harmless setting (ESC RS d 3, print density) before each step.
    const keepAlive = () => s.write(Buffer.from([0x1b, 0x1e, 0x64, 0x03]));
    s.write(Buffer.from([0x1b, 0x1e, 0x61, 0x01]));
    expect(await inbox.next(9)).toEqual(expectedAsb(none));
    keepAlive();
    await setFlags(id, { isPaperOut: true });
    expect(await inbox.next(9)).toEqual(expectedAsb({ ...none, isPaperOut: true }));
    keepAlive();
    await setFlags(id, { isPaperOut: false, isCoverOpen: true });
    expect(await inbox.next(9)).toEqual(expectedAsb({ ...none, isCoverOpen: true }));
    keepAlive();
    expect((await api('PATCH', `/api/printers/${id}/drawers`, { drawer1State: 'OpenedManually', drawer2State: 'Closed' })).status).toBe(200);
    expect(await inbox.next(9)).toEqual(expectedAsb({ ...none, isCoverOpen: true }, true));
    keepAlive();
    expect((await api('PATCH', `/api/printers/${id}/drawers`, { drawer1State: 'Closed', drawer2State: 'Closed' })).status).toBe(200);
    expect(await inbox.next(9)).toEqual(expectedAsb({ ...none, isCoverOpen: true }));
    // A drawer kick from the POS opens drawer 1 (OpenedByCommand) as ESC p does: the ASB says so.
    s.write(Buffer.from([0x07]));
    expect(await inbox.next(9)).toEqual(expectedAsb({ ...none, isCoverOpen: true }, true));
    s.end();
    await waitClosed(s);
    const printer = await api('GET', `/api/printers/${id}`);
    expect(printer.body.runtimeStatus.drawer1State).toBe('OpenedByCommand');
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.bytesSent).toBe(9 * 6);
  });

  it('BEL opens drawer 1 (OpenedByCommand) as ESC p does, SUB drawer 2; ENQ then reads the compulsion switch', async () => {
    const { id, port } = await newStarPrinter('StarPrnt');
    expect((await api('PATCH', `/api/printers/${id}/drawers`, { drawer1State: 'Closed', drawer2State: 'Closed' })).status).toBe(200);
    const s = await connect(port);
    s.write(Buffer.from([0x1b, 0x07, 0x14, 0x14, 0x07, 0x1a]));
    const opened = async () => (await api('GET', `/api/printers/${id}`)).body.runtimeStatus;
    for (let i = 0; i < 50 && (await opened()).drawer2State !== 'OpenedByCommand'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await opened()).toMatchObject({ drawer1State: 'OpenedByCommand', drawer2State: 'OpenedByCommand' });
    s.write(Buffer.from([0x05]));
    expect((await readBytes(s, 1, 5000))[0]).toBe(0xa0); // compulsion switch (drawer open) + buffer empty
    s.end();
    await waitClosed(s);
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.bytesSent).toBe(1);
  });

  it('ESC # * LF NUL answers with the model identity', async () => {
    const { port } = await newStarPrinter('StarPrnt');
    const s = await connect(port);
    s.write(Buffer.from([0x1b, 0x23, 0x2a, 0x0a, 0x00]));
    const want = Buffer.from('\x1b#*,TSP100IV Ver1.0\n\0', 'latin1');
    expect(Buffer.from(await readBytes(s, want.length, 5000)).toString('latin1')).toBe(want.toString('latin1'));
    s.end();
    await waitClosed(s);
  });
});
