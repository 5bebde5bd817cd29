import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { call, createPrinter, eventually, expectJson, expectProblem, expectStatus, newWorkspace, printerBody, uuid } from './helpers.ts';

/** Star printers through the API: protocols from the registry, their default models, their engine. */
describe('Star printers', () => {
  it('StarPrnt and StarLine printers get their default models', async () => {
    const ws = await newWorkspace();
    const prnt = await createPrinter(ws, { settings: { protocol: 'StarPrnt', widthInDots: 576 } });
    expect(prnt.settings).toMatchObject({ protocol: 'StarPrnt', model: 'star-tsp100iv' });
    const line = await createPrinter(ws, { settings: { protocol: 'StarLine', widthInDots: 576 } });
    expect(line.settings).toMatchObject({ protocol: 'StarLine', model: 'star-tsp650ii' });
    const mc = await createPrinter(ws, { settings: { protocol: 'StarPrnt', model: 'star-mc-print2', widthInDots: 384 } });
    expect(mc.settings.model).toBe('star-mc-print2');
  });

  it('400 naming both when the model does not speak the Star language', async () => {
    const ws = await newWorkspace();
    const res = await call('/api/printers', { token: ws.accessToken, json: printerBody(undefined, undefined, { protocol: 'StarLine', model: 'star-tsp100iv' }) });
    const problem = await expectProblem(res, 400, { errors: true });
    expect(problem.detail).toContain('star-tsp100iv');
    expect(problem.detail).toContain('StarLine');
  });

  it('a Star job renders with the Star engine: Star code page numbering, styles, cut', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws, { settings: { protocol: 'StarPrnt', widthInDots: 576 } });
    // ESC @, ESC GS t 10 (PC866 in Star numbering), "Привет", LF, ESC E "Bold" ESC F LF, ESC d 0
    const hex = '1B 40 1B 1D 74 0A 8F E0 A8 A2 A5 E2 0A 1B 45 42 6F 6C 64 1B 46 0A 1B 64 00';
    await expectStatus(await call(`/api/printers/${p.printer.id}/documents/import`, { token: ws.accessToken, json: { data: hex, format: 'Hex' } }), 204);
    const list = await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas?Limit=1`, { token: ws.accessToken }), 200);
    const doc = list.result.items[0];
    expect(doc.errorMessages ?? []).toEqual([]);
    const texts = doc.canvases.flatMap((c: { items: { type: string; text?: string; isBold?: boolean }[] }) => c.items).filter((e: { type: string }) => e.type === 'text');
    expect(texts.map((t: { text: string }) => t.text)).toEqual(['Привет', 'Bold']);
    expect(texts[1].isBold).toBe(true);
  });

  it('ESC RS a 1 over a bridge session: the ASB is written back at once and again when the flags change', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws, { settings: { protocol: 'StarLine', widthInDots: 576 } });
    const res = (await (exports as any).default.fetch(
      new Request(`http://localhost/internal/bridge/printers/${p.printer.id}/session?sessionId=${uuid()}&clientAddress=10.0.0.9`, {
        headers: { upgrade: 'websocket', authorization: `Bearer ${TEST_BRIDGE_SECRET}` },
      }),
    )) as Response & { webSocket: WebSocket };
    const sock = res.webSocket;
    (sock as unknown as { binaryType: string }).binaryType = 'arraybuffer';
    sock.accept();
    const replies: number[][] = [];
    sock.addEventListener('message', (ev) => { if (typeof ev.data !== 'string') replies.push([...new Uint8Array(ev.data as ArrayBuffer)]); });
    sock.send(Uint8Array.of(0x1b, 0x1e, 0x61, 0x01));
    await eventually(async () => (replies.length === 1 ? true : undefined), 5000);
    expect(replies[0]).toEqual([0x23, 0x06, 0, 0, 0, 0, 0, 0, 0]);
    await expectStatus(await call(`/api/printers/${p.printer.id}/operational-flags`, { token: ws.accessToken, method: 'PATCH', json: { isPaperOut: true } }), 200);
    await eventually(async () => (replies.length === 2 ? true : undefined), 5000);
    expect(replies[1]).toEqual([0x23, 0x06, 0x08, 0, 0, 0x08, 0, 0, 0]);
    sock.close();
  });
});
