/**
 * Isolation between workspaces (contract sections 4 and 5, decisions.md "Auth and roles"):
 * workspace B can never read or change A's printers or documents (404, existence not
 * revealed); an admin may read A's printer without leaving read stamps, and gets 403 on writes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PNG_1x1 } from './png.ts';
import {
  adminWorkspace, call, createPrinter, escposTextHex, expectJson, expectProblem, getPrinter, getWorkspace, importDoc, listDocs,
  newWorkspace, printerBody, sleep, type Ws,
} from './helpers.ts';

let a: Ws;
let b: Ws;
let printerId: string;
let documentId: string;

function nvForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob([PNG_1x1 as BlobPart], { type: 'image/png' }), 'logo.png');
  return form;
}

/** Every printer route, with a body where the route takes one. */
const routes = (id: string): { label: string; method: string; path: string; json?: unknown; form?: () => FormData; write: boolean }[] => [
  { label: 'get', method: 'GET', path: `/api/printers/${id}`, write: false },
  { label: 'put', method: 'PUT', path: `/api/printers/${id}`, json: printerBody(id, 'hijacked'), write: true },
  { label: 'pin', method: 'POST', path: `/api/printers/${id}/pin`, json: { isPinned: true }, write: true },
  { label: 'flags', method: 'PATCH', path: `/api/printers/${id}/operational-flags`, json: { isPaperOut: true, targetState: 'Stopped' }, write: true },
  { label: 'drawers', method: 'PATCH', path: `/api/printers/${id}/drawers`, json: { drawer1State: 'OpenedManually' }, write: true },
  { label: 'documents list', method: 'GET', path: `/api/printers/${id}/documents/canvas`, write: false },
  { label: 'documents import', method: 'POST', path: `/api/printers/${id}/documents/import`, json: { data: '1B 40 41 0A' }, write: true },
  { label: 'last-viewed', method: 'POST', path: `/api/printers/${id}/documents/last-viewed`, json: { documentId }, write: false },
  { label: 'nv-images list', method: 'GET', path: `/api/printers/${id}/nv-images`, write: false },
  { label: 'nv-images put', method: 'PUT', path: `/api/printers/${id}/nv-images/5`, form: nvForm, write: true },
  { label: 'nv-images delete', method: 'DELETE', path: `/api/printers/${id}/nv-images/1`, write: true },
  { label: 'runtime stream', method: 'GET', path: `/api/printers/${id}/runtime/stream`, write: false },
  { label: 'canvas stream', method: 'GET', path: `/api/printers/${id}/documents/canvas/stream`, write: false },
  { label: 'documents clear', method: 'DELETE', path: `/api/printers/${id}/documents`, write: true },
  { label: 'delete', method: 'DELETE', path: `/api/printers/${id}`, write: true },
];

async function send(ws: Ws, r: ReturnType<typeof routes>[number]): Promise<Response> {
  return call(r.path, { method: r.method, token: ws.accessToken, json: r.json, body: r.form?.() });
}

beforeAll(async () => {
  a = await newWorkspace(undefined, 'Workspace A');
  b = await newWorkspace(undefined, 'Workspace B');
  const p = await createPrinter(a, { displayName: 'A printer' });
  printerId = p.printer.id;
  await importDoc(a, printerId, escposTextHex('secret receipt'));
  documentId = (await listDocs(a, printerId)).result.items[0].id;
  // an NV image in slot 1 of A's printer (nv-images.test.ts checks the upload itself; here
  // a failing upload only narrows what "untouched" can check)
  const res = await call(`/api/printers/${printerId}/nv-images/1`, { method: 'PUT', token: a.accessToken, body: nvForm() });
  nvSlots = res.status === 200 ? [1] : [];
  await res.arrayBuffer();
});

let nvSlots: number[] = [];

async function assertAUntouched(): Promise<void> {
  const p = await getPrinter(a, printerId);
  expect(p.printer.displayName).toBe('A printer');
  expect(p.printer.isPinned).toBe(false);
  expect(p.operationalFlags.isPaperOut).toBe(false);
  expect(p.operationalFlags.targetState).toBe('Started');
  expect(p.runtimeStatus.drawer1State).toBe('Closed');
  const docs = await listDocs(a, printerId);
  expect(docs.result.items.map((d: any) => d.id)).toEqual([documentId]);
  const nv = await expectJson(await call(`/api/printers/${printerId}/nv-images`, { token: a.accessToken }), 200);
  expect(nv.map((n: any) => n.slot)).toEqual(nvSlots);
}

