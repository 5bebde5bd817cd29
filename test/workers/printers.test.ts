/**
 * Contract sections 3 and 4 (Printers): create, list, get, PUT, DELETE, pin, operational
 * flags, drawers, sidebar, last-viewed, and the read-stamp rules.
 */
import { describe, expect, it } from 'vitest';
import {
  assertResponseRules, call, createPrinter, escposTextHex, eventually, expectDateTime, expectJson, expectNullableDateTime,
  expectProblem, expectStatus, getPrinter, getWorkspace, importDoc, newWorkspace, printerBody, sleep, UUID_RE, uuid, type Ws,
} from './helpers.ts';

function assertPrinterDto(p: any): void {
  expect(p.id).toMatch(UUID_RE);
  expect(typeof p.displayName).toBe('string');
  expect(p.ownerWorkspaceId).toMatch(UUID_RE);
  expect(typeof p.isPinned).toBe('boolean');
  expectNullableDateTime(p, 'lastDocumentReceivedAt');
  expectNullableDateTime(p, 'lastApiReadAt');
  expectNullableDateTime(p, 'lastWebReadAt');
  for (const k of Object.keys(p)) {
    expect(['id', 'displayName', 'ownerWorkspaceId', 'ownerWorkspaceName', 'isPinned', 'lastViewedDocumentId', 'lastDocumentReceivedAt', 'lastApiReadAt', 'lastWebReadAt']).toContain(k);
  }
}

function assertRuntimeStatus(r: any, printerId: string): void {
  expect(r.printerId).toBe(printerId);
  expect(['Starting', 'Started', 'Stopped', 'Error']).toContain(r.state);
  expectDateTime(r.updatedAt);
  for (const k of ['drawer1State', 'drawer2State']) if (k in r) expect(['Closed', 'OpenedManually', 'OpenedByCommand']).toContain(r[k]);
}

function assertFlags(f: any, printerId: string): void {
  expect(f.printerId).toBe(printerId);
  expect(['Started', 'Stopped']).toContain(f.targetState);
  expectDateTime(f.updatedAt);
  for (const k of ['isCoverOpen', 'isPaperOut', 'isOffline', 'hasError', 'isPaperNearEnd']) expect(typeof f[k], k).toBe('boolean');
  expect(Object.keys(f).sort()).toEqual(['hasError', 'isCoverOpen', 'isOffline', 'isPaperNearEnd', 'isPaperOut', 'printerId', 'targetState', 'updatedAt']);
}

export function assertPrinterResponse(body: any, ws: Ws): void {
  assertPrinterDto(body.printer);
  expect(body.printer.ownerWorkspaceId).toBe(ws.id);
  const s = body.settings;
  expect(['EscPos', 'Epl']).toContain(s.protocol);
  expect(typeof s.model).toBe('string');
  expect(['None', 'ShiftJis', 'Gb18030', 'Big5', 'KsC5601', 'Utf8']).toContain(s.multiByteEncoding);
  expect(Number.isInteger(s.widthInDots)).toBe(true);
  expect(Number.isInteger(s.tcpListenPort)).toBe(true);
  expect(s.tcpListenPort).toBeGreaterThan(9100);
  expect(typeof s.emulateBufferCapacity).toBe('boolean');
  expect(typeof s.publicHost).toBe('string');
  expect(s.publicHost.length).toBeGreaterThan(0);
  if (body.operationalFlags) assertFlags(body.operationalFlags, body.printer.id);
  if (body.runtimeStatus) assertRuntimeStatus(body.runtimeStatus, body.printer.id);
  assertResponseRules(body);
}

const patchFlags = (ws: Ws, id: string, json: unknown) => call(`/api/printers/${id}/operational-flags`, { method: 'PATCH', token: ws.accessToken, json });
const patchDrawers = (ws: Ws, id: string, json: unknown) => call(`/api/printers/${id}/drawers`, { method: 'PATCH', token: ws.accessToken, json });

