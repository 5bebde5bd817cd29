/**
 * GET /api/printers/{id}/addresses inside workerd: the LPD address uses the port the printer's
 * own bridge said it listens on (its control channel's `hello`), kept while it is away; no LPD
 * address when the bridge serves none or never said.
 */
import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { call, createPrinter, eventually, expectJson, newWorkspace } from './helpers.ts';

const worker = (exports as any).default as { fetch(r: Request): Promise<Response & { webSocket: WebSocket | null }> };

async function control(bearer: string): Promise<WebSocket> {
  const res = await worker.fetch(new Request('http://localhost/internal/bridge/control', { headers: { upgrade: 'websocket', authorization: `Bearer ${bearer}` } }));
  expect(res.status).toBe(101);
  res.webSocket!.accept();
  return res.webSocket!;
}

describe('the addresses to point a POS at', () => {
  it('name the LPD port the printer\u2019s bridge reports, and none when it serves no LPD', async () => {
    const ws = await newWorkspace();
    const bridge = await expectJson<{ id: string; token: string }>(await call('/api/workspaces/bridges', { token: ws.accessToken, json: { name: 'Shop', publicHost: 'shop.example.net' } }), 200);
    const printer = await createPrinter(ws, { settings: { protocol: 'EscPos', widthInDots: 576, bridgeId: bridge.id } as any });
    const port = printer.settings.tcpListenPort;
    const addresses = async () => expectJson<{ lpdPort: number | null; addresses: { label: string; url: string }[] }>(
      await call(`/api/printers/${printer.printer.id}/addresses`, { token: ws.accessToken }), 200);

    const before = await addresses(); // the bridge never connected
    expect(before.lpdPort).toBeNull();
    expect(before.addresses.map((a) => a.url)).toEqual([
      `shop.example.net:${port}`,
      `http://shop.example.net:${port}/cgi-bin/epos/service.cgi?devid=local_printer&timeout=10000`,
      `https://shop.example.net:${port}/cgi-bin/epos/service.cgi?devid=local_printer&timeout=10000`,
    ]);

    const channel = await control(bridge.token);
    channel.send(JSON.stringify({ type: 'hello', lpdPort: 1515 }));
    const after = await eventually(async () => { const a = await addresses(); return a.lpdPort === 1515 ? a : undefined; });
    expect(after.addresses).toContainEqual({ label: 'LPD queue', url: `lpd://shop.example.net:1515/${port}` });
    channel.close(1000);
    expect((await addresses()).lpdPort).toBe(1515); // kept while the bridge is away

    const again = await control(bridge.token);
    again.send(JSON.stringify({ type: 'hello', lpdPort: null })); // LPD_PORT=0
    await eventually(async () => ((await addresses()).lpdPort === null ? true : undefined));
    expect((await addresses()).addresses.some((a) => a.url.startsWith('lpd:'))).toBe(false);
    again.send(JSON.stringify({ type: 'hello', lpdPort: 70000 })); // not a port: dropped, the last word stands
    again.send(JSON.stringify({ type: 'ping' }));
    await new Promise((r) => setTimeout(r, 50));
    expect((await addresses()).lpdPort).toBeNull();
    again.close(1000);

    // Another workspace cannot read them.
    const other = await newWorkspace();
    expect((await call(`/api/printers/${printer.printer.id}/addresses`, { token: other.accessToken })).status).toBe(404);
  });
});
