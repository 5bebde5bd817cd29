/**
 * Every printer setting of the one list (src/worker/schemas/printer-settings.ts) followed
 * through every place that must know it: the request (API) → its D1 column → the response DTO
 * → the bridge's listener spec. Each setting is set to its list `example` (not its default),
 * so a place that drops a setting and falls back to the default fails here. The printers file
 * is followed the same way: a printer declared on a port keeps its model and encoding.
 * (The web form's side is checked in test/web/printer-form-settings.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { call, env, eventually, expectJson, newWorkspace, uuid } from './helpers.ts';
import { PRINTER_SETTINGS, SETTING_NAMES, settingFromRow, settingNamesSeenBy, type SettingName } from '../../src/worker/schemas/printer-settings.ts';
import type { PrinterRow } from '../../src/worker/data/rows.ts';

const worker = (exports as any).default as { fetch(r: Request): Promise<Response & { webSocket: WebSocket | null }> };

/** Where the listener spec carries each setting the bridge sees (the wire's own names). */
const BRIDGE_VIEW: Partial<Record<SettingName, (listener: any) => unknown>> = {
  protocol: (l) => l.protocol,
  tcpListenPort: (l) => l.port,
  emulateBufferCapacity: (l) => l.buffer !== null,
  bufferDrainRate: (l) => l.buffer?.drainRate,
  bufferMaxCapacity: (l) => l.buffer?.maxCapacity,
};

async function controlChannel(bearer: string) {
  const res = await worker.fetch(new Request('http://localhost/internal/bridge/control', { headers: { upgrade: 'websocket', authorization: `Bearer ${bearer}` } }));
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const messages: any[] = [];
  ws.addEventListener('message', (ev) => { messages.push(JSON.parse(String(ev.data))); });
  return { ws, lastListeners: () => [...messages].reverse().find((m) => m.type === 'listeners')?.listeners as any[] | undefined };
}

describe('printer settings: one list, every path', () => {
  it('carries every setting from the request through D1 and the response to the bridge', async () => {
    const ws = await newWorkspace();
    const bridge = await expectJson<{ id: string; token: string }>(
      await call('/api/workspaces/bridges', { token: ws.accessToken, json: { name: 'Site', publicHost: 'site.example.net' } }));
    const expected: Record<string, unknown> = Object.fromEntries(SETTING_NAMES.map((k) => [k, PRINTER_SETTINGS[k].example]));
    expected.bridgeId = bridge.id;
    const id = uuid();
    const requestSettings = Object.fromEntries(SETTING_NAMES.filter((k) => PRINTER_SETTINGS[k].writer !== 'port').map((k) => [k, expected[k]]));
    const created = await expectJson(await call('/api/printers', { token: ws.accessToken, json: { printer: { id, displayName: 'Every setting' }, settings: requestSettings } }));
    expected.tcpListenPort = created.settings.tcpListenPort; // server-assigned
    expect(expected.tcpListenPort).toEqual(expect.any(Number));

    const row = (await env.DB.prepare('SELECT * FROM printers WHERE id = ?').bind(id).first<PrinterRow>())!;
    const dto = (await expectJson(await call(`/api/printers/${id}`, { token: ws.accessToken }))).settings;
    const channel = await controlChannel(bridge.token);
    const listener = await eventually(async () => channel.lastListeners()?.find((l) => l.printerId === id));
    channel.ws.close(1000);

    for (const name of SETTING_NAMES) {
      const value = expected[name];
      expect(value, `${name}: the list's example differs from its default`).not.toEqual(PRINTER_SETTINGS[name].defaultValue);
      expect(settingFromRow(row, name), `${name} in D1 column ${PRINTER_SETTINGS[name].column}`).toEqual(value);
      if (settingNamesSeenBy('api').includes(name)) expect(dto[name], `${name} in the response`).toEqual(value);
      if (settingNamesSeenBy('bridge').includes(name)) {
        const view = BRIDGE_VIEW[name];
        expect(view, `${name} is seen by the bridge: say where its listener spec carries it`).toBeDefined();
        expect(view!(listener), `${name} in the listener spec`).toEqual(value);
      }
    }

    // An update writes every setting again: back to the defaults where the request omits them.
    const cleared = await expectJson(await call(`/api/printers/${id}`, {
      method: 'PUT', token: ws.accessToken, json: { printer: { id, displayName: 'Every setting' }, settings: { protocol: 'EscPos', model: 'xprinter-xp-n160ii' } },
    }));
    for (const name of SETTING_NAMES.filter((k) => PRINTER_SETTINGS[k].writer === 'settings')) {
      const d = PRINTER_SETTINGS[name].defaultValue;
      if (d === null) expect(cleared.settings, name).not.toHaveProperty(name);
      else if (d !== 'fromModel' && d !== 'required') expect(cleared.settings[name], name).toEqual(d);
    }
    expect(cleared.settings.bridgeId).toBe(bridge.id); // omitted on update: unchanged
  });

  it('keeps a declared-port printer\u2019s model and multi-byte encoding (printers file)', async () => {
    const port = 40000 + Math.floor(Math.random() * 5000);
    const printer = { id: uuid(), displayName: 'Declared', protocol: 'EscPos', model: 'xprinter-xp-n160ii', widthInDots: 512, tcpListenPort: port };
    const workspace = { id: uuid(), name: 'Declared', token: `declared-token-${uuid()}`, printers: [printer] };
    await expectJson(await call('/internal/config/apply', { json: { workspaces: [workspace] }, headers: { authorization: `Bearer ${TEST_BRIDGE_SECRET}` } }));
    const row = (await env.DB.prepare('SELECT * FROM printers WHERE id = ?').bind(printer.id).first<PrinterRow>())!;
    expect(row).toMatchObject({ tcp_listen_port: port, model: 'xprinter-xp-n160ii', multi_byte_encoding: 'Gb18030', width_in_dots: 512 });
    // A second apply of the same file finds nothing to change.
    const again = await expectJson(await call('/internal/config/apply', { json: { workspaces: [workspace] }, headers: { authorization: `Bearer ${TEST_BRIDGE_SECRET}` } }));
    expect(again.printers).toEqual([expect.objectContaining({ id: printer.id, change: 'unchanged' })]);
  });
});