describe('POST /api/printers', () => {
  it('creates the printer and answers 200 PrinterResponseDto at once (no bridge: Starting)', async () => {
    const ws = await newWorkspace(uuid(), 'Shop');
    const id = uuid();
    const res = await call('/api/printers', { token: ws.accessToken, json: printerBody(id, 'Front counter', { widthInDots: 576 }) });
    const body = await expectJson(res, 200);
    assertPrinterResponse(body, ws);
    expect(body.printer.id).toBe(id);
    expect(body.printer.displayName).toBe('Front counter');
    expect(body.printer.ownerWorkspaceName).toBe('Shop');
    expect(body.printer.isPinned).toBe(false);
    expect(body.printer.lastDocumentReceivedAt).toBeNull();
    expect(body.printer.lastApiReadAt).toBeNull();
    expect(body.printer.lastWebReadAt).toBeNull();
    expect(body.printer).not.toHaveProperty('lastViewedDocumentId');
    expect(body.settings.protocol).toBe('EscPos');
    expect(body.settings.widthInDots).toBe(576);
    expect(body.settings).not.toHaveProperty('heightInDots');
    expect(body.settings).not.toHaveProperty('bufferDrainRate');
    expect(body.settings).not.toHaveProperty('bufferMaxCapacity');
    expect(body.settings.emulateBufferCapacity).toBe(false);
    expect(body.settings.publicHost).toBe('localhost');
    expect(body.operationalFlags.targetState).toBe('Started');
    for (const k of ['isCoverOpen', 'isPaperOut', 'isOffline', 'hasError', 'isPaperNearEnd']) expect(body.operationalFlags[k]).toBe(false);
    expect(body.runtimeStatus.state).toBe('Starting');
    expect(body.runtimeStatus.drawer1State).toBe('Closed');
    expect(body.runtimeStatus.drawer2State).toBe('Closed');
  });

  it('creates EPL label printers with a height', async () => {
    const ws = await newWorkspace();
    const body = await createPrinter(ws, { settings: { protocol: 'Epl', widthInDots: 812, heightInDots: 1218 } });
    expect(body.settings.protocol).toBe('Epl');
    expect(body.settings.widthInDots).toBe(812);
    expect(body.settings.heightInDots).toBe(1218);
  });

  it('accepts request property names in any casing', async () => {
    const ws = await newWorkspace();
    const id = uuid();
    const res = await call('/api/printers', {
      token: ws.accessToken,
      json: { Printer: { ID: id, DisplayName: 'Cased' }, SETTINGS: { Protocol: 'EscPos', WidthInDots: 384, EmulateBufferCapacity: false } },
    });
    const body = await expectJson(res, 200);
    expect(body.printer.id).toBe(id);
    expect(body.printer.displayName).toBe('Cased');
  });

  it('a duplicate id is refused (also when it belongs to another workspace)', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const p = await createPrinter(a);
    const res = await call('/api/printers', { token: b.accessToken, json: printerBody(p.printer.id) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    await res.arrayBuffer();
    // and A's printer is untouched
    expect((await getPrinter(a, p.printer.id)).printer.ownerWorkspaceId).toBe(a.id);
  });
});

describe('GET /api/printers', () => {
  it('lists the workspace\u2019s printers, pinned first', async () => {
    const ws = await newWorkspace();
    const a = await createPrinter(ws, { displayName: 'Alpha' });
    const b = await createPrinter(ws, { displayName: 'Bravo' });
    const c = await createPrinter(ws, { displayName: 'Charlie' });
    const other = await newWorkspace();
    await createPrinter(other, { displayName: 'Not mine' });

    await expectJson(await call(`/api/printers/${c.printer.id}/pin`, { token: ws.accessToken, json: { isPinned: true } }), 200);
    const list = await expectJson(await call('/api/printers', { token: ws.accessToken }), 200);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toHaveLength(3);
    expect(list[0].printer.id).toBe(c.printer.id);
    expect(list[0].printer.isPinned).toBe(true);
    expect(list.slice(1).map((p: any) => p.printer.id).sort()).toEqual([a.printer.id, b.printer.id].sort());
    for (const p of list) assertPrinterResponse(p, ws);
  });

  it('an empty workspace lists []', async () => {
    const ws = await newWorkspace();
    expect(await expectJson(await call('/api/printers', { token: ws.accessToken }), 200)).toEqual([]);
  });
});

describe('GET /api/printers/{id}', () => {
  it('returns the printer; 404 problem for an unknown id; the id matches case-insensitively', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const body = await getPrinter(ws, p.printer.id);
    assertPrinterResponse(body, ws);
    expect(body.printer).toEqual(p.printer);
    expect(body.settings).toEqual(p.settings);
    const upper = await expectJson(await call(`/api/printers/${p.printer.id.toUpperCase()}`, { token: ws.accessToken }), 200);
    expect(upper.printer.id).toBe(p.printer.id);
    await expectProblem(await call(`/api/printers/${uuid()}`, { token: ws.accessToken }), 404);
  });
});

