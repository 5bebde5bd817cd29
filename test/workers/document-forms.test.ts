/**
 * One document and its forms (docs/contract/extensions.md "Documents outside the browser"): JSON, PNG, PDF,
 * text and raw bytes by `?format=` or Accept; `documents/next` (the long poll in the printer's
 * Durable Object); `Contains=` on the list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'fast-png';
import { PDFDocument } from 'pdf-lib';
import { call, createPrinter, eventually, expectJson, expectProblem, expectStatus, importDoc, latestDoc, listDocs, newWorkspace, toHex, uuid, type Ws } from './helpers.ts';

let ws: Ws;
beforeAll(async () => {
  ws = await newWorkspace();
});

const enc = new TextEncoder();
/** ESC @, the lines, then GS V 0 (cut) after each group: one canvas per group. */
function receipt(...groups: string[][]): Uint8Array {
  const parts: number[] = [0x1b, 0x40];
  for (const lines of groups) {
    for (const l of lines) parts.push(...enc.encode(l), 0x0a);
    parts.push(0x1d, 0x56, 0x00);
  }
  return new Uint8Array(parts);
}

/** A decoded PNG pixel's grey level (0 black .. 255 white), whatever its bit depth and palette. */
function pixelGray(img: ReturnType<typeof decode>, x: number, y: number): number {
  const data = img.data as Uint8Array;
  if (img.depth === 8) return data[(y * img.width + x) * img.channels];
  const perByte = 8 / img.depth;
  const rowBytes = Math.ceil((img.width * img.channels) / perByte);
  const shift = 8 - img.depth * ((x % perByte) + 1);
  const value = (data[y * rowBytes + Math.floor(x / perByte)] >> shift) & ((1 << img.depth) - 1);
  return img.palette ? img.palette[value][0] : (value * 255) / ((1 << img.depth) - 1);
}

const docPath = (printerId: string, documentId: string, query = '') => `/api/printers/${printerId}/documents/${documentId}${query}`;

async function printed(bytes: Uint8Array, settings = {}): Promise<{ printerId: string; doc: any }> {
  const p = await createPrinter(ws, { settings });
  await importDoc(ws, p.printer.id, toHex(bytes, ' '));
  return { printerId: p.printer.id, doc: await latestDoc(ws, p.printer.id) };
}

