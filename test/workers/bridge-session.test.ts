/**
 * The bridge's print-session WebSocket (docs/internal-protocol.md section 2) inside workerd:
 * a session named in the URL, a warm spare started by its first message, replies written
 * back, `finalised` with the document id, the socket reused after `finalised`, the document
 * announced before its write and listed right after its event, and the secret required.
 */
import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { TEST_BRIDGE_SECRET } from './constants.ts';
import { readSse } from '../support/sse.ts';
import { makePng } from './png.ts';
import { call, createPrinter, elementsOf, env, eventually, expectJson, listDocs, newWorkspace, uuid } from './helpers.ts';

async function openSession(printerId: string, query = '', secret = TEST_BRIDGE_SECRET) {
  const res = await (exports as any).default.fetch(
    new Request(`http://localhost/internal/bridge/printers/${printerId}/session${query}`, {
      headers: { upgrade: 'websocket', authorization: `Bearer ${secret}` },
    }),
  );
  return res as Response & { webSocket: WebSocket | null };
}

/** Runs one job over an accepted socket; resolves with the reply bytes and the finalised message. */
function runJob(ws: WebSocket, first: string | null, bytes: Uint8Array) {
  (ws as unknown as { binaryType: string }).binaryType = 'arraybuffer';
  ws.accept();
  const replies: number[] = [];
  const done = new Promise<{ documentId: string | null }>((resolve) => {
    ws.addEventListener('message', (ev) => {
      if (typeof ev.data === 'string') {
        const msg = JSON.parse(ev.data);
        if (msg.type === 'finalised') resolve(msg);
      } else {
        replies.push(...new Uint8Array(ev.data as ArrayBuffer));
      }
    });
  });
  if (first) ws.send(first);
  ws.send(bytes);
  ws.send(JSON.stringify({ type: 'end', reason: 'closed', bytesSent: 1 }));
  return done.then((f) => ({ ...f, replies }));
}

/** An accepted session socket; its `finalised` messages are kept in order. */
function acceptSession(ws: WebSocket) {
  (ws as unknown as { binaryType: string }).binaryType = 'arraybuffer';
  ws.accept();
  const finalised: { documentId: string | null }[] = [];
  ws.addEventListener('message', (ev) => {
    if (typeof ev.data === 'string' && JSON.parse(ev.data).type === 'finalised') finalised.push(JSON.parse(ev.data));
  });
  return {
    finalised,
    print(sessionId: string, bytes: Uint8Array) {
      ws.send(JSON.stringify({ type: 'start', sessionId, clientAddress: '10.0.0.7' }));
      ws.send(bytes);
      ws.send(JSON.stringify({ type: 'end', reason: 'closed', bytesSent: 0 }));
    },
    nthFinalised: (n: number) => eventually(async () => finalised[n], 5000),
  };
}

const job = new Uint8Array([...new TextEncoder().encode('Spare session\n'), 0x10, 0x04, 0x01]);

