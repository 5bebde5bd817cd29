/**
 * Documents: the import rules (contract "Import rules" exactly), the document list with
 * cursor paging, clearing, and the RenderedDocumentDto shape of imported documents.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assertRenderedDocument, call, createPrinter, elementsOf, env, escposTextHex, expectDateTime, expectJson, expectProblem, expectStatus,
  getPrinter, importDoc, latestDoc, listDocs, newWorkspace, printerBody, toBase64, toHex, uuid, type Ws,
} from './helpers.ts';

let ws: Ws;
beforeAll(async () => {
  ws = await newWorkspace();
});

const importRes = (printerId: string, json: unknown) => call(`/api/printers/${printerId}/documents/import`, { token: ws.accessToken, json });

/** ESC @ "Hi" LF */
const HI = [0x1b, 0x40, 0x48, 0x69, 0x0a];

describe('import rules', () => {
  it('rule 1: hex with spaces (and other whitespace) is read as hex', async () => {
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, '1B 40 48 69 0A');
    const doc = await latestDoc(ws, p.printer.id);
    expect(doc.bytesReceived).toBe(5);
    await importDoc(ws, p.printer.id, '1b 40\n48\t69\r\n  0a  ');
    expect((await latestDoc(ws, p.printer.id)).bytesReceived).toBe(5);
  });

  it('rule 3: run-together hex that is not valid base64 is read as hex', async () => {
    const p = await createPrinter(ws);
    // 10 characters: not a multiple of 4, so not base64
    await importDoc(ws, p.printer.id, toHex(HI));
    const doc = await latestDoc(ws, p.printer.id);
    expect(doc.bytesReceived).toBe(5);
    expect(elementsOf(doc).filter((e) => e.type === 'debug').map((e) => e.commandRaw).join('')).toBe(toHex(HI));
  });

  it('rule 3: base64 that is not valid hex is read as base64 (whitespace ignored)', async () => {
    const p = await createPrinter(ws);
    const b64 = toBase64(HI); // "G0BIaQo="
    expect(b64).toBe('G0BIaQo=');
    await importDoc(ws, p.printer.id, b64);
    expect((await latestDoc(ws, p.printer.id)).bytesReceived).toBe(5);
    await importDoc(ws, p.printer.id, ' G0BI\naQo= ');
    expect((await latestDoc(ws, p.printer.id)).bytesReceived).toBe(5);
  });

  it('rule 2: a given format decides (Hex, Base64)', async () => {
    const p = await createPrinter(ws);
    await importDoc(ws, p.printer.id, '1B40', 'Hex');
    const asHex = await latestDoc(ws, p.printer.id);
    expect(asHex.bytesReceived).toBe(2);
    await importDoc(ws, p.printer.id, '1B40', 'Base64');
    const asB64 = await latestDoc(ws, p.printer.id);
    expect(asB64.bytesReceived).toBe(3); // atob("1B40") is 3 bytes
    expect(asB64.id).not.toBe(asHex.id);
    await importDoc(ws, p.printer.id, toBase64(HI), 'Base64');
    expect((await latestDoc(ws, p.printer.id)).bytesReceived).toBe(5);
    // the format name in any casing of the property
    const res = await importRes(p.printer.id, { Data: '1B 40', Format: 'Hex' });
    await expectStatus(res, 204);
  });

  it('rule 3: a run-together payload valid as both forms is refused with 400 and the reason', async () => {
    const p = await createPrinter(ws);
    for (const data of ['1B40', '1B401D56', 'ABCD', '0000']) {
      const problem = await expectProblem(await importRes(p.printer.id, { data }), 400, { errors: true });
      expect(problem.detail.toLowerCase()).toMatch(/hex|base64|format/);
    }
    const list = await listDocs(ws, p.printer.id);
    expect(list.result.items ?? []).toHaveLength(0);
  });

  it('undecodable payloads are 400 with the reason', async () => {
    const p = await createPrinter(ws);
    const cases: { data: string; format?: string }[] = [
      { data: 'this is not print data!' },
      { data: '1B 4' },
      { data: 'G0BIaQo' }, // bad base64 padding/length, not hex
      { data: '' },
      { data: '   ' },
      { data: 'GG', format: 'Hex' },
      { data: '1B4', format: 'Hex' },
      { data: '!!!!', format: 'Base64' },
      { data: 'G0BIaQo=', format: 'Hex' },
    ];
    for (const c of cases) {
      const problem = await expectProblem(await importRes(p.printer.id, c), 400, { errors: true });
      expect(problem.detail.length).toBeGreaterThan(5);
    }
    expect((await listDocs(ws, p.printer.id)).result.items ?? []).toHaveLength(0);
  });

  it('rule 4: the imported document is on the list as if printed over TCP', async () => {
    const p = await createPrinter(ws);
    const payload = escposTextHex('Hello, Slipstream');
    const before = Date.now();
    await importDoc(ws, p.printer.id, payload);
    const doc = await latestDoc(ws, p.printer.id);
    assertRenderedDocument(doc, p.printer.id, 'EscPos');
    expect(doc.clientAddress).toBe('import');
    expect(doc.bytesSent).toBe(0);
    expect(doc.bytesReceived).toBe(payload.split(' ').length);
    expect(Date.parse(doc.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(doc.canvases[0].widthInDots).toBe(384);
    const texts = elementsOf(doc).filter((e) => e.type === 'text').map((e) => e.text).join('');
    expect(texts).toContain('Hello, Slipstream');
    expect(doc).not.toHaveProperty('errorMessages');
    // the printer now has lastDocumentReceivedAt
    const printer = await getPrinter(ws, p.printer.id);
    expectDateTime(printer.printer.lastDocumentReceivedAt);
  });

  it('rule 4: EPL printers render imported EPL', async () => {
    const p = await createPrinter(ws, { settings: { protocol: 'Epl', widthInDots: 812, heightInDots: 400 } });
    const epl = 'N\nA50,50,0,3,1,1,N,"LABEL"\nP1\n';
    const bytes = new TextEncoder().encode(epl);
    await importDoc(ws, p.printer.id, toBase64(bytes), 'Base64');
    const doc = await latestDoc(ws, p.printer.id);
    assertRenderedDocument(doc, p.printer.id, 'Epl');
    expect(doc.clientAddress).toBe('import');
    expect(doc.bytesReceived).toBe(bytes.length);
    expect(elementsOf(doc).some((e) => e.type === 'text' && e.text.includes('LABEL'))).toBe(true);
  });

  it('an imported document while flags are set carries an error message naming them', async () => {
    const p = await createPrinter(ws);
    await expectJson(await call(`/api/printers/${p.printer.id}/operational-flags`, { method: 'PATCH', token: ws.accessToken, json: { isPaperOut: true, isCoverOpen: true } }), 200);
    await importDoc(ws, p.printer.id, escposTextHex('while broken'));
    const doc = await latestDoc(ws, p.printer.id);
    expect(Array.isArray(doc.errorMessages)).toBe(true);
    const all = doc.errorMessages.join(' ').toLowerCase();
    expect(all).toMatch(/paper/);
    expect(all).toMatch(/cover/);
  });

  it('unknown bytes never truncate: every byte is accounted for in debug elements', async () => {
    const p = await createPrinter(ws);
    const bytes = [0x1b, 0x40, 0x41, 0x1b, 0xff, 0x42, 0x00, 0x10, 0x04, 0x01, 0x43, 0x0a, 0x1d, 0x56, 0x00];
    await importDoc(ws, p.printer.id, toHex(bytes, ' '));
    const doc = await latestDoc(ws, p.printer.id);
    assertRenderedDocument(doc, p.printer.id);
    expect(doc.bytesReceived).toBe(bytes.length);
    expect(doc.bytesSent).toBe(0); // status queries are not answered for imports
  });

  it('404 for an unknown printer', async () => {
    await expectProblem(await importRes(uuid(), { data: '1B 40' }), 404);
  });

  it('a large document (body kept in R2, not inline) lists and replays intact', async () => {
    const p = await createPrinter(ws);
    // Varied lines (so the body does not compress away), under the element budget.
    const lines = Array.from({ length: 6000 }, (_, i) => `Line ${String(i).padStart(5, '0')} ${((i * 2654435761) >>> 0).toString(36)} ${((i * 40503 + 17) ** 2).toString(36)}`).join('\n');
    const bytes = [0x1b, 0x40, ...new TextEncoder().encode(lines), 0x0a];
    await importDoc(ws, p.printer.id, toBase64(bytes), 'Base64');
    const doc = await latestDoc(ws, p.printer.id);
    assertRenderedDocument(doc, p.printer.id);
    expect(doc.bytesReceived).toBe(bytes.length);
    expect(JSON.stringify(doc).length).toBeGreaterThan(96 * 1024);
    const texts = elementsOf(doc).filter((e) => e.type === 'text').map((e) => e.text).join('\n');
    expect(texts).toContain('Line 00000');
    expect(texts).toContain('Line 05999');
    // Stored compressed in R2, not inline in the printer's storage.
    const stored = await env.MEDIA.get(`documents/${doc.id}.json.gz`);
    expect(stored, 'the body is in R2').not.toBeNull();
    expect((await stored!.arrayBuffer()).byteLength).toBeLessThan(JSON.stringify(doc).length / 4);
  });

  it('concurrent imports to one printer each become one document', async () => {
    const p = await createPrinter(ws);
    await Promise.all(Array.from({ length: 12 }, (_, i) => importDoc(ws, p.printer.id, toHex([0x1b, 0x40, ...Array(i + 1).fill(0x41), 0x0a], ' '))));
    const items = (await listDocs(ws, p.printer.id, '?Limit=100')).result.items;
    expect(items).toHaveLength(12);
    expect(items.map((d: any) => d.bytesReceived).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 4));
    expect(new Set(items.map((d: any) => d.id)).size).toBe(12);
    expect(new Set(items.map((d: any) => d.printJobId)).size).toBe(12);
  });

  it('an import after PUT renders with the new protocol and width', async () => {
    const p = await createPrinter(ws, { settings: { protocol: 'EscPos', widthInDots: 384 } });
    await importDoc(ws, p.printer.id, escposTextHex('before'));
    expect((await latestDoc(ws, p.printer.id)).canvases[0].widthInDots).toBe(384);
    await expectJson(await call(`/api/printers/${p.printer.id}`, {
      method: 'PUT', token: ws.accessToken, json: printerBody(p.printer.id, 'now a label printer', { protocol: 'Epl', widthInDots: 608, heightInDots: 400 }),
    }), 200);
    await importDoc(ws, p.printer.id, toBase64(new TextEncoder().encode('N\nA10,10,0,2,1,1,N,"AFTER"\nP1\n')), 'Base64');
    const doc = await latestDoc(ws, p.printer.id);
    expect(doc.protocol).toBe('Epl');
    expect(doc.canvases[0].widthInDots).toBe(608);
    expect(elementsOf(doc).some((e) => e.type === 'text' && e.text.includes('AFTER'))).toBe(true);
  });
});