describe('another normal workspace', () => {
  it('gets 404 problem+json on every route of A\u2019s printer', async () => {
    for (const r of routes(printerId)) {
      const res = await send(b, r);
      const text = await res.clone().text();
      expect(res.status, `${r.label}: ${text.slice(0, 200)}`).toBe(404);
      await expectProblem(res, 404);
    }
    await assertAUntouched();
  });

  it('does not see A\u2019s printer in its lists', async () => {
    expect(await expectJson(await call('/api/printers', { token: b.accessToken }), 200)).toEqual([]);
    expect(await expectJson(await call('/api/printers/sidebar', { token: b.accessToken }), 200)).toEqual([]);
    const summary = await expectJson(await call('/api/workspaces/summary', { token: b.accessToken }), 200);
    expect(summary.totalPrinters).toBe(0);
    expect(summary.totalDocuments).toBe(0);
  });

  it('the 404 reveals nothing: same answer as for a printer that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-0000000000ff';
    const real = await (await call(`/api/printers/${printerId}`, { token: b.accessToken })).json() as any;
    const none = await (await call(`/api/printers/${missing}`, { token: b.accessToken })).json() as any;
    expect(real.status).toBe(none.status);
    expect(real.title).toBe(none.title);
    expect(real.detail.replace(printerId, 'X')).toBe(none.detail.replace(missing, 'X'));
  });

  it('cannot read stamps onto A by reading', async () => {
    await sleep(100);
    const p = await getPrinter(a, printerId);
    // A itself never read its documents in this file through the list (beforeAll listed once: api stamp)
    expect(p.printer.lastWebReadAt).toBeNull();
  });
});

describe('an admin workspace', () => {
  let admin: Ws;
  let stampsBefore: { printer: [unknown, unknown]; workspace: [unknown, unknown] };

  beforeAll(async () => {
    admin = await adminWorkspace();
    const p = await getPrinter(a, printerId);
    const w = await getWorkspace(a);
    stampsBefore = { printer: [p.printer.lastApiReadAt, p.printer.lastWebReadAt], workspace: [w.lastApiReadAt, w.lastWebReadAt] };
  });

  it('may read A\u2019s printer, documents and NV images', async () => {
    const p = await expectJson(await call(`/api/printers/${printerId}`, { token: admin.accessToken }), 200);
    expect(p.printer.ownerWorkspaceId).toBe(a.id);
    expect(p.printer.ownerWorkspaceName).toBe('Workspace A');
    const docs = await expectJson(await call(`/api/printers/${printerId}/documents/canvas`, { token: admin.accessToken }), 200);
    expect(docs.result.items.map((d: any) => d.id)).toEqual([documentId]);
    await expectJson(await call(`/api/printers/${printerId}/documents/canvas`, { token: admin.accessToken, headers: { 'X-Client': 'web' } }), 200);
    const nv = await expectJson(await call(`/api/printers/${printerId}/nv-images`, { token: admin.accessToken }), 200);
    expect(nv.map((n: any) => n.slot)).toEqual(nvSlots);
    const rt = await call(`/api/printers/${printerId}/runtime/stream`, { token: admin.accessToken });
    expect(rt.status).toBe(200);
    expect(rt.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await rt.body?.cancel();
    const cs = await call(`/api/printers/${printerId}/documents/canvas/stream`, { token: admin.accessToken, headers: { 'Last-Event-ID': documentId } });
    expect(cs.status).toBe(200);
    await cs.body?.cancel();
  });

  it('records no read stamps on A\u2019s printer or workspace', async () => {
    await sleep(300);
    const p = await getPrinter(a, printerId);
    const w = await getWorkspace(a);
    expect([p.printer.lastApiReadAt, p.printer.lastWebReadAt]).toEqual(stampsBefore.printer);
    expect([w.lastApiReadAt, w.lastWebReadAt]).toEqual(stampsBefore.workspace);
    // nor on the admin's own workspace
    const own = await getWorkspace(admin);
    expect(own.lastApiReadAt).toBeNull();
    expect(own.lastWebReadAt).toBeNull();
  });

  it('gets 403 problem+json on every write to A\u2019s printer, and nothing changes', async () => {
    for (const r of routes(printerId).filter((x) => x.write)) {
      const res = await send(admin, r);
      const text = await res.clone().text();
      expect(res.status, `${r.label}: ${text.slice(0, 200)}`).toBe(403);
      await expectProblem(res, 403);
    }
    await assertAUntouched();
  });

  it('does not list A\u2019s printers as its own', async () => {
    const list = await expectJson(await call('/api/printers', { token: admin.accessToken }), 200);
    expect(list.map((p: any) => p.printer.id)).not.toContain(printerId);
  });
});
