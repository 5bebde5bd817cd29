/**
 * A job at the maximum size stores and lists like a small one: 16 MiB of receipt text is
 * rendered up to the element budget, summarised after it, stored (body and raw bytes in R2)
 * and listed next to a tiny document.
 */
import { describe, expect, it } from 'vitest';
import { call, createPrinter, expectStatus, listDocs, newWorkspace } from './helpers.ts';
import { DEFAULT_MAX_ELEMENTS } from '../../src/engines/core/budget.ts';

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

describe('maximum-size jobs', () => {
  it('a 16 MiB text job is stored, listed and summarised past the element budget', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const line = new TextEncoder().encode('Line 000000: 1 x Widget ........ 9.99\n');
    const size = 16 * 1024 * 1024;
    const job = new Uint8Array(size);
    for (let o = 0; o < size; o += line.length) job.set(line.subarray(0, Math.min(line.length, size - o)), o);
    await expectStatus(await call(`/api/printers/${id}/documents/import`, { token: ws.accessToken, json: { data: base64(job), format: 'Base64' } }), 204);
    await expectStatus(await call(`/api/printers/${id}/documents/import`, { token: ws.accessToken, json: { data: '74 69 6E 79 0A' } }), 204);

    const [tiny, huge] = (await listDocs(ws, id)).result.items;
    expect(tiny.bytesReceived).toBe(5);
    expect(huge.bytesReceived).toBe(size);
    const items = huge.canvases.flatMap((c: { items: { type: string; debugType?: string; lengthInBytes: number }[] }) => c.items);
    expect(items.filter((e: any) => e.type === 'debug').reduce((a: number, e: any) => a + e.lengthInBytes, 0)).toBe(size);
    expect(items.some((e: any) => e.debugType === 'elided')).toBe(true);
    expect(huge.errorMessages.join(' ')).toMatch(new RegExp(`more than ${DEFAULT_MAX_ELEMENTS} elements`));
  }, 120_000);

  it('a list page of such documents stops past 8 MiB of JSON, and the cursor reaches the rest', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const line = new TextEncoder().encode('0123456789 the quick brown fox jumps over the lazy dog 0123456789\n');
    const size = 16 * 1024 * 1024;
    const job = new Uint8Array(size);
    for (let o = 0; o < size; o += line.length) job.set(line.subarray(0, Math.min(line.length, size - o)), o);
    const data = base64(job);
    for (let i = 0; i < 3; i++) await expectStatus(await call(`/api/printers/${id}/documents/import`, { token: ws.accessToken, json: { data, format: 'Base64' } }), 204);

    const seen: string[] = [];
    let before = '';
    for (let page = 0; page < 5; page++) {
      const res = await call(`/api/printers/${id}/documents/canvas?Limit=100${before}`, { token: ws.accessToken });
      expect(res.status).toBe(200);
      const body = ((await res.json()) as { result: { items: { id: string }[]; hasMore: boolean } }).result;
      // One 5-6 MB document fits; a second passes the bound, a third would not be added.
      expect(body.items.length).toBeLessThan(3);
      seen.push(...body.items.map((d) => d.id));
      if (!body.hasMore) break;
      before = `&BeforeId=${body.items.at(-1)!.id}`;
    }
    expect(new Set(seen).size).toBe(3);
  }, 180_000);
});

