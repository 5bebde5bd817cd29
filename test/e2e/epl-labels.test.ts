/**
 * Realistic EPL2 labels (test/engines/epl/fixtures.ts) printed over real TCP to an `Epl`
 * printer through the bridge and the Worker: one canvas per printed label copy, sized by q/Q,
 * with the text, bar codes and graphics in place.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { fixtures, PRODUCT_EAN13, SERIALIZED_COUNT, SHIPPING_LABEL_TRACKING } from '../engines/epl/fixtures.ts';

let api: Api;
let printer: { id: string; port: number };

beforeAll(async () => {
  ({ api } = await createWorkspaceAndLogin('epl labels'));
  const p = await createPrinter(api, { protocol: 'Epl', widthInDots: 812, heightInDots: 1218 });
  printer = { id: p.printer.id, port: p.settings.tcpListenPort };
});

const texts = (canvas: any): string[] => canvas.items.filter((e: any) => e.type === 'text').map((e: any) => e.text);
const images = (canvas: any): any[] => canvas.items.filter((e: any) => e.type === 'image');

async function print(bytes: Uint8Array) {
  const before = (await api('GET', `/api/printers/${printer.id}/documents/canvas?Limit=100`)).body.result.items?.length ?? 0;
  await printAndClose(printer.port, Buffer.from(bytes));
  const docs = await waitForDocuments(api, printer.id, before + 1);
  const doc = docs[0];
  expect(doc.protocol).toBe('Epl');
  expect(doc.bytesReceived).toBe(bytes.length);
  const debugBytes = doc.canvases.flatMap((c: any) => c.items).filter((e: any) => e.type === 'debug').reduce((a: number, e: any) => a + e.lengthInBytes, 0);
  expect(debugBytes).toBe(bytes.length);
  return doc;
}

describe('EPL labels over TCP', () => {
  it('a 4x6 shipping label: one label with its text fields, a Code 128 and a MaxiCode', async () => {
    const doc = await print(fixtures.shippingLabel);
    expect(doc.canvases).toHaveLength(1);
    const [label] = doc.canvases;
    expect(label.widthInDots).toBe(812);
    expect(texts(label).length).toBeGreaterThanOrEqual(20);
    expect(texts(label).join(' ').replace(/ /g, '')).toContain(`TRACKING#:${SHIPPING_LABEL_TRACKING}`);
    expect(images(label).length).toBeGreaterThanOrEqual(2);
    for (const img of images(label)) {
      const media = await fetch(baseUrl() + img.media.url);
      expect(media.status).toBe(200);
    }
  });

  it('a product label printed twice (P1,2): two 406 x 203 canvases with the EAN-13 and its digits', async () => {
    const doc = await print(fixtures.productLabel);
    expect(doc.canvases).toHaveLength(2);
    for (const label of doc.canvases) {
      expect(label.widthInDots).toBe(406);
      expect(label.heightInDots).toBe(203);
      expect(texts(label).join('')).toContain('ORGANIC GREEN TEA');
      expect(texts(label).join('').replace(/\s/g, '')).toContain(PRODUCT_EAN13);
      expect(images(label)).toHaveLength(1);
    }
  });

  it('serialized labels from a stored form: the counter advances between labels', async () => {
    const doc = await print(fixtures.serializedForm);
    expect(doc.canvases).toHaveLength(SERIALIZED_COUNT);
    const serials = doc.canvases.map((c: any) => texts(c).find((t: string) => t.startsWith('S/N')));
    expect(serials).toEqual(['S/N 000100', 'S/N 000101', 'S/N 000102', 'S/N 000103', 'S/N 000104']);
  });

  it('a GW logo whose raster holds CR and LF bytes prints as a 64 x 64 image beside the text', async () => {
    const doc = await print(fixtures.logoLabel);
    const [label] = doc.canvases;
    const logo = images(label).find((i: any) => i.width === 64 && i.height === 64);
    expect(logo).toBeTruthy();
    expect(texts(label)).toContain('SLIPSTREAM');
    expect(doc.errorMessages ?? []).toEqual([]);
  });
});
