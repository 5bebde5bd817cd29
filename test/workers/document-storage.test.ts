/**
 * Documents in their printer's Durable Object (docs/contract/extensions.md "Storage and size", "Status
 * polls"): status polls left out and counted, statistics from the batched counters agreeing
 * with a count of the documents, retention by the printer's own alarm, the one-time import of
 * documents D1 held before migration 0003, lean elements (commandRaw capped, raster bytes only
 * in the PNG), no document body in D1, and the body at rest as the stream sent it when
 * someone was subscribed.
 */
import { describe, expect, it } from 'vitest';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import {
  call, createPrinter, docIds, elementsOf, env, escposRasterHex, escposTextHex, eventually, expectJson, importDoc, latestDoc, listDocs, newWorkspace,
  toHex, uuid,
} from './helpers.ts';
import { readSse } from '../support/sse.ts';
import { gunzip } from '../../src/worker/services/gzip.ts';
import { compactBodyJsonWith, isCompactBody } from '../../src/worker/services/compact-body.ts';

const stub = (printerId: string) => env.PRINTER.get(env.PRINTER.idFromName(printerId));
const summary = async (ws: { accessToken: string }) => expectJson(await call('/api/workspaces/summary', { token: ws.accessToken }), 200);

describe('status polls', () => {
  it('are stored, listed with isStatusPoll: true, left out with IncludeStatusPolls=false, and counted', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    await importDoc(ws, id, '10 04 01 10 04 02'); // DLE EOT 1, DLE EOT 2: status queries only
    await importDoc(ws, id, escposTextHex('a receipt'));
    await importDoc(ws, id, '1B 40 1D 61 FF'); // ESC @, GS a: settings only
    const all = (await listDocs(ws, id)).result;
    expect(all.items.map((d: any) => [d.bytesReceived, d.isStatusPoll])).toEqual([[5, true], [12, false], [6, true]]);
    expect(all.statusPollCount).toBe(2);
    const plain = (await listDocs(ws, id, '?IncludeStatusPolls=false')).result;
    expect(plain.items.map((d: any) => d.bytesReceived)).toEqual([12]);
    expect(plain.statusPollCount).toBe(2);
    expect((await listDocs(ws, id, '?IncludeStatusPolls=true')).result.items).toHaveLength(3);
    // A text search never finds a status poll; a single document carries the flag too.
    expect((await listDocs(ws, id, '?Contains=receipt')).result.items.map((d: any) => d.bytesReceived)).toEqual([12]);
    const poll = await expectJson(await call(`/api/printers/${id}/documents/${all.items[0].id}`, { token: ws.accessToken }));
    expect(poll.isStatusPoll).toBe(true);
    // a cut or a drawer pulse prints something: not a status poll
    await importDoc(ws, id, '1D 56 00');
    await importDoc(ws, id, '1B 70 00 19 FA');
    expect((await listDocs(ws, id, '?IncludeStatusPolls=false')).result.items).toHaveLength(3);
    // counted as documents in the statistics like any other
    expect((await summary(ws)).totalDocuments).toBe(5);
  });

  it('the canvas stream delivers them by default and leaves them out with IncludeStatusPolls=false', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const plain = readSse(await call(`/api/printers/${id}/documents/canvas/stream?IncludeStatusPolls=false`, { token: ws.accessToken }));
    const withPolls = readSse(await call(`/api/printers/${id}/documents/canvas/stream`, { token: ws.accessToken }));
    await eventually(async () => plain.comments.includes('connected') && withPolls.comments.includes('connected'), 5000);
    try {
      await importDoc(ws, id, '10 04 01');
      await importDoc(ws, id, escposTextHex('printed'));
      const first = JSON.parse((await withPolls.next('documentCanvasReady', 5000)).data);
      expect(first).toMatchObject({ bytesReceived: 3, isStatusPoll: true });
      expect(JSON.parse((await withPolls.next('documentCanvasReady', 5000)).data).bytesReceived).toBe(10);
      expect(JSON.parse((await plain.next('documentCanvasReady', 5000)).data).bytesReceived).toBe(10);
    } finally {
      await plain.close();
      await withPolls.close();
    }
  });
});

describe('statistics from the batched counters', () => {
  it('agree with a count of the documents through prints, deletions and retention', async () => {
    const ws = await newWorkspace();
    const a = (await createPrinter(ws)).printer.id;
    const b = (await createPrinter(ws)).printer.id;
    for (let i = 0; i < 4; i++) await importDoc(ws, a, escposTextHex(`a${i}`));
    for (let i = 0; i < 3; i++) await importDoc(ws, b, escposTextHex(`b${i}`));
    const count = async () => (await docIds(ws, a)).length + (await docIds(ws, b)).length;
    expect(await count()).toBe(7);
    expect((await summary(ws)).totalDocuments).toBe(7);
    expect((await summary(ws)).documentsLast24h).toBe(7);
    expect((await call(`/api/printers/${b}/documents`, { method: 'DELETE', token: ws.accessToken })).status).toBe(204);
    expect(await count()).toBe(4);
    expect((await summary(ws)).totalDocuments).toBe(4);
    await expectJson(await call('/api/workspaces/retention/cleanup', { token: ws.accessToken, json: { maxDocuments: 2, retentionDaysOverride: 0 } }), 200);
    expect(await count()).toBe(2);
    expect((await summary(ws)).totalDocuments).toBe(2);
  });
});

