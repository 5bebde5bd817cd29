/**
 * Server-Sent Events (contract section 6, decisions.md "Streams"): `: connected` first,
 * `status` events with only the changed sections, `sidebar` events, `documentCanvasReady`
 * with id = document id, Last-Event-ID replay, read stamps from the canvas stream, 404 for
 * printers the caller cannot see.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readSse, type SseReader } from '../support/sse.ts';
import {
  assertCamelCase, assertRenderedDocument, call, createPrinter, escposTextHex, eventually, expectDateTime, expectJson, expectProblem,
  getPrinter, getWorkspace, importDoc, listDocs, newWorkspace, printerBody, sleep, uuid, type Ws,
} from './helpers.ts';

let ws: Ws;
const open: SseReader[] = [];

beforeAll(async () => {
  ws = await newWorkspace();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function stream(path: string, headers: Record<string, string> = {}, who: Ws = ws): Promise<SseReader> {
  const res = await call(path, { token: who.accessToken, headers });
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  expect(res.headers.get('content-type') ?? '').toMatch(/^text\/event-stream/);
  const reader = readSse(res);
  open.push(reader);
  await eventually(async () => reader.comments.includes('connected'), 5000);
  return reader;
}

/** Asserts that no event (of the name) arrives within `ms`. */
async function expectNoEvent(reader: SseReader, event: string, ms = 300): Promise<void> {
  await expect(reader.next(event, ms)).rejects.toThrow(/timed out/);
}

describe('runtime stream', () => {
  it('starts with a ": connected" comment', async () => {
    const p = await createPrinter(ws);
    const r = await stream(`/api/printers/${p.printer.id}/runtime/stream`);
    expect(r.comments[0]).toBe('connected');
  });

  it('a flags PATCH yields one status event with only operationalFlags and only the changed flag', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const r = await stream(`/api/printers/${id}/runtime/stream`);
    await expectJson(await call(`/api/printers/${id}/operational-flags`, { method: 'PATCH', token: ws.accessToken, json: { isPaperOut: true } }), 200);
    const ev = await r.next('status');
    const data = JSON.parse(ev.data);
    expect(data.printerId).toBe(id);
    expectDateTime(data.updatedAt);
    expect(data).toHaveProperty('operationalFlags');
    expect(data).not.toHaveProperty('settings');
    expect(data).not.toHaveProperty('printer');
    expect(data).not.toHaveProperty('runtime');
    expect(data.operationalFlags.printerId).toBe(id);
    expectDateTime(data.operationalFlags.updatedAt);
    expect(data.operationalFlags.isPaperOut).toBe(true);
    for (const k of ['isCoverOpen', 'isOffline', 'hasError', 'isPaperNearEnd', 'targetState']) expect(data.operationalFlags).not.toHaveProperty(k);
    assertCamelCase(data);
    // one event per change
    await expectNoEvent(r, 'status');
  });

  it('a drawer change yields runtime only', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const r = await stream(`/api/printers/${id}/runtime/stream`);
    await expectJson(await call(`/api/printers/${id}/drawers`, { method: 'PATCH', token: ws.accessToken, json: { drawer2State: 'OpenedManually' } }), 200);
    const data = JSON.parse((await r.next('status')).data);
    expect(Object.keys(data).sort()).toEqual(['printerId', 'runtime', 'updatedAt']);
    expect(data.runtime.drawer2State).toBe('OpenedManually');
    expect(['Starting', 'Started', 'Stopped', 'Error']).toContain(data.runtime.state);
    expectDateTime(data.runtime.updatedAt);
  });

  it('PUT yields settings and printer, not flags', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const r = await stream(`/api/printers/${id}/runtime/stream`);
    await expectJson(await call(`/api/printers/${id}`, { method: 'PUT', token: ws.accessToken, json: printerBody(id, 'Renamed', { widthInDots: 512 }) }), 200);
    const data = JSON.parse((await r.next('status')).data);
    expect(data.printer.displayName).toBe('Renamed');
    expect(data.settings.widthInDots).toBe(512);
    expect(data.settings.tcpListenPort).toBe(p.settings.tcpListenPort);
    expect(data).not.toHaveProperty('operationalFlags');
  });

  it('pin yields printer only', async () => {
    const p = await createPrinter(ws);
    const r = await stream(`/api/printers/${p.printer.id}/runtime/stream`);
    await expectJson(await call(`/api/printers/${p.printer.id}/pin`, { token: ws.accessToken, json: { isPinned: true } }), 200);
    const data = JSON.parse((await r.next('status')).data);
    expect(Object.keys(data).sort()).toEqual(['printer', 'printerId', 'updatedAt']);
    expect(data.printer.isPinned).toBe(true);
  });

  it('targetState Stopped reports the flag change and the runtime state Stopped', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const r = await stream(`/api/printers/${id}/runtime/stream`);
    await expectJson(await call(`/api/printers/${id}/operational-flags`, { method: 'PATCH', token: ws.accessToken, json: { targetState: 'Stopped' } }), 200);
    const seen: any[] = [];
    const deadline = Date.now() + 5000;
    while (!seen.some((d) => d.runtime?.state === 'Stopped') && Date.now() < deadline) {
      seen.push(JSON.parse((await r.next('status', 5000)).data));
    }
    expect(seen.some((d) => d.operationalFlags?.targetState === 'Stopped')).toBe(true);
    expect(seen.some((d) => d.runtime?.state === 'Stopped')).toBe(true);
    for (const d of seen) {
      expect(d).not.toHaveProperty('settings');
      expect(d).not.toHaveProperty('printer');
    }
  });

  it('a finished document reports the printer section with lastDocumentReceivedAt', async () => {
    const p = await createPrinter(ws);
    const r = await stream(`/api/printers/${p.printer.id}/runtime/stream`);
    await importDoc(ws, p.printer.id, escposTextHex('runtime doc'));
    const data = JSON.parse((await r.next('status')).data);
    expectDateTime(data.printer.lastDocumentReceivedAt);
    expect(data).not.toHaveProperty('settings');
    expect(data).not.toHaveProperty('operationalFlags');
  });

  it('the printer section after a document is current (read stamps and workspace name not stale)', async () => {
    const own = await newWorkspace(uuid(), 'Old name');
    const p = await createPrinter(own);
    const id = p.printer.id;
    // a first document, so the printer's Durable Object holds the printer
    await importDoc(own, id, escposTextHex('first'));
    // a read stamp and a workspace rename happen outside the Durable Object
    await expectJson(await call(`/api/printers/${id}/documents/canvas`, { token: own.accessToken }), 200);
    const stamped = await eventually(async () => (await getPrinter(own, id)).printer.lastApiReadAt as string | null);
    await expectJson(await call('/api/workspaces', { method: 'PATCH', token: own.accessToken, json: { name: 'New name' } }), 200);
    const r = await stream(`/api/printers/${id}/runtime/stream`, {}, own);
    const sidebar = await stream('/api/printers/sidebar/stream', {}, own);
    await importDoc(own, id, escposTextHex('second'));
    const data = JSON.parse((await r.next('status')).data);
    expect(data.printer.lastApiReadAt).toBe(stamped);
    expect(data.printer.ownerWorkspaceName).toBe('New name');
    const snap = JSON.parse((await sidebar.next('sidebar')).data);
    expect(snap.printer.lastApiReadAt).toBe(stamped);
    expect(snap.printer.ownerWorkspaceName).toBe('New name');
    // and it agrees with GET
    const fresh = await getPrinter(own, id);
    expect(data.printer).toEqual(fresh.printer);
  });

  it('404 problem for an unknown printer or one of another workspace', async () => {
    await expectProblem(await call(`/api/printers/${uuid()}/runtime/stream`, { token: ws.accessToken }), 404);
    const other = await newWorkspace();
    const p = await createPrinter(other);
    await expectProblem(await call(`/api/printers/${p.printer.id}/runtime/stream`, { token: ws.accessToken }), 404);
  });
});

