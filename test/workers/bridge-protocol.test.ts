/**
 * The Worker's end of the bridge protocol (src/shared/bridge-protocol.ts, read through
 * services/bridge-input.ts): malformed control frames are refused (logged with their reason)
 * without disturbing the channel, and a spare session whose first frame is not a well-formed
 * `start` (an unknown transport included) is closed (1008) without a document.
 */
import { describe, expect, it, vi } from 'vitest';
import { exports } from 'cloudflare:workers';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { createPrinter, eventually, listDocs, newWorkspace, sleep } from './helpers.ts';

const worker = (exports as any).default as { fetch(r: Request): Promise<Response & { webSocket: WebSocket | null }> };
const upgrade = async (path: string) => {
  const res = await worker.fetch(new Request(`http://localhost${path}`, { headers: { upgrade: 'websocket', authorization: `Bearer ${TEST_BRIDGE_SECRET}` } }));
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  return ws;
};

describe('the Worker\u2019s end of the bridge protocol', () => {
  it('refuses malformed control frames and keeps answering the bridge', async () => {
    const warn = vi.spyOn(console, 'warn');
    const ws = await upgrade('/internal/bridge/control');
    const texts: string[] = [];
    ws.addEventListener('message', (ev) => { texts.push(String(ev.data)); });
    for (const frame of ['not json', '[]', '{"type":"bound","printerId":7,"port":9101,"ok":true}', '{"type":"bound","printerId":"00000000-0000-4000-8000-000000000000","port":70000,"ok":true}', '{"type":"reboot"}']) ws.send(frame);
    ws.send('{"type":"ping"}');
    await eventually(async () => texts.some((t) => JSON.parse(t).type === 'pong'));
    ws.close(1000);
    // Each refused frame is logged with its reason.
    const reasons = warn.mock.calls.map((c) => c.join(' ')).filter((l) => l.includes('bridge.dropped'));
    expect(reasons.join('\n')).toContain('printerId is not a printer id');
    expect(reasons.join('\n')).toContain('port is not a TCP port');
    warn.mockRestore();
  });

  it('closes a spare whose first frame is not a well-formed start, making no document', async () => {
    const ws0 = await newWorkspace();
    const p = await createPrinter(ws0);
    for (const first of ['{"type":"start","sessionId":"s 1","clientAddress":"10.0.0.1"}', '{"type":"start","sessionId":"s","clientAddress":"10.0.0.1","transport":"Carrier pigeon"}', '{"type":"end","reason":"closed","bytesSent":0}']) {
      const ws = await upgrade(`/internal/bridge/printers/${p.printer.id}/session`);
      const closed = new Promise<number>((resolve) => ws.addEventListener('close', (ev) => resolve(ev.code)));
      ws.send(first);
      expect(await closed).toBe(1008);
    }
    await sleep(100);
    expect((await listDocs(ws0, p.printer.id)).result.items ?? []).toEqual([]);
  });
});