describe('retention by the printer\u2019s alarm', () => {
  it('the alarm flushes the counters and deletes documents past the workspace retention', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    await importDoc(ws, id, escposTextHex('old'));
    await importDoc(ws, id, escposRasterHex(3));
    await importDoc(ws, id, escposTextHex('new'));
    const [newest, image, old] = await docIds(ws, id);
    const mediaUrl = elementsOf(await listDocs(ws, id, '?Limit=2').then((r) => r.result.items[1])).find((e: any) => e.type === 'image').media.url;
    const at = new Date(Date.now() - 31 * 86400_000).toISOString();
    await stub(id).backdateDocuments(id, [old, image], at);
    expect((await summary(ws)).documentsLast24h).toBe(1);
    expect(await runDurableObjectAlarm(stub(id))).toBe(true);
    expect(await docIds(ws, id)).toEqual([newest]);
    expect((await call(mediaUrl)).status).toBe(404);
    expect((await summary(ws)).totalDocuments).toBe(1);
  });
});

describe('documents D1 held before migration 0003', () => {
  it('are imported into the printer\u2019s object when it starts, then deleted from D1', async () => {
    const ws = await newWorkspace();
    const id = uuid();
    // The printer row exists, but its object has never served documents.
    await createPrinter(ws, { id });
    const legacy = [0, 1, 2].map((i) => ({
      id: uuid(), job: uuid(), at: new Date(Date.now() - (3 - i) * 60_000).toISOString(),
      body: (docId: string, at: string) => JSON.stringify({
        id: docId, printJobId: uuid(), printerId: id, timestamp: at, protocol: 'EscPos', bytesReceived: 3, bytesSent: 0, clientAddress: 'legacy',
        canvases: [{ widthInDots: 576, items: [{ type: 'debug', debugType: 'text', parameters: {}, commandRaw: '414243', commandDescription: ['Text', 'ABC'], lengthInBytes: 3 },
          { type: 'text', text: `legacy ${i}`, x: 0, y: 0, width: 36, height: 24, fontName: 'FontA', charSpacing: 0, isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: 'none', commandRaw: '414243', commandDescription: ['Text', 'ABC'], lengthInBytes: 3 }] }],
      }),
    }));
    for (const d of legacy) {
      await env.DB.prepare(`INSERT INTO documents (id, print_job_id, printer_id, workspace_id, created_at, protocol, client_address, bytes_received, bytes_sent, body, raw, engine_version)
        VALUES (?, ?, ?, ?, ?, 'EscPos', 'legacy', 3, 0, ?, ?, '1')`).bind(d.id, d.job, id, ws.id, d.at, d.body(d.id, d.at), new Uint8Array([0x41, 0x42, 0x43])).run();
    }
    // as migration 0003 counts them
    await env.DB.prepare(`INSERT INTO document_counters (printer_id, workspace_id, hour, documents, last_at)
      SELECT printer_id, workspace_id, substr(created_at, 1, 13), COUNT(*), MAX(created_at) FROM documents WHERE printer_id = ? GROUP BY substr(created_at, 1, 13)
      ON CONFLICT (printer_id, hour) DO UPDATE SET documents = documents + excluded.documents`).bind(id).run();
    const items = (await listDocs(ws, id)).result.items;
    expect(items.map((d: any) => d.id)).toEqual(legacy.map((d) => d.id).reverse());
    expect(items[0].canvases[0].items[1].text).toBe('legacy 2');
    const left = await env.DB.prepare('SELECT COUNT(*) AS n FROM documents WHERE printer_id = ?').bind(id).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await summary(ws)).totalDocuments).toBe(3);
    // new documents follow the imported ones
    await importDoc(ws, id, escposTextHex('after'));
    expect((await docIds(ws, id))).toHaveLength(4);
    expect((await summary(ws)).totalDocuments).toBe(4);
  });
});