describe('GET /api/printers/{id}/documents/{documentId}', () => {
  it('answers the RenderedDocumentDto (JSON by default), 404 for an unknown document or another workspace', async () => {
    const { printerId, doc } = await printed(receipt(['Hello']));
    const one = await expectJson(await call(docPath(printerId, doc.id), { token: ws.accessToken }));
    expect(one).toEqual(doc);
    await expectProblem(await call(docPath(printerId, uuid()), { token: ws.accessToken }), 404);
    const other = await newWorkspace();
    await expectProblem(await call(docPath(printerId, doc.id), { token: other.accessToken }), 404);
  });

  it('counts as a read, like the list (here by the web client, whose stamp was unset)', async () => {
    const { printerId, doc } = await printed(receipt(['Read me']));
    expect((await expectJson(await call(`/api/printers/${printerId}`, { token: ws.accessToken }))).printer.lastWebReadAt).toBeNull();
    await expectStatus(await call(docPath(printerId, doc.id, '?format=text'), { token: ws.accessToken, headers: { 'X-Client': 'web' } }), 200);
    const stamped = await eventually(async () => {
      const p = await expectJson(await call(`/api/printers/${printerId}`, { token: ws.accessToken }));
      return p.printer.lastWebReadAt;
    });
    expect(Date.parse(stamped)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('text: one line per printed line, canvases separated by a form feed line; Accept text/plain too', async () => {
    const { printerId, doc } = await printed(receipt(['Coffee  2.50', 'Total   2.50'], ['Second slip']));
    expect(doc.canvases.length).toBe(2);
    const res = await call(docPath(printerId, doc.id, '?format=text'), { token: ws.accessToken });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await expectStatus(res, 200)).toBe('Coffee  2.50\nTotal   2.50\n\f\nSecond slip');
    const byAccept = await call(docPath(printerId, doc.id), { token: ws.accessToken, headers: { accept: 'text/plain' } });
    expect(await expectStatus(byAccept, 200)).toBe('Coffee  2.50\nTotal   2.50\n\f\nSecond slip');
  });

  it('raw: exactly the bytes received', async () => {
    const bytes = receipt(['Raw bytes \u00e9'], ['x']);
    const { printerId, doc } = await printed(bytes);
    const res = await call(docPath(printerId, doc.id, '?format=raw'), { token: ws.accessToken });
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    const byAccept = await call(docPath(printerId, doc.id), { token: ws.accessToken, headers: { accept: 'application/octet-stream' } });
    expect(new Uint8Array(await byAccept.arrayBuffer())).toEqual(bytes);
  });

  it('png: width is widthInDots, canvases stacked with a 24-dot gap; ?canvas=N draws one; out of range is 400', async () => {
    const { printerId, doc } = await printed(receipt(['First'], ['Second']), { widthInDots: 576 });
    const all = await call(docPath(printerId, doc.id, '?format=png'), { token: ws.accessToken });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('image/png');
    const page = decode(new Uint8Array(await all.arrayBuffer()));
    expect(page.width).toBe(576);
    const heights = doc.canvases.map((c: any) => c.heightInDots);
    const one = decode(new Uint8Array(await (await call(docPath(printerId, doc.id, '?canvas=1'), { token: ws.accessToken, headers: { accept: 'image/png' } })).arrayBuffer()));
    expect(one.width).toBe(576);
    const first = decode(new Uint8Array(await (await call(docPath(printerId, doc.id, '?format=png&canvas=0'), { token: ws.accessToken })).arrayBuffer()));
    expect(page.height).toBe(first.height + 24 + one.height);
    if (heights.every((h: unknown) => typeof h === 'number')) expect(first.height).toBe(heights[0]);
    // Black pixels exist (text drawn), and the gap rows are white.
    const gray = (img: typeof page, x: number, y: number) => pixelGray(img, x, y);
    let black = 0;
    for (let y = 0; y < first.height; y++) for (let x = 0; x < first.width; x++) if (gray(page, x, y) < 128) black++;
    expect(black).toBeGreaterThan(50);
    for (let y = first.height; y < first.height + 24; y++) for (let x = 0; x < page.width; x += 7) expect(gray(page, x, y)).toBeGreaterThan(128);
    await expectProblem(await call(docPath(printerId, doc.id, '?format=png&canvas=2'), { token: ws.accessToken }), 400);
    await expectProblem(await call(docPath(printerId, doc.id, '?format=png&canvas=-1'), { token: ws.accessToken }), 400);
  });

  it("pdf: one page per canvas at the model's physical size", async () => {
    const { printerId, doc } = await printed(receipt(['Page one'], ['Page two'], ['Page three']), { widthInDots: 576 });
    const res = await call(docPath(printerId, doc.id, '?format=pdf'), { token: ws.accessToken });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.getPageCount()).toBe(3);
    const printer = await expectJson(await call(`/api/printers/${printerId}`, { token: ws.accessToken }));
    const model = (await expectJson(await call('/api/printer-models'))).find((m: any) => m.id === printer.settings.model);
    const dpi = model?.dpi ?? 203;
    // 576 dots at the model's dpi, in points (72 per inch).
    expect(pdf.getPage(0).getWidth()).toBeCloseTo((576 / dpi) * 72, 1);
  });

  it('an unknown format is a 400', async () => {
    const { printerId, doc } = await printed(receipt(['x']));
    await expectProblem(await call(docPath(printerId, doc.id, '?format=gif'), { token: ws.accessToken }), 400);
  });
});

describe('GET /api/printers/{id}/documents/next', () => {
  it('returns a document printed during the wait, ignoring status polls', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    const waiting = call(`/api/printers/${id}/documents/next?timeoutSeconds=20`, { token: ws.accessToken });
    // Give the request time to reach the object, then a status poll (ignored) and a receipt.
    await new Promise((r) => setTimeout(r, 300));
    await importDoc(ws, id, '10 04 01');
    await importDoc(ws, id, toHex(receipt(['Waited for']), ' '));
    const doc = await expectJson(await waiting);
    const latest = await latestDoc(ws, id);
    expect(doc.id).toBe(latest.id);
    const text = await expectStatus(await call(docPath(id, doc.id, '?format=text'), { token: ws.accessToken }), 200);
    expect(text).toBe('Waited for');
  });

  it('after=ID answers a document already stored after it at once; 204 on timeout; unknown after is 400', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    await importDoc(ws, id, toHex(receipt(['one']), ' '));
    const first = await latestDoc(ws, id);
    await importDoc(ws, id, '10 04 01'); // a status poll between: skipped
    await importDoc(ws, id, toHex(receipt(['two']), ' '));
    const second = await latestDoc(ws, id);
    const after = await expectJson(await call(`/api/printers/${id}/documents/next?after=${first.id}&timeoutSeconds=0`, { token: ws.accessToken }));
    expect(after.id).toBe(second.id);
    const none = await call(`/api/printers/${id}/documents/next?after=${second.id}&timeoutSeconds=1`, { token: ws.accessToken });
    expect(none.status).toBe(204);
    expect(await none.text()).toBe('');
    expect((await call(`/api/printers/${id}/documents/next?timeoutSeconds=0`, { token: ws.accessToken })).status).toBe(204);
    await expectProblem(await call(`/api/printers/${id}/documents/next?after=${uuid()}&timeoutSeconds=0`, { token: ws.accessToken }), 400);
    await expectProblem(await call(`/api/printers/${id}/documents/next?timeoutSeconds=61`, { token: ws.accessToken }), 400);
  });
});

describe('GET /api/printers/{id}/documents/canvas?Contains=', () => {
  it('keeps only documents whose printed text contains the words, case-insensitively, with paging', async () => {
    const p = await createPrinter(ws);
    const id = p.printer.id;
    for (let i = 0; i < 5; i++) await importDoc(ws, id, toHex(receipt([`Order ${i}`, i % 2 === 0 ? 'Latte grande' : 'Espresso']), ' '));
    const page1 = (await listDocs(ws, id, '?Contains=LATTE&Limit=2')).result;
    expect(page1.items.length).toBe(2);
    expect(page1.hasMore).toBe(true);
    const page2 = (await listDocs(ws, id, `?contains=latte&Limit=2&BeforeId=${page1.nextBeforeId}`)).result;
    expect(page2.items.length).toBe(1);
    expect(page2.hasMore).toBe(false);
    for (const d of [...page1.items, ...page2.items]) {
      expect(await expectStatus(await call(docPath(id, d.id, '?format=text'), { token: ws.accessToken }), 200)).toContain('Latte grande');
    }
    const all = [...page1.items, ...page2.items].map((d: any) => d.id);
    expect(new Set(all).size).toBe(3);
    expect((await listDocs(ws, id, '?Contains=nothing-like-this')).result.items ?? []).toEqual([]);
    expect((await listDocs(ws, id, '?Contains=order')).result.items.length).toBe(5);
  });
});
