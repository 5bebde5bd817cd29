/**
 * GET /api/health (extensions.md "Consistency and readiness"), anonymous: 503 {"status":"starting"}
 * until the shared bridge is connected and has reported every listener it was given, and
 * (with a printers file declared by `npm start`, PRINTERS_FILE_DIGEST) until that file is
 * applied; 200 {"status":"ready"} then. The bridge here is the test on the control channel;
 * test/e2e/config-file.test.ts runs the real one under `npm start`.
 */
import { describe, expect, it } from 'vitest';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { createApp } from '../../src/worker/app.ts';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { call, createPrinter, env, eventually, expectJson, newWorkspace, uuid } from './helpers.ts';

const worker = (exports as any).default as { fetch(r: Request): Promise<Response & { webSocket: WebSocket | null }> };
const app = createApp();

/** The Worker with a printers file declared (what `npm start` passes in effective.vars). */
async function healthWithFile(digest: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request('http://localhost/api/health'), { ...env, PRINTERS_FILE_DIGEST: digest } as never, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

describe('GET /api/health', () => {
  it('is starting until the shared bridge has bound its listeners, then ready; and waits for the declared printers file', async () => {
    const starting = await call('/api/health');
    expect(starting.status).toBe(503);
    expect(await starting.json()).toEqual({ status: 'starting' });

    // A printer to listen for, then the shared bridge connects: still starting until it reports the bind.
    const ws = await newWorkspace();
    const printer = await createPrinter(ws);
    const res = await worker.fetch(new Request('http://localhost/internal/bridge/control', { headers: { upgrade: 'websocket', authorization: `Bearer ${TEST_BRIDGE_SECRET}` } }));
    expect(res.status).toBe(101);
    const channel = res.webSocket!;
    const listenerSets: any[][] = [];
    channel.addEventListener('message', (ev) => {
      const m = JSON.parse(String(ev.data));
      if (m.type === 'listeners') listenerSets.push(m.listeners);
    });
    channel.accept();
    const listeners = await eventually(async () => listenerSets.at(-1));
    const ours = listeners.find((l: any) => l.printerId === printer.printer.id);
    expect(ours).toBeTruthy();
    expect((await call('/api/health')).status).toBe(503);
    for (const l of listeners) channel.send(JSON.stringify({ type: 'bound', printerId: l.printerId, port: l.port, ok: true }));
    const ready = await eventually(async () => {
      const r = await call('/api/health');
      return r.status === 200 && r;
    });
    expect(await ready.json()).toEqual({ status: 'ready' });
    expect(ready.headers.get('cache-control')).toBe('no-store');

    // With a printers file declared, ready only once that very file was applied.
    const file = JSON.stringify({ workspaces: [{ id: uuid(), name: 'CI', token: `ci-token-${uuid()}`, printers: [] }] });
    const digest = await sha256Hex(file);
    expect((await healthWithFile(digest)).status).toBe(503);
    await expectJson(await call('/internal/config/apply', { body: file, headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_BRIDGE_SECRET}` } }));
    const afterFile = await healthWithFile(digest);
    expect(afterFile.status).toBe(200);
    expect(await afterFile.json()).toEqual({ status: 'ready' });
    // Another file (the operator edited it) is not the one applied.
    expect((await healthWithFile(await sha256Hex(`${file} `))).status).toBe(503);

    channel.close(1000, 'done');
    await eventually(async () => (await call('/api/health')).status === 503);
  });
});
