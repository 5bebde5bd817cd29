/**
 * A job at the maximum size stores and lists like a small one: 16 MiB of receipt text is
 * rendered up to the element budget, summarised after it, stored (body and raw bytes in R2)
 * and listed next to a tiny document.
 */
import { describe, expect, it } from 'vitest';
import { call, createPrinter, expectStatus, listDocs, newWorkspace } from './helpers.ts';

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
    expect(huge.errorMessages.join(' ')).toMatch(/more than 20000 elements/);
  }, 120_000);
});
