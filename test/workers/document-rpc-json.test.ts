/**
 * A stored document's JSON as the printer's object hands it to the Worker
 * (services/document-store.ts's documentRpcJson): a long job's compact body is read as a stream
 * of the same JSON, made while it is read; a receipt's is the string as before. Through the
 * printer object, a long job lists and reads by id as the JSON of its stored body.
 */
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/worker/env.ts';
import { createProtocolSession } from '../../src/engines/index.ts';
import { StreamedDocument } from '../../src/worker/services/document-stream.ts';
import { documentJson, documentRpcJson } from '../../src/worker/services/document-store.ts';
import { gzip } from '../../src/worker/services/gzip.ts';
import type { MediaRef } from '../../src/worker/services/document-builder.ts';
import { LARGE_WORK_BYTES } from '../../src/worker/objects/large-work-collection.ts';
import { textReceipt } from '../../bench/escpos.bench.ts';
import { testPrinterContext } from '../support/printer-context.ts';
import { call, createPrinter, newWorkspace } from './helpers.ts';

const mediaFor = (png: Uint8Array): MediaRef => ({ contentType: 'image/png', size: png.length, url: `/api/media/${png.length}`, storageKey: `media/${png.length}.png` });
const env = {} as Env;

/** The compact body of `bytes` printed (written while it renders, as a long job's is). */
function compactBody(bytes: Uint8Array): Uint8Array {
  const streamed = new StreamedDocument(() => bytes, mediaFor);
  const session = createProtocolSession('EscPos', () => testPrinterContext({ widthInDots: 576 }));
  session.streamTo!(streamed);
  for (let at = 0; at < bytes.length; at += 65536) session.push(bytes.subarray(at, at + 65536));
  while (session.finishStep?.()) { /* as the printer object does */ }
  session.finish();
  const head = { id: 'd', printJobId: 'j', printerId: 'p', timestamp: '2026-01-01T00:00:00.000Z', protocol: 'EscPos', transport: 'Tcp' as const, isStatusPoll: false };
  return streamed.finish(head, { clientAddress: '10.0.0.1', bytesReceived: bytes.length, bytesSent: 0 }).body;
}

/** Lines of distinct text, each a debug element, a text element and a line feed's. */
const report = (lines: number) => new TextEncoder().encode(Array.from({ length: lines }, (_, i) => `Line ${String(i).padStart(6, '0')}: 1 x Widget ........ ${(i % 97) + 0.99}\n`).join(''));

describe("a stored document's JSON for the Worker", () => {
  it('a compact body of 1 MiB or more: a stream of the same JSON, its length not known', async () => {
    const bytes = report(33_000);
    const body = compactBody(bytes);
    expect(body.length).toBeGreaterThanOrEqual(LARGE_WORK_BYTES);
    const loc = { body: gzip(body), bodyKey: null, isStatusPoll: false };
    const whole = await documentJson(env, loc, async () => bytes);
    const read = await documentRpcJson(env, loc, async () => bytes);
    expect(read.chars).toBeNull();
    expect(read.json).toBeInstanceOf(ReadableStream);
    expect(await new Response(read.json).text()).toBe(whole);
    expect(JSON.parse(whole).canvases[0].items.length).toBeGreaterThan(90_000);
  });

  it('a shorter one: the string', async () => {
    const bytes = report(3_000);
    const loc = { body: gzip(compactBody(bytes)), bodyKey: null, isStatusPoll: false };
    const whole = await documentJson(env, loc, async () => bytes);
    expect(await documentRpcJson(env, loc, async () => bytes)).toEqual({ json: whole, chars: whole.length });
  });

  it('through the printer object: a long job listed and read by id is its whole JSON', async () => {
    const bytes = report(33_000);
    const ws = await newWorkspace();
    const printerId = (await createPrinter(ws, { settings: { widthInDots: 576 } })).printer.id;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
    expect((await call(`/api/printers/${printerId}/documents/import`, { token: ws.accessToken, json: { data: btoa(binary), format: 'Base64' } })).status).toBe(204);
    const listed = await call(`/api/printers/${printerId}/documents/canvas?Limit=1`, { token: ws.accessToken });
    const doc = (await listed.json() as { result: { items: { id: string; canvases: { items: unknown[] }[]; bytesReceived: number }[] } }).result.items[0];
    expect(doc.bytesReceived).toBe(bytes.length);
    expect(doc.canvases[0].items.length).toBeGreaterThan(90_000);
    const byId = await call(`/api/printers/${printerId}/documents/${doc.id}`, { token: ws.accessToken });
    expect(await byId.json()).toEqual(doc);
  });
});