describe('PUT /api/printers/{id}', () => {
  it('replaces name and settings, keeps the port, ignores a port sent', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws, { displayName: 'Old', settings: { widthInDots: 384 } });
    const body = printerBody(p.printer.id, 'New', {
      protocol: 'Epl', widthInDots: 812, heightInDots: 600, emulateBufferCapacity: true, bufferDrainRate: 2048, bufferMaxCapacity: 8192,
      tcpListenPort: p.settings.tcpListenPort + 50,
    });
    const res = await call(`/api/printers/${p.printer.id}`, { method: 'PUT', token: ws.accessToken, json: body });
    const updated = await expectJson(res, 200);
    assertPrinterResponse(updated, ws);
    expect(updated.printer.displayName).toBe('New');
    expect(updated.settings).toEqual({
      protocol: 'Epl', model: 'zebra-gk420d', multiByteEncoding: 'None', widthInDots: 812, heightInDots: 600, tcpListenPort: p.settings.tcpListenPort,
      emulateBufferCapacity: true, bufferDrainRate: 2048, bufferMaxCapacity: 8192, publicHost: 'localhost',
    });
    // replace, not merge: optional settings left out are cleared
    const back = await expectJson(
      await call(`/api/printers/${p.printer.id}`, { method: 'PUT', token: ws.accessToken, json: printerBody(p.printer.id, 'New', { widthInDots: 384 }) }),
      200,
    );
    expect(back.settings).not.toHaveProperty('heightInDots');
    expect(back.settings).not.toHaveProperty('bufferDrainRate');
    expect(back.settings.emulateBufferCapacity).toBe(false);
    expect(back.settings.tcpListenPort).toBe(p.settings.tcpListenPort);
    const fetched = await getPrinter(ws, p.printer.id);
    expect(fetched.settings).toEqual(back.settings);
  });

  it('404 for an unknown printer', async () => {
    const ws = await newWorkspace();
    const id = uuid();
    await expectProblem(await call(`/api/printers/${id}`, { method: 'PUT', token: ws.accessToken, json: printerBody(id) }), 404);
  });
});

describe('DELETE /api/printers/{id}', () => {
  it('soft-deletes: 204, gone from list and get, further calls 404', async () => {
    const ws = await newWorkspace();
    const keep = await createPrinter(ws);
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, escposTextHex('x'));
    await expectStatus(await call(`/api/printers/${p.printer.id}`, { method: 'DELETE', token: ws.accessToken }), 204);
    const list = await expectJson(await call('/api/printers', { token: ws.accessToken }), 200);
    expect(list.map((x: any) => x.printer.id)).toEqual([keep.printer.id]);
    await expectProblem(await call(`/api/printers/${p.printer.id}`, { token: ws.accessToken }), 404);
    await expectProblem(await call(`/api/printers/${p.printer.id}`, { method: 'DELETE', token: ws.accessToken }), 404);
    await expectProblem(await call(`/api/printers/${p.printer.id}/documents/canvas`, { token: ws.accessToken }), 404);
    const sidebar = await expectJson(await call('/api/printers/sidebar', { token: ws.accessToken }), 200);
    expect(sidebar.map((x: any) => x.printer.id)).toEqual([keep.printer.id]);
    // its id cannot be taken again (the port stays taken with it)
    const again = await call('/api/printers', { token: ws.accessToken, json: printerBody(p.printer.id) });
    expect(again.status).toBe(409);
    await again.arrayBuffer();
  });
});

describe('POST /api/printers/{id}/pin', () => {
  it('pins and unpins, answering PrinterResponseDto', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const pinned = await expectJson(await call(`/api/printers/${p.printer.id}/pin`, { token: ws.accessToken, json: { isPinned: true } }), 200);
    assertPrinterResponse(pinned, ws);
    expect(pinned.printer.isPinned).toBe(true);
    expect((await getPrinter(ws, p.printer.id)).printer.isPinned).toBe(true);
    const unpinned = await expectJson(await call(`/api/printers/${p.printer.id}/pin`, { token: ws.accessToken, json: { IsPinned: false } }), 200);
    expect(unpinned.printer.isPinned).toBe(false);
  });
});

