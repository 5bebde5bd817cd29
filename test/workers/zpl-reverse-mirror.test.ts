/**
 * A reversed (^FR) and mirrored (^PM) ZPL label through the Worker: the stored document keeps
 * the elements' draw modes and mirror flag (their images become media), and its PNG and PDF
 * (`?format=png|pdf`, images fetched back from media) hold the dots the engine's own
 * canvases render to.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createZplSession } from '../../src/engines/zpl/index.ts';
import { decodePngToBitmap } from '../../src/engines/raster/png.ts';
import { renderPng } from '../../src/engines/render/index.ts';
import { labelPrinterContext } from '../support/printer-context.ts';
import { call, createPrinter, importDoc, latestDoc, newWorkspace, toHex, type Ws } from './helpers.ts';

let ws: Ws;
beforeAll(async () => {
  ws = await newWorkspace();
});

const STRIPES = Array.from({ length: 20 }, (_, r) => (r % 2 ? 'F0'.repeat(20) : '00FF'.repeat(10))).join('');
const ZPL = [
  '^XA^PW600^LL400^PMY^FO40,40^GB300,200,200^FS',
  `^FO20,100^FR^GFA,400,400,20,${STRIPES}^FS`,
  '^FO100,180^FR^BY2^BCN,60,N,N^FDSLIP^FS',
  '^FO60,60^FR^ADN^FDREVERSED^FS^XZ',
].join('');

describe('a reversed, mirrored ZPL label through the Worker', () => {
  it('keeps drawMode and isMirrored in the document; its PNG and PDF show the XOR-ed, mirrored dots', async () => {
    const bytes = new TextEncoder().encode(ZPL);
    const p = await createPrinter(ws, { settings: { protocol: 'Zpl', widthInDots: 600, heightInDots: 400 } });
    await importDoc(ws, p.printer.id, toHex(bytes, ' '));
    const doc = await latestDoc(ws, p.printer.id);
    expect(doc.errorMessages ?? []).toEqual([]);
    const items = doc.canvases[0].items.filter((e: { type: string }) => e.type !== 'debug');
    expect(items.map((e: { type: string; drawMode?: string }) => `${e.type}:${e.drawMode ?? 'black'}`)).toEqual(['box:black', 'image:xor', 'image:xor', 'text:xor']);
    const text = items.find((e: { type: string }) => e.type === 'text');
    expect([text.isMirrored, text.x + text.width]).toEqual([true, 600 - 60]);

    // The engine's own canvases, rendered here, are what the server's PNG must show.
    const session = createZplSession(() => labelPrinterContext({ widthInDots: 600, heightInDots: 400 }));
    session.push(bytes);
    const want = decodePngToBitmap((await renderPng(session.finish().canvases)).png);
    const res = await call(`/api/printers/${p.printer.id}/documents/${doc.id}?format=png`, { token: ws.accessToken });
    expect(res.headers.get('content-type')).toBe('image/png');
    const got = decodePngToBitmap(new Uint8Array(await res.arrayBuffer()));
    expect([got.width, got.height]).toEqual([600, 400]);
    expect(Array.from(got.pixels)).toEqual(Array.from(want.pixels));
    // Mirrored: the box's right edge is at 600 - 40; the graphic's dots XOR it (white inside).
    expect([got.get(559, 100), got.get(560, 100)]).toEqual([true, false]);
    let whiteInBox = 0;
    for (let x = 260; x < 560; x++) if (!got.get(x, 101)) whiteInBox++;
    expect(whiteInBox).toBeGreaterThan(20);

    const pdf = await call(`/api/printers/${p.printer.id}/documents/${doc.id}?format=pdf`, { token: ws.accessToken });
    expect((await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()))).getPageCount()).toBe(1);
  });
});
