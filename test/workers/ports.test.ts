/**
 * Port assignment (contract "Port assignment", decisions.md "Printers and listeners").
 * Storage is isolated per test file, so this file starts on an empty instance: the first
 * printer created here gets 9101. The tests run in order and depend on that order.
 */
import { describe, expect, it } from 'vitest';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { createApp } from '../../src/worker/app.ts';
import { BASE, env, call, createPrinter, expectJson, expectProblem, expectStatus, newWorkspace, printerBody, uuid, type Ws } from './helpers.ts';

let ws: Ws;
const port = (p: any): number => p.settings.tcpListenPort;

describe('port assignment', () => {
  it('the first printer on an empty instance gets 9101, the next 9102 (9100 is never assigned)', async () => {
    ws = await newWorkspace();
    const first = await createPrinter(ws);
    expect(port(first)).toBe(9101);
    const second = await createPrinter(ws);
    expect(port(second)).toBe(9102);
  });

  it('a port sent in the create request is ignored', async () => {
    const body = printerBody(uuid());
    const res = await call('/api/printers', { token: ws.accessToken, json: { ...body, settings: { ...body.settings, tcpListenPort: 9100 } } });
    const created = await expectJson(res, 200);
    expect(port(created)).toBe(9103);
  });

  it('a printer created after a delete gets a new, higher port, never the deleted one', async () => {
    const victim = await createPrinter(ws);
    expect(port(victim)).toBe(9104);
    await expectStatus(await call(`/api/printers/${victim.printer.id}`, { method: 'DELETE', token: ws.accessToken }), 204);
    const next = await createPrinter(ws);
    expect(port(next)).toBe(9105);
  });

  it('ports of a deleted workspace are not reused either', async () => {
    const other = await newWorkspace();
    const p = await createPrinter(other);
    expect(port(p)).toBe(9106);
    await expectStatus(await call('/api/workspaces', { method: 'DELETE', token: other.accessToken }), 204);
    expect(port(await createPrinter(ws))).toBe(9107);
  });

  it('ports are per instance, not per workspace', async () => {
    const other = await newWorkspace();
    expect(port(await createPrinter(other))).toBe(9108);
  });

  it('a duplicate printer id is refused and burns no port', async () => {
    const id = uuid();
    expect(port(await createPrinter(ws, { id }))).toBe(9109);
    const dup = await call('/api/printers', { token: ws.accessToken, json: printerBody(id) });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toMatch(/problem\+json/);
    await dup.arrayBuffer();
    expect(port(await createPrinter(ws))).toBe(9110);
  });

  it('20 concurrent creates get 20 distinct ports', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => createPrinter(ws)));
    const ports = results.map(port);
    expect(new Set(ports).size).toBe(20);
    for (const p of ports) expect(p).toBeGreaterThan(9110);
    expect(Math.min(...ports)).toBe(9111);
    expect(Math.max(...ports)).toBe(9130);
    // and the listing agrees
    const list = await expectJson(await call('/api/printers', { token: ws.accessToken }), 200);
    const listed = new Map(list.map((p: any) => [p.printer.id, port(p)]));
    for (const r of results) expect(listed.get(r.printer.id)).toBe(port(r));
  });

  it('a port is permanent: PUT keeps it and ignores a port in the body', async () => {
    const p = await createPrinter(ws);
    const body = printerBody(p.printer.id, 'renamed', { widthInDots: 576, tcpListenPort: 1234 });
    const updated = await expectJson(await call(`/api/printers/${p.printer.id}`, { method: 'PUT', token: ws.accessToken, json: body }), 200);
    expect(port(updated)).toBe(port(p));
    expect(updated.settings.widthInDots).toBe(576);
  });

  /** POST /api/printers with the port block's settings overridden, as a deployment would set them. */
  async function createUnder(block: { PRINTER_PORT_BASE?: string; PRINTER_PORT_COUNT?: string }): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request(`${BASE}/api/printers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(printerBody(uuid())),
      }),
      { ...env, ...block } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }

  it('PRINTER_PORT_BASE moves the block for a deployment; lowering it never reuses ports', async () => {
    const createWith = async (base: string | undefined, count?: string, status = 200) => {
      const res = await createUnder({ PRINTER_PORT_BASE: base, PRINTER_PORT_COUNT: count });
      return status === 200 ? port(await expectJson(res)) : (await expectProblem(res, status)).detail;
    };
    expect(await createWith('20000')).toBe(20001);
    expect(await createWith('20000')).toBe(20002);
    // back to a lower base: still above the highest port ever assigned, while the block reaches there
    expect(await createWith('9100', '11000')).toBe(20003);
    expect(await createWith(undefined, '10904')).toBe(20004);
    // the default block (9101–19100) has no port left above 20004: 409 naming the settings
    expect(await createWith(undefined, undefined, 409)).toMatch(/printer port block \(9101–19100\).*PRINTER_PORT_COUNT/);
  });

  it('the last port of the block is assigned, then creation answers 409 and burns no port', async () => {
    const createWith = (count: string) => createUnder({ PRINTER_PORT_BASE: '20000', PRINTER_PORT_COUNT: count });
    expect(port(await expectJson(await createWith('5'), 200))).toBe(20005);
    expect((await expectProblem(await createWith('5'), 409)).detail).toMatch(/20001–20005/);
    expect(port(await expectJson(await createWith('6'), 200))).toBe(20006);
  });
});
