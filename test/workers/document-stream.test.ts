/**
 * The compact body written while the engine renders (services/document-stream.ts, the engine
 * giving its elements as they become final) is byte for byte the body `buildDocument` makes of
 * the finished job, its printed text the same, and it reads back as the job's DTO JSON: text
 * receipts one and 30 to a job, pictures, stacked ESC * strips, one long canvas, Star. Through
 * the printer object, a long job (written while it prints) lists as the DTO built from the job.
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../src/engines/index.ts';
import { buildDocument, type MediaRef } from '../../src/worker/services/document-builder.ts';
import { compactBodyJson } from '../../src/worker/services/compact-body.ts';
import { StreamedDocument } from '../../src/worker/services/document-stream.ts';
import { textReceipt, imageReceipt } from '../../bench/escpos.bench.ts';
import { concatBytes, testPrinterContext } from '../support/printer-context.ts';
import { call, createPrinter, latestDoc, newWorkspace } from './helpers.ts';

const ascii = (s: string) => new TextEncoder().encode(s);
const repeat = (bytes: Uint8Array, n: number) => concatBytes(...Array.from({ length: n }, () => bytes));
const strip = (i: number) => [0x1b, 0x2a, 33, 64, 0, ...Array.from({ length: 64 * 3 }, (_, k) => (i * 7 + k * 13) & 0xff), 0x0a];
const JOBS: [string, 'EscPos' | 'StarPrnt', Uint8Array][] = [
  ['text receipt', 'EscPos', textReceipt()],
  ['30 text receipts', 'EscPos', repeat(textReceipt(), 30)],
  ['logo, QR and CODE128, 12 of them and text', 'EscPos', concatBytes(repeat(imageReceipt(), 12), repeat(textReceipt(), 3))],
  ['stacked ESC * strips between lines', 'EscPos', repeat(Uint8Array.from([...ascii('line\n'.repeat(37)), 0x1b, 0x33, 24, ...Array.from({ length: 30 }, (_, i) => strip(i)).flat(), 0x1b, 0x32]), 40)],
  ['3,000 lines on one canvas', 'EscPos', ascii(Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join(''))],
  ['StarPRNT text', 'StarPrnt', repeat(ascii('Star line\n'), 2500)],
];

function mediaFor(png: Uint8Array): MediaRef {
  return { contentType: 'image/png', size: png.length, url: `/api/media/${png.length}`, storageKey: `media/${png.length}.png` };
}

describe('streamed document', () => {
  for (const [name, protocol, bytes] of JOBS) {
    it(`${name}: the same body and text as built from the finished job`, async () => {
      const plain = createProtocolSession(protocol, () => testPrinterContext({ widthInDots: 576 }));
      plain.push(bytes);
      const job = plain.finish();
      const head = { id: 'd', printJobId: 'j', printerId: 'p', timestamp: '2026-01-01T00:00:00.000Z', protocol, transport: 'Tcp' as const, isStatusPoll: job.isStatusPoll };
      const tail = { clientAddress: '10.0.0.1', bytesReceived: bytes.length, bytesSent: 0 };
      const built = await buildDocument(head, job.canvases, tail, mediaFor, bytes, undefined, 'later', job.elementKinds);

      const streamed = new StreamedDocument(() => bytes, mediaFor);
      const session = createProtocolSession(protocol, () => testPrinterContext({ widthInDots: 576 }));
      session.streamTo!(streamed);
      for (let at = 0; at < bytes.length; at += 1000) session.push(bytes.subarray(at, at + 1000));
      while (session.finishStep?.()) { /* as the printer object does */ }
      const rest = session.finish();
      // A receipt never outgrows a batch: it keeps its elements, the body is built from them.
      expect(streamed.started).toBe(name !== 'text receipt');
      expect(rest.canvases.every((c) => c.items.length === 0)).toBe(streamed.started);
      if (!streamed.started) return;
      const { body, text } = streamed.finish(head, tail);
      expect(body).toEqual(built.body);
      expect(text).toBe(built.text);
      expect(await compactBodyJson(body, async () => bytes)).toBe(built.json());
    });
  }
});

describe('a long job through the printer object', () => {
  it('is listed as the document built from the finished job', async () => {
    const bytes = repeat(textReceipt(), 30);
    const ws = await newWorkspace();
    const printerId = (await createPrinter(ws, { settings: { widthInDots: 576 } })).printer.id;
    const res = await call(`/api/printers/${printerId}/documents/import`, { token: ws.accessToken, json: { data: btoa(String.fromCharCode(...bytes)), format: 'Base64' } });
    expect(res.status).toBe(204);
    const doc = await latestDoc(ws, printerId);

    const session = createProtocolSession('EscPos', () => testPrinterContext({ widthInDots: 576 }));
    session.push(bytes);
    const job = session.finish();
    const head = { id: doc.id, printJobId: doc.printJobId, printerId, timestamp: doc.timestamp, protocol: 'EscPos', transport: doc.transport, isStatusPoll: false };
    const built = await buildDocument(head, job.canvases, { clientAddress: doc.clientAddress, bytesReceived: bytes.length, bytesSent: 0 }, mediaFor, bytes);
    expect(job.canvases.reduce((n, c) => n + c.items.length, 0)).toBeGreaterThan(2 * 2_000);
    expect(doc.canvases).toEqual(JSON.parse(built.json()).canvases);
  });
});
