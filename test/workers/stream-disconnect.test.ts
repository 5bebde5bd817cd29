/**
 * A stream client that goes away is dropped by the Durable Object at its next write (an
 * event or the 15 s keep-alive), so dead subscribers do not pile up.
 */
import { describe, expect, it } from 'vitest';
import { runInDurableObject } from 'cloudflare:test';
import { readSse } from '../support/sse.ts';
import { call, createPrinter, env, escposTextHex, eventually, importDoc, newWorkspace } from './helpers.ts';
import type { PrinterObject } from '../../src/worker/objects/printer-object.ts';

const canvasSubscribers = (printerId: string) => {
  const ns = (env as unknown as { PRINTER: DurableObjectNamespace<PrinterObject> }).PRINTER;
  return runInDurableObject(ns.get(ns.idFromName(printerId)), (instance) => (instance as unknown as { feeds: { canvasSubscriberCount: number } }).feeds.canvasSubscriberCount);
};

describe('stream disconnects', () => {
  it('a canvas stream client that disconnected is dropped at the next write', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id as string;
    const path = `/api/printers/${id}/documents/canvas/stream`;
    const staying = readSse(await call(path, { token: ws.accessToken }));
    const leaving = readSse(await call(path, { token: ws.accessToken }));
    await eventually(async () => (await canvasSubscribers(id)) === 2, 5000);

    await leaving.close();
    await importDoc(ws, id, escposTextHex('after the disconnect'));
    const event = await staying.next('documentCanvasReady');
    expect(JSON.parse(event.data).bytesReceived).toBeGreaterThan(0);
    await eventually(async () => (await canvasSubscribers(id)) === 1, 5000);
    await staying.close();
  });
});
