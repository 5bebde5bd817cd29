/**
 * A large job (thousands of elements, a multi-megabyte body) stores and lists like a small
 * one: its rendered body goes to R2 instead of the D1 row, and the list returns it whole.
 */
import { describe, expect, it } from 'vitest';
import { createPrinter, env, importDoc, listDocs, newWorkspace } from './helpers.ts';

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

describe('large documents', () => {
  it('a job with thousands of lines is stored in R2 and listed whole, next to a tiny one', async () => {
    const ws = await newWorkspace();
    const printer = await createPrinter(ws);
    const id = printer.printer.id;
    const lines = Array.from({ length: 4000 }, (_, i) => `Line ${String(i).padStart(5, '0')}: 1 x Widget ........ 9.99\n`).join('');
    const big = new TextEncoder().encode(`\x1b@${lines}\x1dV\x00`);
    await importDoc(ws, id, base64(big), 'Base64');
    await importDoc(ws, id, base64(new TextEncoder().encode('tiny\n')), 'Base64');

    const page = await listDocs(ws, id, '?Limit=2');
    const [tiny, large] = page.result.items;
    expect(tiny.bytesReceived).toBe(5);
    expect(large.bytesReceived).toBe(big.length);
    const items = large.canvases.flatMap((c: { items: unknown[] }) => c.items) as { type: string; text?: string; lengthInBytes: number }[];
    const texts = items.filter((e) => e.type === 'text').map((e) => e.text!);
    expect(texts.length).toBeGreaterThanOrEqual(4000);
    expect(texts.join('')).toContain('Line 03999');
    expect(items.filter((e) => e.type === 'debug').reduce((a, e) => a + e.lengthInBytes, 0)).toBe(big.length);

    const row = await env.DB.prepare('SELECT body, body_key FROM documents WHERE id = ?').bind(large.id).first<{ body: string | null; body_key: string | null }>();
    expect(row!.body).toBeNull();
    expect(row!.body_key).toMatch(/^documents\//);
    const stored = await env.MEDIA.get(row!.body_key!);
    expect(JSON.parse(await stored!.text()).id).toBe(large.id);
  });
});