describe('lean documents', () => {
  it('commandRaw holds at most 64 bytes (flagged when cut), lengthInBytes stays exact, raster bytes are only in the PNG', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    // a 576-dot wide, 24-row raster: 1,728 bytes of image data
    const rows = 24, wb = 72;
    const raster = Array.from({ length: wb * rows }, (_, i) => (i * 131) & 0xff);
    const long = 'x'.repeat(100);
    await importDoc(ws, id, toHex([0x1b, 0x40, 0x1d, 0x76, 0x30, 0x00, wb, 0x00, rows, 0x00, ...raster, ...new TextEncoder().encode(long), 0x0a]));
    const doc = await latestDoc(ws, id);
    const els = elementsOf(doc);
    const rasterCmd = els.find((e: any) => e.type === 'debug' && e.lengthInBytes === 8 + raster.length);
    expect(rasterCmd.commandRaw).toHaveLength(128);
    expect(rasterCmd.commandRawTruncated).toBe(true);
    const textCmd = els.find((e: any) => e.type === 'debug' && e.lengthInBytes === 100);
    expect(textCmd.commandRawTruncated).toBe(true);
    expect(els.filter((e: any) => e.type === 'debug').reduce((n: number, e: any) => n + e.lengthInBytes, 0)).toBe(doc.bytesReceived);
    const image = els.find((e: any) => e.type === 'image');
    expect(image.commandRaw).toBe('');
    expect(image.commandDescription).toEqual([]);
    const text = els.find((e: any) => e.type === 'text');
    expect(text.commandRaw).toBe('');
    // no run of the raster's bytes (as hex) anywhere in the document past the 64 capped bytes
    const hex = toHex(raster.slice(64, 128)).toUpperCase();
    expect(JSON.stringify(doc).toUpperCase()).not.toContain(hex);
    // empty parameters are left out
    expect(els.filter((e: any) => e.type === 'debug').every((e: any) => e.parameters === undefined || Object.keys(e.parameters).length > 0)).toBe(true);
  });

  it('the body is stored compressed in the printer\u2019s object and D1 holds none of it', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const marker = `marker-${uuid().slice(0, 8)}`;
    await importDoc(ws, id, escposTextHex(`${marker} `.repeat(20)));
    const doc = await latestDoc(ws, id);
    const stored = await runInDurableObject(stub(id), async (_o, state) =>
      state.storage.sql.exec('SELECT length(body) AS n, body FROM documents WHERE id = ?', doc.id).one());
    expect(stored.n as number).toBeLessThan(JSON.stringify(doc).length / 4);
    expect(new TextDecoder().decode(new Uint8Array(stored.body as ArrayBuffer))).not.toContain(marker);
    const { results: tables } = await env.DB.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`).all<{ name: string }>();
    for (const { name } of tables) {
      const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      expect(JSON.stringify(results), name).not.toContain(marker);
    }
  });
});

describe('document size (the storage bench\u2019s 3.5 KB text receipt)', () => {
  /**
   * docs/contract/extensions.md asks <= 10x as JSON; the contract's element set cannot get there for this
   * receipt (docs/decisions.md "Documents": ~500 debug elements of >= 93 bytes of keys alone,
   * plus ~190 text elements of >= 230 bytes). This pins what the lean document reaches, so it
   * cannot grow back unnoticed, and the at-rest figure, which meets its goal (<= 1.5x).
   */
  it('is at most 31x its raw bytes as JSON and at most 1.5x at rest', async () => {
    const { textReceipt } = await import('../../bench/escpos.bench.ts');
    const receipt = textReceipt();
    const ws = await newWorkspace();
    // 80 mm, as the bench's printers
    const id = (await createPrinter(ws, { settings: { widthInDots: 576 } })).printer.id;
    await importDoc(ws, id, toHex([...receipt]));
    const doc = await latestDoc(ws, id);
    expect(doc.bytesReceived).toBe(receipt.length);
    const json = JSON.stringify(doc).length;
    expect(json / receipt.length).toBeLessThanOrEqual(31);
    const atRest = await runInDurableObject(stub(id), async (_o, state) =>
      state.storage.sql.exec('SELECT length(body) AS n FROM documents WHERE id = ?', doc.id).one().n as number);
    expect(atRest).toBeGreaterThan(0);
    expect(atRest / receipt.length).toBeLessThanOrEqual(1.5);
  });

  it('with a canvas stream subscriber, the body at rest is still the compact body (at most 1.5x), read back as the JSON the subscriber was sent', async () => {
    const { textReceipt } = await import('../../bench/escpos.bench.ts');
    const receipt = textReceipt();
    const ws = await newWorkspace();
    const id = (await createPrinter(ws, { settings: { widthInDots: 576 } })).printer.id;
    const stream = readSse(await call(`/api/printers/${id}/documents/canvas/stream`, { token: ws.accessToken }));
    await eventually(async () => stream.comments.includes('connected'), 5000);
    try {
      await importDoc(ws, id, toHex([...receipt]));
      const sent = (await stream.next('documentCanvasReady', 5000)).data;
      const { id: docId } = JSON.parse(sent);
      const body = await runInDurableObject(stub(id), async (_o, state) =>
        new Uint8Array(state.storage.sql.exec('SELECT body FROM documents WHERE id = ?', docId).one().body as ArrayBuffer));
      expect(isCompactBody(gunzip(body))).toBe(true);
      expect(compactBodyJsonWith(gunzip(body), receipt)).toBe(sent);
      expect(body.length / receipt.length).toBeLessThanOrEqual(1.5);
      expect(JSON.stringify(await latestDoc(ws, id))).toBe(sent);
    } finally {
      await stream.close();
    }
  });
});
