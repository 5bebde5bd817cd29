/**
 * POST /internal/config/apply ("printers as code", applied by `npm start`): behind the bridge
 * secret; creates the declared workspace with its token and printers on their ports; applies
 * changes as updates; changes nothing the second time; refuses (409, naming the printer, and
 * writing nothing) ports and ids that are taken or were ever used.
 */
import { describe, expect, it } from 'vitest';
import { call, createPrinter, expectJson, expectProblem, login, newWorkspace, uuid } from './helpers.ts';
import { TEST_BRIDGE_SECRET } from './constants.ts';

const apply = (config: unknown, secret = TEST_BRIDGE_SECRET) =>
  call('/internal/config/apply', { json: config, headers: { authorization: `Bearer ${secret}` } });

let nextPort = 30000 + Math.floor(Math.random() * 1000) * 10;
const port = () => ++nextPort;

function declaration(over: { token?: string; name?: string; printers?: unknown[] } = {}) {
  return { id: uuid(), name: over.name ?? 'CI', token: over.token ?? `ci-token-${uuid()}`, printers: over.printers ?? [] };
}

describe('POST /internal/config/apply', () => {
  it('requires the bridge secret', async () => {
    await expectProblem(await apply({ workspaces: [] }, 'wrong-secret-0123456789'), 401);
  });

  it('answers 400 naming the field of an invalid file', async () => {
    const p = await expectProblem(await apply({ workspaces: [declaration({ printers: [{ id: uuid(), displayName: 'x', protocol: 'Nope', widthInDots: 576 }] })] }), 400, { errors: true });
    expect(Object.keys(p.errors!)).toContain('workspaces.0.printers.0.protocol');
  });

  it('refuses an unknown model, or one that does not speak the protocol, naming the printer, and writes nothing', async () => {
    for (const model of ['no-such-printer', 'zebra-zd421-203']) {
      const w = declaration({ printers: [{ id: uuid(), displayName: 'Till 9', protocol: 'EscPos', model, widthInDots: 576 }] });
      const p = await expectProblem(await apply({ workspaces: [w] }), 409);
      expect(p.detail).toContain('printer "Till 9"');
      expect(p.detail).toContain(model);
      expect((await call('/api/auth/login', { json: { token: w.token } })).status).toBe(401);
    }
    // A model that speaks the protocol is stored and answered back.
    const decl = { id: uuid(), displayName: 'Labels', protocol: 'Zpl', model: 'zebra-zt411-300', widthInDots: 1200, heightInDots: 1800 };
    const w = declaration({ printers: [decl] });
    await expectJson(await apply({ workspaces: [w] }));
    const { accessToken } = await login(w.token);
    expect((await expectJson(await call(`/api/printers/${decl.id}`, { token: accessToken }))).settings.model).toBe('zebra-zt411-300');
  });

  it('keeps a declared model and its encoding on a declared port, and the second apply changes nothing', async () => {
    const decl = { id: uuid(), displayName: 'Korean till', protocol: 'EscPos', model: 'bixolon-srp350iii', widthInDots: 576, tcpListenPort: port() };
    const w = declaration({ printers: [decl] });
    expect((await expectJson(await apply({ workspaces: [w] }))).printers[0].change).toBe('created');
    const { accessToken } = await login(w.token);
    const printer = await expectJson(await call(`/api/printers/${decl.id}`, { token: accessToken }));
    expect(printer.settings).toMatchObject({ model: 'bixolon-srp350iii', multiByteEncoding: 'KsC5601', tcpListenPort: decl.tcpListenPort });
    expect((await expectJson(await apply({ workspaces: [w] }))).printers[0].change).toBe('unchanged');
  });

  it('creates, then leaves alone, then updates what the file declares', async () => {
    const p1 = { id: uuid(), displayName: 'Till', protocol: 'EscPos', widthInDots: 576, tcpListenPort: port() };
    const w = declaration({ printers: [p1] });
    const first = await expectJson(await apply({ workspaces: [w] }));
    expect(first).toEqual({
      workspaces: [{ id: w.id, change: 'created' }],
      printers: [{ id: p1.id, displayName: 'Till', tcpListenPort: p1.tcpListenPort, change: 'created' }],
    });
    // The declared token signs in, and the printer is there with its port.
    const { accessToken } = await login(w.token);
    const printer = await expectJson(await call(`/api/printers/${p1.id}`, { token: accessToken }));
    expect(printer.settings).toMatchObject({ protocol: 'EscPos', widthInDots: 576, tcpListenPort: p1.tcpListenPort });

    const second = await expectJson(await apply({ workspaces: [w] }));
    expect(second.workspaces[0].change).toBe('unchanged');
    expect(second.printers[0].change).toBe('unchanged');

    // A new token and a label printer's stock are updates; the old token stops working.
    const newToken = `ci-token-${uuid()}`;
    const third = await expectJson(await apply({ workspaces: [{ ...w, token: newToken, printers: [{ ...p1, protocol: 'Epl', widthInDots: 812, heightInDots: 1218 }] }] }));
    expect(third.workspaces[0].change).toBe('updated');
    expect(third.printers[0]).toMatchObject({ change: 'updated', tcpListenPort: p1.tcpListenPort });
    expect((await call('/api/auth/login', { json: { token: w.token } })).status).toBe(401);
    const again = await login(newToken);
    const label = await expectJson(await call(`/api/printers/${p1.id}`, { token: again.accessToken }));
    expect(label.settings).toMatchObject({ protocol: 'Epl', widthInDots: 812, heightInDots: 1218 });
  });

  it('refuses a port held by another printer or a deleted one, naming the printer, and writes nothing', async () => {
    const ws = await newWorkspace();
    const holder = await createPrinter(ws);
    const gone = await createPrinter(ws);
    expect((await call(`/api/printers/${gone.printer.id}`, { method: 'DELETE', token: ws.accessToken })).status).toBe(204);
    const a = { id: uuid(), displayName: 'Clash A', protocol: 'EscPos', widthInDots: 576, tcpListenPort: holder.settings.tcpListenPort };
    const b = { id: uuid(), displayName: 'Clash B', protocol: 'EscPos', widthInDots: 576, tcpListenPort: gone.settings.tcpListenPort };
    const w = declaration({ printers: [a, b] });
    const p = await expectProblem(await apply({ workspaces: [w] }), 409, { errors: true });
    expect(p.errors![`printer "Clash A" (${a.id})`][0]).toContain(`port ${holder.settings.tcpListenPort} is taken by printer`);
    expect(p.errors![`printer "Clash B" (${b.id})`][0]).toContain('was used by a deleted printer');
    // Nothing was written: the workspace does not exist.
    expect((await call('/api/auth/login', { json: { token: w.token } })).status).toBe(401);
  });

  it('refuses a deleted printer id, another workspace\u2019s printer and another workspace\u2019s token', async () => {
    const ws = await newWorkspace();
    const other = await createPrinter(ws);
    const deleted = await createPrinter(ws);
    expect((await call(`/api/printers/${deleted.printer.id}`, { method: 'DELETE', token: ws.accessToken })).status).toBe(204);
    const w = declaration({
      token: ws.token,
      printers: [
        { id: other.printer.id, displayName: 'Stolen', protocol: 'EscPos', widthInDots: 576 },
        { id: deleted.printer.id, displayName: 'Revived', protocol: 'EscPos', widthInDots: 576 },
      ],
    });
    const p = await expectProblem(await apply({ workspaces: [w] }), 409, { errors: true });
    expect(Object.keys(p.errors!).sort()).toEqual([
      `printer "Revived" (${deleted.printer.id})`, `printer "Stolen" (${other.printer.id})`, `workspace "CI" (${w.id})`,
    ].sort());
  });

  it('continues automatic port assignment above a declared port of the block; one above the block does not move it', async () => {
    const above = port() + 500; // above the default block (9101–19100)
    const outside = declaration({ printers: [{ id: uuid(), displayName: 'Outside', protocol: 'EscPos', widthInDots: 576, tcpListenPort: above }] });
    await expectJson(await apply({ workspaces: [outside] }));
    const declared = 15_000 + Math.floor(Math.random() * 1000);
    const w = declaration({ printers: [{ id: uuid(), displayName: 'Declared', protocol: 'EscPos', widthInDots: 576, tcpListenPort: declared }] });
    await expectJson(await apply({ workspaces: [w] }));
    const { accessToken } = await login(w.token);
    const next = await expectJson(await call('/api/printers', {
      token: accessToken,
      json: { printer: { id: uuid(), displayName: 'Auto' }, settings: { protocol: 'EscPos', widthInDots: 576 } },
    }));
    expect(next.settings.tcpListenPort).toBeGreaterThan(declared);
    expect(next.settings.tcpListenPort).toBeLessThan(above);
  });
});