describe('sidebar stream', () => {
  it('starts with ": connected" and sends sidebar events for the workspace\u2019s printers', async () => {
    const own = await newWorkspace();
    const r = await stream('/api/printers/sidebar/stream', {}, own);
    expect(r.comments[0]).toBe('connected');
    const p = await createPrinter(own, { displayName: 'Sidebar one' });
    const created = JSON.parse((await r.next('sidebar')).data);
    expect(created.printer.id).toBe(p.printer.id);
    expect(created.printer.displayName).toBe('Sidebar one');
    expect(Object.keys(created)).toContain('printer');
    for (const k of Object.keys(created)) expect(['printer', 'runtimeStatus', 'deleted']).toContain(k);
    assertCamelCase(created);
    // drain what the create produced, then pin
    while (await r.next('sidebar', 300).then(() => true, () => false));
    await expectJson(await call(`/api/printers/${p.printer.id}/pin`, { token: own.accessToken, json: { isPinned: true } }), 200);
    const pinned = JSON.parse((await r.next('sidebar')).data);
    expect(pinned.printer.id).toBe(p.printer.id);
    expect(pinned.printer.isPinned).toBe(true);
  });

  it('a finished document updates the sidebar (lastDocumentReceivedAt)', async () => {
    const own = await newWorkspace();
    const p = await createPrinter(own);
    const r = await stream('/api/printers/sidebar/stream', {}, own);
    await importDoc(own, p.printer.id, escposTextHex('sidebar doc'));
    const ev = JSON.parse((await r.next('sidebar')).data);
    expect(ev.printer.id).toBe(p.printer.id);
    expectDateTime(ev.printer.lastDocumentReceivedAt);
  });

  it('a deleted printer is announced on the sidebar', async () => {
    const own = await newWorkspace();
    const p = await createPrinter(own);
    const r = await stream('/api/printers/sidebar/stream', {}, own);
    const res = await call(`/api/printers/${p.printer.id}`, { method: 'DELETE', token: own.accessToken });
    expect(res.status).toBe(204);
    const ev = JSON.parse((await r.next('sidebar')).data);
    expect(ev.printer.id).toBe(p.printer.id);
  });

  it('does not carry other workspaces\u2019 printers', async () => {
    const own = await newWorkspace();
    const other = await newWorkspace();
    const r = await stream('/api/printers/sidebar/stream', {}, own);
    await createPrinter(other);
    await expectNoEvent(r, 'sidebar', 400);
  });

  it('requires authentication', async () => {
    await expectProblem(await call('/api/printers/sidebar/stream'), 401);
  });
});

