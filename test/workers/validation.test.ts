/**
 * Malformed input on every endpoint with a body (decisions.md "JSON and errors"): bad JSON,
 * wrong types, missing required fields, unknown enum values, out-of-range numbers and
 * oversized strings are 400 problem+json with `errors`, never 500.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createPrinter, expectJson, expectProblem, newWorkspace, printerBody, uuid, type Ws } from './helpers.ts';

const HUGE = 'x'.repeat(10_000);

interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  auth: boolean;
  /** Bodies that are well-formed JSON but invalid. */
  invalid: unknown[];
  /** A valid body (to prove the endpoint is reachable with these settings). */
  valid?: unknown;
  validStatus?: number;
}

let ws: Ws;
let printerId: string;

beforeAll(async () => {
  ws = await newWorkspace();
  printerId = (await createPrinter(ws)).printer.id;
});

const printerInvalid = () => {
  const ok = printerBody(uuid());
  return [
    {},
    { printer: ok.printer },
    { settings: ok.settings },
    { printer: { id: 'not-a-uuid', displayName: 'x' }, settings: ok.settings },
    { printer: { id: uuid(), displayName: 42 }, settings: ok.settings },
    { printer: { id: uuid(), displayName: '' }, settings: ok.settings },
    { printer: { id: uuid(), displayName: HUGE }, settings: ok.settings },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, protocol: 'Ipl' } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, protocol: HUGE } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, widthInDots: '384' } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, widthInDots: 0 } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, widthInDots: 1e12 } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, widthInDots: 384.5 } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, heightInDots: -1 } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, emulateBufferCapacity: 'yes' } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, bufferDrainRate: 'fast' } },
    { printer: { id: uuid(), displayName: 'x' }, settings: { ...ok.settings, bufferMaxCapacity: -5 } },
    { printer: 'printer', settings: 'settings' },
    [],
    'a string',
    42,
    null,
  ];
};

const endpoints = (): Endpoint[] => [
  {
    name: 'POST /api/workspaces', method: 'POST', path: () => '/api/workspaces', auth: false,
    invalid: [
      {}, { id: uuid() }, { workspaceName: 'x' }, { id: 'not-a-uuid', workspaceName: 'x' }, { id: 42, workspaceName: 'x' },
      { id: uuid(), workspaceName: 42 }, { id: uuid(), workspaceName: '' }, { id: uuid(), workspaceName: HUGE },
      { id: HUGE, workspaceName: 'x' }, [], 'text', null, 7,
    ],
    valid: { id: uuid(), workspaceName: 'ok' },
  },
  {
    name: 'PATCH /api/workspaces', method: 'PATCH', path: () => '/api/workspaces', auth: true,
    invalid: [
      { name: HUGE }, { name: '' }, { name: 5 }, { documentRetentionDays: 'thirty' }, { documentRetentionDays: 1e10 },
      { tcpWhitelistEnabled: 'true' }, { tcpWhitelistEntries: 12 }, { tcpWhitelistEntries: 'x'.repeat(100_000) },
      { lightColorScheme: HUGE }, { darkColorScheme: true }, [], 'text', null,
    ],
    valid: {},
  },
  {
    name: 'POST /api/auth/login', method: 'POST', path: () => '/api/auth/login', auth: false,
    invalid: [{}, { token: 5 }, { token: '' }, { token: null }, { token: HUGE }, [], 'text', null],
  },
  {
    name: 'POST /api/workspaces/retention/cleanup', method: 'POST', path: () => '/api/workspaces/retention/cleanup', auth: true,
    invalid: [
      {}, { maxDocuments: '10' }, { maxDocuments: 1.5 }, { maxDocuments: 0 }, { maxDocuments: -3 }, { maxDocuments: 1e12 },
      { maxDocuments: 10, retentionDaysOverride: -1 }, { maxDocuments: 10, retentionDaysOverride: 'none' },
      { maxDocuments: 10, retentionDaysOverride: 1e9 }, { maxDocuments: HUGE }, [], 'text', null,
    ],
    valid: { maxDocuments: 10, retentionDaysOverride: 3650 },
  },
  {
    name: 'POST /api/printers', method: 'POST', path: () => '/api/printers', auth: true, invalid: printerInvalid(),
  },
  {
    name: 'PUT /api/printers/{id}', method: 'PUT', path: () => `/api/printers/${printerId}`, auth: true, invalid: printerInvalid(),
    valid: () => printerBody(printerId, 'still valid'),
  },
  {
    name: 'POST /api/printers/{id}/pin', method: 'POST', path: () => `/api/printers/${printerId}/pin`, auth: true,
    invalid: [{}, { isPinned: 'yes' }, { isPinned: 1 }, { isPinned: null }, { isPinned: HUGE }, [], 'text', null],
    valid: { isPinned: false },
  },
  {
    name: 'PATCH /api/printers/{id}/operational-flags', method: 'PATCH', path: () => `/api/printers/${printerId}/operational-flags`, auth: true,
    invalid: [
      { isPaperOut: 'true' }, { isCoverOpen: 1 }, { hasError: null }, { targetState: 'Paused' }, { targetState: HUGE },
      { targetState: 1 }, [], 'text', null,
    ],
    valid: { isPaperNearEnd: false },
  },
  {
    name: 'PATCH /api/printers/{id}/drawers', method: 'PATCH', path: () => `/api/printers/${printerId}/drawers`, auth: true,
    invalid: [
      { drawer1State: 'Open' }, { drawer1State: 1 }, { drawer2State: HUGE }, { drawer1State: 'OpenedByCommand' },
      { drawer2State: 'OpenedByCommand' }, [], 'text', null,
    ],
    valid: { drawer1State: 'Closed' },
  },
  {
    name: 'POST /api/printers/{id}/documents/import', method: 'POST', path: () => `/api/printers/${printerId}/documents/import`, auth: true,
    invalid: [{}, { data: 5 }, { data: null }, { data: '1B40', format: 'Binary' }, { data: '1B40', format: HUGE }, { format: 'Hex' }, [], 'text', null],
  },
  {
    name: 'POST /api/printers/{id}/documents/last-viewed', method: 'POST', path: () => `/api/printers/${printerId}/documents/last-viewed`, auth: true,
    invalid: [{}, { documentId: 5 }, { documentId: 'not-a-uuid' }, { documentId: HUGE }, [], 'text', null],
  },
];

