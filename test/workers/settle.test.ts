/**
 * Readers settle the printers' batched D1 writes first (docs/decisions.md "Consistency: readers
 * settle the writers first"): printing over a bridge session writes nothing to D1 (the counter
 * outbox waits for its 30 s flush), yet the printer, the sidebar, the summary and the workspace
 * read right after the document show it; the first of them writes the batch, the rest find
 * nothing left to flush.
 */
import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { call, createPrinter, env, expectJson, listDocs, newWorkspace, uuid } from './helpers.ts';

/** One job through a bridge session (the printing path: counters batched, not written through). */
async function print(printerId: string, text: string): Promise<string> {
  const res = await (exports as any).default.fetch(new Request(`http://localhost/internal/bridge/printers/${printerId}/session?sessionId=${uuid()}&clientAddress=10.0.0.9`, {
    headers: { upgrade: 'websocket', authorization: `Bearer ${TEST_BRIDGE_SECRET}` },
  }));
  const ws = res.webSocket as WebSocket;
  ws.accept();
  const finalised = new Promise<string>((resolve) => ws.addEventListener('message', (ev) => {
    if (typeof ev.data === 'string' && JSON.parse(ev.data).type === 'finalised') resolve(JSON.parse(ev.data).documentId);
  }));
  ws.send(new TextEncoder().encode(`\x1b@${text}\n`));
  ws.send(JSON.stringify({ type: 'end', reason: 'closed', bytesSent: 0 }));
  const id = await finalised;
  ws.close();
  return id;
}

const counted = async (printerId: string) =>
  (await env.DB.prepare('SELECT COALESCE(SUM(documents), 0) AS n FROM document_counters WHERE printer_id = ?').bind(printerId).first<{ n: number }>())!.n;

describe('reads after a printed document', () => {
  it('show it at once, while the printing path itself wrote nothing to D1', async () => {
    const ws = await newWorkspace();
    const a = (await createPrinter(ws)).printer.id;
    const b = (await createPrinter(ws)).printer.id;
    await print(a, 'first');
    await print(b, 'second');
    const newest = (await listDocs(ws, b)).result.items[0];
    // Batched: nothing in D1 yet.
    expect(await counted(a)).toBe(0);
    expect(await counted(b)).toBe(0);

    const printer = await expectJson(await call(`/api/printers/${b}`, { token: ws.accessToken }));
    expect(printer.printer.lastDocumentReceivedAt).toBe(newest.timestamp);
    expect(await counted(a) + await counted(b)).toBe(2);
    const summary = await expectJson(await call('/api/workspaces/summary', { token: ws.accessToken }));
    expect(summary).toMatchObject({ totalDocuments: 2, lastDocumentAt: newest.timestamp });
    const sidebar = await expectJson<any[]>(await call('/api/printers/sidebar', { token: ws.accessToken }));
    expect(sidebar.every((s) => s.printer.lastDocumentReceivedAt !== null)).toBe(true);

    // Settled once: a second read writes nothing more (the counters stay exact).
    await print(a, 'third');
    expect(await counted(a)).toBe(1);
    expect((await expectJson(await call('/api/workspaces/summary', { token: ws.accessToken }))).totalDocuments).toBe(3);
    expect((await expectJson(await call('/api/workspaces/summary', { token: ws.accessToken }))).totalDocuments).toBe(3);
    expect(await counted(a)).toBe(2);
  });

  it('the list read stamps lastApiReadAt before it answers', async () => {
    const ws = await newWorkspace();
    const a = (await createPrinter(ws)).printer.id;
    await print(a, 'read me');
    const before = new Date().toISOString();
    await listDocs(ws, a);
    const row = await env.DB.prepare('SELECT last_api_read_at AS t FROM printers WHERE id = ?').bind(a).first<{ t: string | null }>();
    expect(row!.t! >= before).toBe(true);
  });
});