describe('PATCH /api/printers/{id}/operational-flags', () => {
  it('changes only the supplied fields', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const one = await expectJson(await patchFlags(ws, id, { isPaperOut: true }), 200);
    assertFlags(one, id);
    expect(one).toMatchObject({ isPaperOut: true, isCoverOpen: false, isOffline: false, hasError: false, isPaperNearEnd: false, targetState: 'Started' });
    const two = await expectJson(await patchFlags(ws, id, { isCoverOpen: true, isPaperNearEnd: true }), 200);
    expect(two).toMatchObject({ isPaperOut: true, isCoverOpen: true, isOffline: false, hasError: false, isPaperNearEnd: true });
    const three = await expectJson(await patchFlags(ws, id, { isPaperOut: false, hasError: true, isOffline: true }), 200);
    expect(three).toMatchObject({ isPaperOut: false, isCoverOpen: true, isOffline: true, hasError: true, isPaperNearEnd: true });
    const none = await expectJson(await patchFlags(ws, id, {}), 200);
    expect(none).toMatchObject({ isPaperOut: false, isCoverOpen: true, isOffline: true, hasError: true, isPaperNearEnd: true });
    const fetched = await getPrinter(ws, id);
    expect(fetched.operationalFlags).toMatchObject({ isPaperOut: false, isCoverOpen: true, isOffline: true, hasError: true, isPaperNearEnd: true });
    // case-insensitive names
    const cased = await expectJson(await patchFlags(ws, id, { ISCOVEROPEN: false }), 200);
    expect(cased.isCoverOpen).toBe(false);
    expect(cased.hasError).toBe(true);
  });

  it('targetState Stopped stops the listener (runtime state Stopped); Started starts it again', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const stopped = await expectJson(await patchFlags(ws, id, { targetState: 'Stopped' }), 200);
    expect(stopped.targetState).toBe('Stopped');
    const afterStop = await getPrinter(ws, id);
    expect(afterStop.operationalFlags.targetState).toBe('Stopped');
    expect(afterStop.runtimeStatus.state).toBe('Stopped');
    // flags untouched by a targetState change
    expect(afterStop.operationalFlags.isPaperOut).toBe(false);
    const started = await expectJson(await patchFlags(ws, id, { targetState: 'Started' }), 200);
    expect(started.targetState).toBe('Started');
    const afterStart = await getPrinter(ws, id);
    expect(afterStart.operationalFlags.targetState).toBe('Started');
    // no bridge is connected: the listener waits for one
    expect(['Starting', 'Started']).toContain(afterStart.runtimeStatus.state);
    expect(afterStart.runtimeStatus.state).toBe('Starting');
  });

  it('404 for an unknown printer', async () => {
    const ws = await newWorkspace();
    await expectProblem(await patchFlags(ws, uuid(), { isPaperOut: true }), 404);
  });
});

describe('PATCH /api/printers/{id}/drawers', () => {
  it('sets OpenedManually and Closed, answering PrinterRuntimeStatusDto', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const one = await expectJson(await patchDrawers(ws, id, { drawer1State: 'OpenedManually' }), 200);
    assertRuntimeStatus(one, id);
    assertResponseRules(one);
    expect(one.drawer1State).toBe('OpenedManually');
    expect(one.drawer2State).toBe('Closed');
    const two = await expectJson(await patchDrawers(ws, id, { drawer2State: 'OpenedManually' }), 200);
    expect(two).toMatchObject({ drawer1State: 'OpenedManually', drawer2State: 'OpenedManually' });
    const three = await expectJson(await patchDrawers(ws, id, { drawer1State: 'Closed' }), 200);
    expect(three).toMatchObject({ drawer1State: 'Closed', drawer2State: 'OpenedManually' });
    const fetched = await getPrinter(ws, id);
    expect(fetched.runtimeStatus).toMatchObject({ drawer1State: 'Closed', drawer2State: 'OpenedManually' });
  });

  it('OpenedByCommand cannot be set through the API (400) and changes nothing', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const id = p.printer.id;
    await expectProblem(await patchDrawers(ws, id, { drawer1State: 'OpenedByCommand' }), 400, { errors: true });
    await expectProblem(await patchDrawers(ws, id, { drawer1State: 'Closed', drawer2State: 'OpenedByCommand' }), 400, { errors: true });
    const fetched = await getPrinter(ws, id);
    expect(fetched.runtimeStatus).toMatchObject({ drawer1State: 'Closed', drawer2State: 'Closed' });
  });
});

describe('drawer kick over the print protocol', () => {
  it('ESC p sets OpenedByCommand; the API can close the drawer again', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const id = p.printer.id;
    await importDoc(ws, id, '1B 40 1B 70 00 19 FA');
    const opened = await eventually(async () => {
      const r = await getPrinter(ws, id);
      return r.runtimeStatus.drawer1State === 'OpenedByCommand' ? r : null;
    });
    expect(opened.runtimeStatus.drawer2State).toBe('Closed');
    const closed = await expectJson(await patchDrawers(ws, id, { drawer1State: 'Closed' }), 200);
    expect(closed.drawer1State).toBe('Closed');
    // pin 5 (m = 1) kicks drawer 2
    await importDoc(ws, id, '1B 70 01 19 FA');
    await eventually(async () => (await getPrinter(ws, id)).runtimeStatus.drawer2State === 'OpenedByCommand');
  });
});

