/**
 * NV images (contract "Printers" nv-images rows, decisions.md "NV images"): multipart PNG
 * upload into slots 1-255, list, delete; bad slots, non-images and oversized images are 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'fast-png';
import { makePng, makeRgbaPng } from './png.ts';
import {
  assertResponseRules, call, createPrinter, elementsOf, expectJson, expectProblem, importDoc, latestDoc, newWorkspace, toHex, uuid, type Ws,
} from './helpers.ts';

let ws: Ws;
let printerId: string;

beforeAll(async () => {
  ws = await newWorkspace();
  printerId = (await createPrinter(ws, { settings: { widthInDots: 384 } })).printer.id;
});

function form(bytes: Uint8Array, name = 'logo.png', type = 'image/png', field = 'file'): FormData {
  const f = new FormData();
  f.append(field, new Blob([bytes as BlobPart], { type }), name);
  return f;
}

const put = (slot: number | string, body: BodyInit, id = printerId) =>
  call(`/api/printers/${id}/nv-images/${slot}`, { method: 'PUT', token: ws.accessToken, body });
const list = async (id = printerId) => expectJson(await call(`/api/printers/${id}/nv-images`, { token: ws.accessToken }), 200);
const del = (slot: number | string, id = printerId) => call(`/api/printers/${id}/nv-images/${slot}`, { method: 'DELETE', token: ws.accessToken });

describe('PUT /api/printers/{id}/nv-images/{slot}', () => {
  it('stores a PNG and answers PrinterNvImageResponseDto', async () => {
    const res = await put(7, form(makePng(32, 16)));
    const body = await expectJson(res, 200);
    expect(Object.keys(body).sort()).toEqual(['heightInDots', 'mediaUrl', 'slot', 'widthInDots']);
    expect(body).toMatchObject({ slot: 7, widthInDots: 32, heightInDots: 16 });
    expect(body.mediaUrl).toMatch(/^\/api\/media\/[0-9a-f-]{36}$/);
    assertResponseRules(body);
    // the media is a 1-bit PNG of the same size
    const media = await call(body.mediaUrl);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    const png = decode(new Uint8Array(await media.arrayBuffer()));
    expect([png.width, png.height]).toEqual([32, 16]);
  });

  it('accepts RGBA PNGs with transparency and the full printer width', async () => {
    const body = await expectJson(await put(8, form(makeRgbaPng(384, 10))), 200);
    expect(body).toMatchObject({ slot: 8, widthInDots: 384, heightInDots: 10 });
  });

  it('slot 1 and 255 are the bounds; 0, 256, -1 and non-numbers are 400', async () => {
    await expectJson(await put(1, form(makePng(8, 8))), 200);
    await expectJson(await put(255, form(makePng(8, 8))), 200);
    for (const slot of [0, 256, -1, 'abc', '1.5']) {
      await expectProblem(await put(slot, form(makePng(8, 8))), 400, { errors: true });
    }
  });

  it('a file that is not an image is 400', async () => {
    await expectProblem(await put(9, form(new TextEncoder().encode('definitely not a png'), 'notes.txt', 'text/plain')), 400, { errors: true });
    await expectProblem(await put(9, form(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]))), 400, { errors: true });
    await expectProblem(await put(9, form(new Uint8Array(0))), 400, { errors: true });
  });

  it('an image wider than the printer or taller than 2048 dots is 400', async () => {
    await expectProblem(await put(10, form(makePng(385, 8))), 400, { errors: true });
    await expectProblem(await put(10, form(makePng(8, 2049))), 400, { errors: true });
  });

  it('a multipart body without a "file" part, or a non-multipart body, is 400', async () => {
    await expectProblem(await put(11, form(makePng(8, 8), 'x.png', 'image/png', 'picture')), 400, { errors: true });
    const f = new FormData();
    f.append('file', 'just a string');
    await expectProblem(await put(11, f), 400, { errors: true });
    const res = await call(`/api/printers/${printerId}/nv-images/11`, {
      method: 'PUT', token: ws.accessToken, body: makePng(8, 8) as BodyInit, headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    await res.arrayBuffer();
  });

  it('replaces an image in a used slot', async () => {
    const first = await expectJson(await put(20, form(makePng(16, 16))), 200);
    const second = await expectJson(await put(20, form(makePng(24, 8))), 200);
    expect(second).toMatchObject({ slot: 20, widthInDots: 24, heightInDots: 8 });
    const entries = (await list()).filter((e: any) => e.slot === 20);
    expect(entries).toEqual([second]);
    expect(second.mediaUrl).not.toBe(first.mediaUrl);
  });

  it('404 for an unknown printer', async () => {
    await expectProblem(await put(1, form(makePng(8, 8)), uuid()), 404);
  });
});

describe('GET /api/printers/{id}/nv-images', () => {
  it('lists the used slots in order', async () => {
    const p = (await createPrinter(ws)).printer.id;
    expect(await list(p)).toEqual([]);
    const b = await expectJson(await put(30, form(makePng(8, 8)), p), 200);
    const a = await expectJson(await put(3, form(makePng(16, 8)), p), 200);
    const entries = await list(p);
    expect(entries).toEqual([a, b]);
    assertResponseRules(entries);
  });
});

describe('DELETE /api/printers/{id}/nv-images/{slot}', () => {
  it('empties the slot (200); the slot is then gone from the list; deleting again is 404', async () => {
    const p = (await createPrinter(ws)).printer.id;
    await expectJson(await put(5, form(makePng(8, 8)), p), 200);
    await expectJson(await put(6, form(makePng(8, 8)), p), 200);
    const res = await del(5, p);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect((await list(p)).map((e: any) => e.slot)).toEqual([6]);
    await expectProblem(await del(5, p), 404);
  });

  it('slot out of range is 400', async () => {
    await expectProblem(await del(0), 400, { errors: true });
    await expectProblem(await del(256), 400, { errors: true });
  });
});

describe('NV images defined over the print protocol', () => {
  it('FS q defines NV images that appear in the list and are served as media', async () => {
    const p = (await createPrinter(ws)).printer.id;
    // FS q n=1: one image of 1 x 1 units of 8 dots (8 x 8 dots), 8 data bytes
    const define = [0x1c, 0x71, 0x01, 0x01, 0x00, 0x01, 0x00, 0xff, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xff];
    await importDoc(ws, p, toHex(define, ' '));
    const entries = await list(p);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ slot: 1, widthInDots: 8, heightInDots: 8 });
    const media = await call(entries[0].mediaUrl);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    await media.arrayBuffer();
    // and it prints with FS p
    await importDoc(ws, p, toHex([0x1c, 0x70, 0x01, 0x00, 0x0a], ' '));
    const img = elementsOf(await latestDoc(ws, p)).find((e) => e.type === 'image');
    expect(img).toBeDefined();
    expect([img.width, img.height]).toEqual([8, 8]);
  });
});

describe('printing an NV image', () => {
  it('FS p prints an uploaded NV image as an image element', async () => {
    const p = (await createPrinter(ws)).printer.id;
    await expectJson(await put(1, form(makePng(32, 24)), p), 200);
    await importDoc(ws, p, toHex([0x1b, 0x40, 0x1c, 0x70, 0x01, 0x00, 0x0a], ' '));
    const doc = await latestDoc(ws, p);
    const img = elementsOf(doc).find((e) => e.type === 'image');
    expect(img, JSON.stringify(doc).slice(0, 500)).toBeDefined();
    expect(img.width).toBe(32);
    expect(img.height).toBe(24);
    expect(doc.errorMessages ?? []).toEqual([]);
  });

  it('FS p with an empty slot yields an error message, not a failure', async () => {
    const p = (await createPrinter(ws)).printer.id;
    await importDoc(ws, p, toHex([0x1b, 0x40, 0x1c, 0x70, 0x09, 0x00, 0x0a], ' '));
    const doc = await latestDoc(ws, p);
    expect(doc.errorMessages?.length ?? 0).toBeGreaterThan(0);
    expect(doc.bytesReceived).toBe(7);
  });
});