describe('canvas stream', () => {
  it('delivers each imported document as documentCanvasReady with id = document id', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const r = await stream(`/api/printers/${id}/documents/canvas/stream`);
    expect(r.comments[0]).toBe('connected');
    await importDoc(ws, id, escposTextHex('streamed'));
    const ev = await r.next('documentCanvasReady');
    const doc = JSON.parse(ev.data);
    expect(ev.id).toBe(doc.id);
    assertRenderedDocument(doc, id);
    expect(doc.clientAddress).toBe('import');
    expect(doc.bytesSent).toBe(0);
    const listed = (await listDocs(ws, id)).result.items[0];
    expect(listed).toEqual(doc);
  });

  it('Last-Event-ID replays the documents finalised after that one, in order, then goes live', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    for (const t of ['one', 'two', 'three']) await importDoc(ws, id, escposTextHex(t));
    const items = (await listDocs(ws, id)).result.items as any[];
    const [d3, d2, d1] = items.map((d) => d.id);
    const r = await stream(`/api/printers/${id}/documents/canvas/stream`, { 'Last-Event-ID': d1 });
    const first = await r.next('documentCanvasReady');
    const second = await r.next('documentCanvasReady');
    expect([first.id, second.id]).toEqual([d2, d3]);
    expect(JSON.parse(first.data).id).toBe(d2);
    await expectNoEvent(r, 'documentCanvasReady');
    await importDoc(ws, id, escposTextHex('four'));
    const live = await r.next('documentCanvasReady');
    expect(live.id).not.toBe(d3);
    expect([d1, d2, d3]).not.toContain(live.id);
  });

  it('Last-Event-ID of the newest document replays nothing', async () => {
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, escposTextHex('only'));
    const newest = (await listDocs(ws, p.printer.id)).result.items[0].id;
    const r = await stream(`/api/printers/${p.printer.id}/documents/canvas/stream`, { 'Last-Event-ID': newest });
    await expectNoEvent(r, 'documentCanvasReady');
  });

  it('a document delivered by the stream records a read stamp (web reader: lastWebReadAt)', async () => {
    const own = await newWorkspace();
    const p = await createPrinter(own);
    const r = await stream(`/api/printers/${p.printer.id}/documents/canvas/stream`, { 'X-Client': 'web' }, own);
    await sleep(50);
    expect((await getPrinter(own, p.printer.id)).printer.lastWebReadAt).toBeNull();
    await importDoc(own, p.printer.id, escposTextHex('watched'));
    await r.next('documentCanvasReady');
    const printer = await eventually(async () => {
      const x = await getPrinter(own, p.printer.id);
      return x.printer.lastWebReadAt ? x.printer : null;
    });
    expect(printer.lastApiReadAt).toBeNull();
    const w = await getWorkspace(own);
    expectDateTime(w.lastWebReadAt);
    expect(w.lastApiReadAt).toBeNull();
  });

  it('several subscribers each get the document', async () => {
    const p = await createPrinter(ws);
    const r1 = await stream(`/api/printers/${p.printer.id}/documents/canvas/stream`);
    const r2 = await stream(`/api/printers/${p.printer.id}/documents/canvas/stream`);
    await importDoc(ws, p.printer.id, escposTextHex('fan-out'));
    const [e1, e2] = await Promise.all([r1.next('documentCanvasReady'), r2.next('documentCanvasReady')]);
    expect(e1.id).toBe(e2.id);
  });

  it('documents of another printer are not delivered', async () => {
    const p = await createPrinter(ws);
    const q = await createPrinter(ws);
    const r = await stream(`/api/printers/${p.printer.id}/documents/canvas/stream`);
    await importDoc(ws, q.printer.id, escposTextHex('elsewhere'));
    await expectNoEvent(r, 'documentCanvasReady');
  });

  it('404 problem for a printer the caller cannot see', async () => {
    const other = await newWorkspace();
    const p = await createPrinter(other);
    await expectProblem(await call(`/api/printers/${p.printer.id}/documents/canvas/stream`, { token: ws.accessToken }), 404);
    await expectProblem(await call(`/api/printers/${uuid()}/documents/canvas/stream`, { token: ws.accessToken }), 404);
  });
});