describe('GET /api/printers/sidebar', () => {
  it('returns PrinterSidebarSnapshotDto for each printer, pinned first', async () => {
    const ws = await newWorkspace();
    const a = await createPrinter(ws, { displayName: 'Aa' });
    const b = await createPrinter(ws, { displayName: 'Bb' });
    await expectJson(await call(`/api/printers/${b.printer.id}/pin`, { token: ws.accessToken, json: { isPinned: true } }), 200);
    const body = await expectJson(await call('/api/printers/sidebar', { token: ws.accessToken }), 200);
    expect(body.map((s: any) => s.printer.id)).toEqual([b.printer.id, a.printer.id]);
    for (const s of body) {
      expect(Object.keys(s).sort().filter((k) => k !== 'runtimeStatus')).toEqual(['printer']);
      assertPrinterDto(s.printer);
      if (s.runtimeStatus) {
        assertRuntimeStatus(s.runtimeStatus, s.printer.id);
        expect(s.runtimeStatus.state).toBe('Starting');
      }
    }
    assertResponseRules(body);
  });
});

describe('POST /api/printers/{id}/documents/last-viewed', () => {
  it('is a 501 stub', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const res = await call(`/api/printers/${p.printer.id}/documents/last-viewed`, { token: ws.accessToken, json: { documentId: uuid() } });
    await expectProblem(res, 501);
  });
});

describe('read stamps', () => {
  it('rule 4: GET /api/printers and GET /api/printers/{id} record nothing', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, escposTextHex('not read'));
    await expectJson(await call('/api/printers', { token: ws.accessToken }), 200);
    await expectJson(await call('/api/printers', { token: ws.accessToken, headers: { 'X-Client': 'web' } }), 200);
    await getPrinter(ws, p.printer.id);
    await expectJson(await call(`/api/printers/${p.printer.id}`, { token: ws.accessToken, headers: { 'X-Client': 'web' } }), 200);
    await expectJson(await call('/api/printers/sidebar', { token: ws.accessToken }), 200);
    await sleep(200);
    const after = await getPrinter(ws, p.printer.id);
    expect(after.printer.lastApiReadAt).toBeNull();
    expect(after.printer.lastWebReadAt).toBeNull();
    expectDateTime(after.printer.lastDocumentReceivedAt);
    const w = await getWorkspace(ws);
    expect(w.lastApiReadAt).toBeNull();
    expect(w.lastWebReadAt).toBeNull();
  });

  it('rules 1-2: reading documents without X-Client sets lastApiReadAt on printer and workspace', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const before = Date.now();
    await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas`, { token: ws.accessToken }), 200);
    const printer = await eventually(async () => {
      const r = await getPrinter(ws, p.printer.id);
      return r.printer.lastApiReadAt ? r.printer : null;
    });
    expectDateTime(printer.lastApiReadAt);
    expect(printer.lastApiReadAt).toMatch(/Z$/);
    expect(Date.parse(printer.lastApiReadAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(printer.lastWebReadAt).toBeNull();
    const w = await getWorkspace(ws);
    expectDateTime(w.lastApiReadAt);
    expect(w.lastWebReadAt).toBeNull();
  });

  it('rules 1-2: X-Client: web sets lastWebReadAt instead', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas`, { token: ws.accessToken, headers: { 'X-Client': 'web' } }), 200);
    const printer = await eventually(async () => {
      const r = await getPrinter(ws, p.printer.id);
      return r.printer.lastWebReadAt ? r.printer : null;
    });
    expectDateTime(printer.lastWebReadAt);
    expect(printer.lastApiReadAt).toBeNull();
    const w = await getWorkspace(ws);
    expectDateTime(w.lastWebReadAt);
    expect(w.lastApiReadAt).toBeNull();
  });

  it('rule 2: any other X-Client value counts as an API read', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas`, { token: ws.accessToken, headers: { 'X-Client': 'cli' } }), 200);
    const printer = await eventually(async () => {
      const r = await getPrinter(ws, p.printer.id);
      return r.printer.lastApiReadAt ? r.printer : null;
    });
    expect(printer.lastWebReadAt).toBeNull();
  });

  it('a later read moves the stamp forward', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas`, { token: ws.accessToken }), 200);
    const first = await eventually(async () => (await getPrinter(ws, p.printer.id)).printer.lastApiReadAt as string | null);
    await sleep(20);
    await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas`, { token: ws.accessToken }), 200);
    const second = await eventually(async () => {
      const t = (await getPrinter(ws, p.printer.id)).printer.lastApiReadAt as string;
      return t > first ? t : null;
    });
    expect(second > first).toBe(true);
  });
});