describe('GET /api/printers/{id}/documents/canvas', () => {
  let printerId: string;
  const ids: string[] = []; // oldest first

  beforeAll(async () => {
    printerId = (await createPrinter(ws)).printer.id;
    // 25 documents; document i has i+3 bytes so the order is recognisable (at least one
    // printed character each: ESC @ alone would be a status poll, left out of the list)
    for (let i = 0; i < 25; i++) {
      await importDoc(ws, printerId, toHex([0x1b, 0x40, ...Array(i + 1).fill(0x41)], ' '));
    }
    const all = [] as any[];
    let before = '';
    for (;;) {
      const page = await listDocs(ws, printerId, `?Limit=100${before}`);
      all.push(...page.result.items);
      if (!page.result.hasMore) break;
      before = `&BeforeId=${page.result.nextBeforeId}`;
    }
    ids.push(...all.reverse().map((d) => d.id));
  });

  it('lists newest first with the default page size of 20', async () => {
    const body = await listDocs(ws, printerId);
    expect(Object.keys(body)).toEqual(['result']);
    const r = body.result;
    expect(r.items).toHaveLength(20);
    expect(r.items.map((d: any) => d.bytesReceived)).toEqual(Array.from({ length: 20 }, (_, i) => 27 - i));
    expect(r.hasMore).toBe(true);
    expect(r.nextBeforeId).toBe(r.items[19].id);
    expectDateTime(r.nextBeforeCreatedAt);
    expect(r.nextBeforeCreatedAt).toBe(r.items[19].timestamp);
    for (const d of r.items) assertRenderedDocument(d, printerId);
    const stamps = r.items.map((d: any) => d.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it('pages with Limit and BeforeId until hasMore is false', async () => {
    const seen: string[] = [];
    let query = '?Limit=7';
    let pages = 0;
    for (;;) {
      const { result } = await listDocs(ws, printerId, query);
      pages++;
      seen.push(...result.items.map((d: any) => d.id));
      if (!result.hasMore) {
        expect(result).not.toHaveProperty('nextBeforeId');
        expect(result).not.toHaveProperty('nextBeforeCreatedAt');
        break;
      }
      expect(result.items).toHaveLength(7);
      expect(result.nextBeforeId).toBe(result.items.at(-1).id);
      query = `?Limit=7&BeforeId=${result.nextBeforeId}`;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual([...ids].reverse());
  });

  it('an exact last page reports hasMore false', async () => {
    const { result } = await listDocs(ws, printerId, `?Limit=5&BeforeId=${ids[5]}`);
    expect(result.items.map((d: any) => d.id)).toEqual(ids.slice(0, 5).reverse());
    expect(result.hasMore).toBe(false);
  });

  it('Limit bounds: 1 and 100 are fine; 0, 101, -1 and non-numbers are 400', async () => {
    expect((await listDocs(ws, printerId, '?Limit=1')).result.items).toHaveLength(1);
    expect((await listDocs(ws, printerId, '?Limit=100')).result.items).toHaveLength(25);
    for (const q of ['0', '101', '-1', 'ten', '2.5']) {
      await expectProblem(await call(`/api/printers/${printerId}/documents/canvas?Limit=${q}`, { token: ws.accessToken }), 400, { errors: true });
    }
  });

  it('query parameter names match case-insensitively', async () => {
    expect((await listDocs(ws, printerId, '?limit=3')).result.items).toHaveLength(3);
    const { result } = await listDocs(ws, printerId, `?LIMIT=2&beforeid=${ids[2]}`);
    expect(result.items.map((d: any) => d.id)).toEqual([ids[1], ids[0]]);
  });

  it('an unknown BeforeId is 400; a malformed one too; one of another printer too', async () => {
    await expectProblem(await call(`/api/printers/${printerId}/documents/canvas?BeforeId=${uuid()}`, { token: ws.accessToken }), 400, { errors: true });
    await expectProblem(await call(`/api/printers/${printerId}/documents/canvas?BeforeId=nope`, { token: ws.accessToken }), 400, { errors: true });
    const other = await createPrinter(ws);
    await expectProblem(await call(`/api/printers/${other.printer.id}/documents/canvas?BeforeId=${ids[3]}`, { token: ws.accessToken }), 400, { errors: true });
  });

  it('an empty printer lists no items and hasMore false', async () => {
    const p = await createPrinter(ws);
    const { result } = await listDocs(ws, p.printer.id);
    expect(result.items ?? []).toEqual([]);
    expect(result.hasMore).toBe(false);
    expect(result).not.toHaveProperty('nextBeforeId');
  });
});

describe('DELETE /api/printers/{id}/documents', () => {
  it('clears all documents of that printer only', async () => {
    const a = await createPrinter(ws);
    const b = await createPrinter(ws);
    await importDoc(ws, a.printer.id, escposTextHex('a1'));
    await importDoc(ws, a.printer.id, escposTextHex('a2'));
    await importDoc(ws, b.printer.id, escposTextHex('b1'));
    await expectStatus(await call(`/api/printers/${a.printer.id}/documents`, { method: 'DELETE', token: ws.accessToken }), 204);
    const listA = await listDocs(ws, a.printer.id);
    expect(listA.result.items ?? []).toEqual([]);
    expect(listA.result.hasMore).toBe(false);
    expect((await listDocs(ws, b.printer.id)).result.items).toHaveLength(1);
    // clearing an empty printer is fine too
    await expectStatus(await call(`/api/printers/${a.printer.id}/documents`, { method: 'DELETE', token: ws.accessToken }), 204);
    // and new documents arrive normally afterwards
    await importDoc(ws, a.printer.id, escposTextHex('a3'));
    expect((await listDocs(ws, a.printer.id)).result.items).toHaveLength(1);
  });
});
