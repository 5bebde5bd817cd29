/**
 * Heavy legitimate jobs become whole documents (issue 26): 20,000 distinct tiny rasters and a
 * driver-style receipt (576 x 2,400 dots sent as 24-row GS v 0 bands) keep every picture, each
 * medium answering its PNG with the ETag of its bytes' SHA-256; a 1 MB text end-of-day report
 * is drawn to its last line, its text export equal to the text sent.
 */
import { describe, expect, it } from 'vitest';
import { call, createPrinter, elementsOf, latestDoc, newWorkspace, type Ws } from './helpers.ts';
import { tinyRasters } from '../support/bombs.ts';

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function printed(ws: Ws, bytes: Uint8Array): Promise<{ printerId: string; doc: any }> {
  // An 80 mm receipt printer: 576 dots, 48 characters of Font A.
  const printerId = (await createPrinter(ws, { settings: { widthInDots: 576 } })).printer.id;
  const res = await call(`/api/printers/${printerId}/documents/import`, { token: ws.accessToken, json: { data: base64(bytes), format: 'Base64' } });
  expect(res.status).toBe(204);
  return { printerId, doc: await latestDoc(ws, printerId) };
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Every distinct medium of the pictures answers PNG bytes whose SHA-256 is its ETag. */
async function expectEveryPictureServed(pictures: any[]): Promise<void> {
  const urls = [...new Set(pictures.map((p) => p.media.url as string))];
  for (let i = 0; i < urls.length; i += 64) {
    await Promise.all(urls.slice(i, i + 64).map(async (url) => {
      const res = await call(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const bytes = await res.arrayBuffer();
      expect([...new Uint8Array(bytes, 0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(res.headers.get('etag')).toBe(`"sha256:${await sha256Hex(bytes)}"`);
    }));
  }
}

/** An end-of-day report of at least `chars` characters: numbered item lines and subtotals. */
function endOfDayReport(chars: number): string {
  const lines: string[] = ['END OF DAY REPORT'];
  let length = lines[0].length;
  for (let n = 1; length < chars; n++) {
    const line = n % 25 === 0 ? `Subtotal ${n} ${'.'.repeat(20)} ${(n * 3.7).toFixed(2)}` : `${String(n).padStart(6)} Item ${n % 97} ${'x'.repeat(n % 7)}`.padEnd(38) + (n * 1.1).toFixed(2).padStart(9);
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

describe('heavy legitimate jobs are drawn whole', () => {
  it('20,000 distinct tiny rasters: every picture, each served as PNG with its sha256 ETag', async () => {
    const { doc } = await printed(await newWorkspace(), tinyRasters(20_000));
    expect(doc.errorMessages ?? []).toEqual([]);
    const pictures = elementsOf(doc).filter((e) => e.type === 'image');
    expect(pictures).toHaveLength(20_000);
    expect(new Set(pictures.map((p) => p.media.url)).size).toBe(20_000);
    await expectEveryPictureServed(pictures);
  }, 300_000);

  it('a driver-style receipt of 100 bands of 576 x 24 dots: every band served', async () => {
    const bands = Array.from({ length: 100 }, (_, i) => {
      const rows = Array.from({ length: 24 }, (_, y) => Array.from({ length: 72 }, (_, x) => ((x * 7 + y * 3 + i * 11) % 5 === 0 ? 0xff : (x + i) & 0x0f)));
      return [0x1d, 0x76, 0x30, 0x00, 72, 0, 24, 0, ...rows.flat()];
    });
    const { doc } = await printed(await newWorkspace(), Uint8Array.from([0x1b, 0x40, ...bands.flat(), 0x1d, 0x56, 0x41, 0x03]));
    expect(doc.errorMessages ?? []).toEqual([]);
    const pictures = elementsOf(doc).filter((e) => e.type === 'image');
    expect(pictures).toHaveLength(100);
    expect(pictures.reduce((h, p) => h + p.height, 0)).toBe(2400);
    await expectEveryPictureServed(pictures);
  }, 120_000);

  it('a 1 MB text report: every line drawn, its text export equal to the text sent', async () => {
    const source = endOfDayReport(1024 * 1024);
    const ws = await newWorkspace();
    const { printerId, doc } = await printed(ws, new TextEncoder().encode(`${source}\n`));
    expect(doc.errorMessages ?? []).toEqual([]);
    expect(source.length).toBeGreaterThanOrEqual(1024 * 1024);
    const res = await call(`/api/printers/${printerId}/documents/${doc.id}?format=text`, { token: ws.accessToken });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(source);
  }, 120_000);

  it('a 1.4 MB report ruled with box-drawing lines, whose JSON is more than one call between objects carries, is read by every way in', async () => {
    // A character outside Latin-1 makes the document's JSON a string of two-byte characters:
    // ~42 MB as a call between objects carries it, over their 32 MiB cap.
    const source = endOfDayReport(1.4 * 1024 * 1024).replaceAll('.', '\u2500');
    // Code page 437, the printer's default: ─ is 0xC4.
    const bytes = Uint8Array.from(`${source}\n`, (ch) => (ch === '\u2500' ? 0xc4 : ch.charCodeAt(0)));
    const ws = await newWorkspace();
    const printerId = (await createPrinter(ws, { settings: { widthInDots: 576 } })).printer.id;
    const base = `/api/printers/${printerId}/documents`;
    const importBytes = async (job: Uint8Array) => {
      const res = await call(`${base}/import`, { token: ws.accessToken, json: { data: base64(job), format: 'Base64' } });
      expect(res.status).toBe(204);
    };
    await importBytes(new TextEncoder().encode('BEFORE\n'));
    const before = await latestDoc(ws, printerId);
    await importBytes(bytes);
    const page = await call(`${base}/canvas?Limit=2`, { token: ws.accessToken });
    expect(page.status).toBe(200);
    // The report fills its page alone; the receipt before it is on the next.
    const listed = ((await page.json()) as any).result;
    expect(listed.items).toHaveLength(1);
    expect(listed.hasMore).toBe(true);
    const doc = listed.items[0];
    expect(doc.id).not.toBe(before.id);
    const rest = ((await (await call(`${base}/canvas?Limit=2&BeforeId=${listed.nextBeforeId}`, { token: ws.accessToken })).json()) as any).result;
    expect(rest.items.map((d: any) => d.id)).toEqual([before.id]);
    expect(doc.errorMessages ?? []).toEqual([]);
    expect(JSON.stringify(doc).length * 2).toBeGreaterThan(32 * 1024 * 1024);
    const byId = await call(`${base}/${doc.id}`, { token: ws.accessToken });
    expect(byId.status).toBe(200);
    expect(await byId.json()).toEqual(doc);
    const next = await call(`${base}/next?after=${before.id}&timeoutSeconds=0`, { token: ws.accessToken });
    expect(next.status).toBe(200);
    expect(((await next.json()) as any).id).toBe(doc.id);
    const text = await call(`${base}/${doc.id}?format=text`, { token: ws.accessToken });
    expect(text.status).toBe(200);
    expect(await text.text()).toBe(source);
  }, 300_000);
});