describe('bridge print sessions', () => {
  it('a session named in the URL prints, answers DLE EOT at once and reports the document', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const sessionId = uuid();
    const res = await openSession(id, `?sessionId=${sessionId}&clientAddress=10.1.2.3`);
    expect(res.status).toBe(101);
    const result = await runJob(res.webSocket!, null, job);
    expect(result.replies).toEqual([0x16]); // DLE EOT 1: fixed bits 1 and 4, drawer closed (bit 2)
    const [doc] = (await listDocs(ws, id)).result.items;
    expect(doc).toMatchObject({ id: result.documentId, printJobId: sessionId, clientAddress: '10.1.2.3', bytesReceived: job.length, bytesSent: 1 });
  });

  it('a warm spare starts with its first message and then prints the same way', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const res = await openSession(id);
    expect(res.status).toBe(101);
    const sessionId = uuid();
    const result = await runJob(res.webSocket!, JSON.stringify({ type: 'start', sessionId, clientAddress: '192.168.1.50' }), job);
    const [doc] = (await listDocs(ws, id)).result.items;
    expect(doc).toMatchObject({ id: result.documentId, printJobId: sessionId, clientAddress: '192.168.1.50', bytesReceived: job.length });
  });

  it('a spare whose first message is not start is closed and prints nothing', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const socket = (await openSession(id)).webSocket!;
    socket.accept();
    const closed = new Promise<number>((r) => socket.addEventListener('close', (ev) => r(ev.code)));
    socket.send(new Uint8Array([0x41, 0x0a]));
    expect(await closed).toBe(1008);
    expect((await listDocs(ws, id)).result.items).toEqual([]);
  });

  it('after finalised the socket is a spare again: the next start prints another document on it', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const socket = acceptSession((await openSession(id)).webSocket!);
    const [first, second] = [uuid(), uuid()];
    socket.print(first, new TextEncoder().encode('first job\n'));
    const f1 = await socket.nthFinalised(0);
    socket.print(second, new TextEncoder().encode('second job\n'));
    const f2 = await socket.nthFinalised(1);
    expect(f2.documentId).not.toBe(f1.documentId);
    const items = (await listDocs(ws, id)).result.items;
    expect(items.map((d: any) => [d.id, d.printJobId])).toEqual([[f2.documentId, second], [f1.documentId, first]]);
  });

  it('announces a document before its database write, and a list right after the event has it', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const res = await call(`/api/printers/${id}/documents/canvas/stream`, { token: ws.accessToken });
    const canvas = readSse(res);
    await eventually(async () => canvas.comments.includes('connected'), 5000);
    try {
      const socket = acceptSession((await openSession(id)).webSocket!);
      const sessionId = uuid();
      socket.print(sessionId, job);
      const event = await canvas.next('documentCanvasReady', 5000);
      // Stored in the printer's own storage before it is announced: listed at once.
      const [listed] = (await listDocs(ws, id)).result.items;
      expect(listed).toMatchObject({ id: event.id, printJobId: sessionId, bytesReceived: job.length });
      expect((await socket.nthFinalised(0)).documentId).toBe(event.id);
    } finally {
      await canvas.close();
    }
  });

  it('a printer deleted while its job finishes does not come back on the sidebar', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const sidebar = readSse(await call('/api/printers/sidebar/stream', { token: ws.accessToken }));
    await eventually(async () => sidebar.comments.includes('connected'), 5000);
    try {
      const socket = acceptSession((await openSession(id)).webSocket!);
      socket.print(uuid(), job);
      expect((await call(`/api/printers/${id}`, { method: 'DELETE', token: ws.accessToken })).status).toBe(204);
      // The document's own sidebar update may come first (documents are stored at once); the
      // deletion is announced, and nothing after it.
      let gone = JSON.parse((await sidebar.next('sidebar', 5000)).data);
      if (!gone.deleted) gone = JSON.parse((await sidebar.next('sidebar', 5000)).data);
      expect(gone).toMatchObject({ printer: { id }, deleted: true });
      const { documentId } = await socket.nthFinalised(0);
      await expect(sidebar.next('sidebar', 300)).rejects.toThrow(/timed out/);
      // Its document is kept with the printer's other documents (in its Durable Object), as for
      // any deleted printer, until retention; nothing of it is written to D1.
      expect(documentId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await sidebar.close();
    }
  });

  it('an NV image uploaded while a spare is open prints on that spare', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const socket = acceptSession((await openSession(id)).webSocket!);
    const form = new FormData();
    form.append('file', new Blob([makePng(32, 24) as BlobPart], { type: 'image/png' }), 'logo.png');
    await expectJson(await call(`/api/printers/${id}/nv-images/1`, { method: 'PUT', token: ws.accessToken, body: form }), 200);
    socket.print(uuid(), new Uint8Array([0x1b, 0x40, 0x1c, 0x70, 0x01, 0x00, 0x0a])); // ESC @, FS p 1 0
    const { documentId } = await socket.nthFinalised(0);
    const [doc] = (await listDocs(ws, id)).result.items;
    expect(doc.id).toBe(documentId);
    expect(doc.errorMessages ?? []).toEqual([]);
    expect(elementsOf(doc).find((e) => e.type === 'image')).toMatchObject({ width: 32, height: 24 });
  });

  it('needs the bridge secret, and answers 404 for an unknown printer', async () => {
    const ws = await newWorkspace();
    const id = (await createPrinter(ws)).printer.id;
    const wrong = await openSession(id, '', 'not-the-secret');
    expect(wrong.status).toBe(401);
    expect(wrong.webSocket).toBeNull();
    expect((await openSession(uuid())).status).toBe(404);
  });
});

describe('images printed over a session (issue 19: media off the printing path)', () => {
  it('are served from the moment the document is listed, as one medium per workspace, with index rows written by the next flush', async () => {
    const { runDurableObjectAlarm } = await import('cloudflare:test');
    const { escposLargeRasterHex } = await import('./helpers.ts');
    const ws = await newWorkspace();
    const printerId = (await createPrinter(ws)).printer.id;
    // A large raster no other test prints: its medium is new to this run.
    const job = Uint8Array.from(escposLargeRasterHex(4242).split(' ').map((h) => parseInt(h, 16)));
    const res = await openSession(printerId, `?sessionId=${uuid()}&clientAddress=10.0.0.9`);
    const first = await runJob(res.webSocket!, null, job);
    const res2 = await openSession(printerId, `?sessionId=${uuid()}&clientAddress=10.0.0.9`);
    const second = await runJob(res2.webSocket!, null, job);
    const docs = (await listDocs(ws, printerId)).result.items as any[];
    const urls = docs.map((d) => elementsOf(d).find((e: any) => e.type === 'image').media.url);
    expect(urls).toHaveLength(2);
    expect(urls[0]).toBe(urls[1]); // the same image is one medium
    const media = await call(urls[0]);
    expect(media.status).toBe(200);
    expect(media.headers.get('etag')).toMatch(/^"sha256:[0-9a-f]{64}"$/);
    expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // Nothing in D1 yet for either document: the rows wait in the printer's outbox.
    const rows = () => env.DB.prepare('SELECT document_id FROM media WHERE document_id IN (?, ?)').bind(first.documentId, second.documentId).all();
    expect((await rows()).results).toHaveLength(0);
    // One R2 object under the medium's key.
    const key = `media/k/${urls[0].split('/').pop()}.png`;
    expect((await env.MEDIA.list({ prefix: key })).objects.map((o) => o.key)).toEqual([key]);
    // The alarm's flush writes both rows.
    const printed = () => env.DB.prepare('SELECT last_document_received_at AS t, (SELECT SUM(documents) FROM document_counters WHERE printer_id = ?1) AS n FROM printers WHERE id = ?1')
      .bind(printerId).first<{ t: string | null; n: number | null }>();
    expect(await printed()).toEqual({ t: null, n: null });
    expect(await runDurableObjectAlarm(env.PRINTER.get(env.PRINTER.idFromName(printerId)))).toBe(true);
    expect((await rows()).results).toHaveLength(2);
    // The same flush counts both documents and stamps the printer with the newest one's time.
    expect(await printed()).toEqual({ t: docs[0].timestamp, n: 2 });
  });
});