const send = (ep: Endpoint, init: { body?: string; json?: unknown; headers?: Record<string, string> }) =>
  call(ep.path(), { method: ep.method, token: ep.auth ? ws.accessToken : undefined, ...init });

describe.each(endpoints().map((e) => [e.name, e] as const))('%s', (_name, ep) => {
  it('is reachable with a valid body', async () => {
    if (ep.valid === undefined) return;
    const res = await send(ep, { json: typeof ep.valid === 'function' ? ep.valid() : ep.valid });
    expect(res.status, await res.clone().text()).toBe(ep.validStatus ?? 200);
    await res.arrayBuffer();
  });

  it('bad JSON is 400 problem+json', async () => {
    for (const text of ['{', '{"a":', '{a: 1}', "{'x': 1}", 'not json', '{"id": "x",}', '\u0000']) {
      const res = await send(ep, { body: text, headers: { 'content-type': 'application/json' } });
      await expectProblem(res, 400);
    }
  });

  it('the bad-JSON problem carries errors', async () => {
    const res = await send(ep, { body: '{"broken": ', headers: { 'content-type': 'application/json; charset=utf-8' } });
    await expectProblem(res, 400, { errors: true });
  });

  it('an empty body declared as JSON is 400 problem+json, not 500', async () => {
    const res = await send(ep, { body: '', headers: { 'content-type': 'application/json' } });
    await expectProblem(res, 400, { errors: true });
  });

  it('a body that is not declared as JSON is refused with a 4xx problem, not 500', async () => {
    const res = await send(ep, { body: '{"x": 1}', headers: { 'content-type': 'text/plain' } });
    expect(res.status, await res.clone().text()).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
    await res.arrayBuffer();
  });

  it('wrong types, missing fields, bad enums, out-of-range numbers and oversized strings are 400 with errors', async () => {
    for (const body of ep.invalid) {
      const res = await send(ep, { json: body });
      const text = await res.clone().text();
      expect(res.status, `${JSON.stringify(body)?.slice(0, 120)} -> ${text.slice(0, 300)}`).toBe(400);
      const p = await expectProblem(res, 400, { errors: true });
      expect(p.title).toBeTruthy();
      expect(p.type).toBeTruthy();
    }
  });
});

describe('validation details', () => {
  it('names the failing fields in errors', async () => {
    const res = await call('/api/workspaces', { json: { id: 'nope', workspaceName: '' } });
    const p = await expectProblem(res, 400, { errors: true });
    const keys = Object.keys(p.errors!).map((k) => k.toLowerCase());
    expect(keys.some((k) => k.includes('id'))).toBe(true);
    expect(keys.some((k) => k.includes('workspacename'))).toBe(true);
  });

  it('names nested printer fields', async () => {
    const body = printerBody(uuid());
    const res = await call('/api/printers', { token: ws.accessToken, json: { ...body, settings: { ...body.settings, protocol: 'Ipl' } } });
    const p = await expectProblem(res, 400, { errors: true });
    expect(Object.keys(p.errors!).join(' ')).toMatch(/protocol/);
  });

  it('refuses a body so deep it could exhaust the parser, without 500', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await call('/api/workspaces', { body: deep, headers: { 'content-type': 'application/json' } });
    await expectProblem(res, 400, { errors: true });
  });

  it('a non-uuid printer id in the path is 400, an unknown one 404', async () => {
    await expectProblem(await call('/api/printers/not-a-uuid', { token: ws.accessToken }), 400, { errors: true });
    await expectProblem(await call(`/api/printers/${uuid()}`, { token: ws.accessToken }), 404);
  });

  it('a refused create leaves no printer behind', async () => {
    const id = uuid();
    const body = printerBody(id);
    await expectProblem(await call('/api/printers', { token: ws.accessToken, json: { ...body, settings: { ...body.settings, widthInDots: -1 } } }), 400, { errors: true });
    await expectProblem(await call(`/api/printers/${id}`, { token: ws.accessToken }), 404);
  });

  it('buffer emulation requires the drain rate and capacity', async () => {
    const body = printerBody(uuid());
    const res = await call('/api/printers', { token: ws.accessToken, json: { ...body, settings: { ...body.settings, emulateBufferCapacity: true } } });
    await expectProblem(res, 400, { errors: true });
    const ok = await call('/api/printers', {
      token: ws.accessToken,
      json: { ...body, settings: { ...body.settings, emulateBufferCapacity: true, bufferDrainRate: 1000.5, bufferMaxCapacity: 4096 } },
    });
    const created = await expectJson(ok, 200);
    expect(created.settings.emulateBufferCapacity).toBe(true);
    expect(created.settings.bufferDrainRate).toBe(1000.5);
    expect(created.settings.bufferMaxCapacity).toBe(4096);
  });
});
