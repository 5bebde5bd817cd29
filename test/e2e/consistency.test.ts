/**
 * The contract at every instant (issue 23, extensions.md "Consistency and readiness"): once a
 * document printed over real TCP can be read (on the canvas stream or in the list), every
 * endpoint that stamps or counts already shows it, read at once, without waiting: the printer
 * (one, the list, the sidebar), the workspace's read stamps, its summary, admin statistics and
 * the connection log. The same while 50 printers print once a second. Status polls are listed
 * and streamed by default, flagged `isStatusPoll`.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiFor, createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { subscribe } from '../bridge-unit/support/e2e.ts';
import { connect, printAndClose, readBytes } from '../bridge-unit/support/tcp.ts';

const baseUrl = inject('baseUrl');
const receipt = (text: string) => Buffer.from(`\x1b@${text}\nThank you\n\x1dV\x00`, 'latin1');

let admin: Api;
beforeAll(async () => {
  // The admin workspace (created once per service; later files find it there).
  const id = inject('adminWorkspaceId');
  const created = await fetch(`${baseUrl}/api/workspaces`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-secret': inject('adminSecret') },
    body: JSON.stringify({ id, workspaceName: 'e2e admin' }),
  });
  expect(created.status).toBe(200);
  const { token } = (await created.json()) as { token: string };
  const login = (await (await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })).json()) as { accessToken: string };
  admin = apiFor(login.accessToken);
});

async function newPrinter(api: Api, displayName: string) {
  const p = await createPrinter(api, { displayName });
  expect(p.runtimeStatus?.state).toBe('Started');
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

const get = async (api: Api, path: string) => {
  const r = await api('GET', path);
  expect(r.status, `GET ${path}`).toBe(200);
  return r.body;
};

describe('stamps, counts and logs as soon as a document is readable', () => {
  it('one printer over TCP: every endpoint shows the document the moment it is streamed, and the moment it is listed', async () => {
    const ws = await createWorkspaceAndLogin('consistency one');
    const { id, port } = await newPrinter(ws.api, 'Till');
    const stream = subscribe(baseUrl, `/api/printers/${id}/documents/canvas/stream`, ws.accessToken);
    await stream.connected;

    /** Everything that stamps or counts, read right away; `n` documents so far, the newest at `at`. */
    const expectShown = async (n: number, at: string) => {
      const one = await get(ws.api, `/api/printers/${id}`);
      expect(one.printer.lastDocumentReceivedAt).toBe(at);
      // The stream delivered the document to this workspace's API reader: read stamps say so.
      expect(one.printer.lastApiReadAt >= at).toBe(true);
      expect((await get(ws.api, '/api/printers'))[0].printer.lastDocumentReceivedAt).toBe(at);
      expect((await get(ws.api, '/api/printers/sidebar'))[0].printer.lastDocumentReceivedAt).toBe(at);
      expect((await get(ws.api, '/api/workspaces')).lastApiReadAt >= at).toBe(true);
      expect(await get(ws.api, '/api/workspaces/summary')).toMatchObject({ totalDocuments: n, documentsLast24h: n, lastDocumentAt: at });
      const row = (await get(admin, '/api/workspaces/admin-statistics')).workspaces.find((w: any) => w.workspaceId === ws.workspaceId);
      expect(row).toMatchObject({ documentCount: n, documentsLast24h: n, lastDocumentAt: at });
      const connections = await get(ws.api, '/api/workspaces/connections');
      expect(connections.filter((c: any) => c.allowed && c.clientIp === '127.0.0.1')).toHaveLength(n);
    };

    // Readable on the stream.
    await printAndClose(port, receipt('FIRST'));
    const first = (await stream.waitFor((e) => e.event === 'documentCanvasReady')).data;
    await expectShown(1, first.timestamp);

    // Readable in the list (no stream needed: polled as a client would).
    stream.close();
    await printAndClose(port, receipt('SECOND'));
    let listed: any[] = [];
    for (const giveUpAt = Date.now() + 15_000; listed.length < 2 && Date.now() < giveUpAt;) listed = (await get(ws.api, `/api/printers/${id}/documents/canvas`)).result.items ?? [];
    expect(listed).toHaveLength(2);
    await expectShown(2, listed[0].timestamp);
  });

  it('50 printers printing once a second: every read after the list agrees with it', async () => {
    const ws = await createWorkspaceAndLogin('consistency fifty');
    const printers: { id: string; port: number }[] = [];
    for (let i = 0; i < 50; i++) printers.push(await newPrinter(ws.api, `Till ${String(i).padStart(2, '0')}`));
    const ROUNDS = 6;
    let printing = true;
    const printed = Promise.all(printers.map(async (p, i) => {
      for (let round = 0; round < ROUNDS; round++) {
        const started = Date.now();
        await printAndClose(p.port, receipt(`P${i} R${round}`));
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
      }
    })).finally(() => { printing = false; });

    let checksWhilePrinting = 0;
    const check = async () => {
      // What the lists hold now ...
      const lists = await Promise.all(printers.map(async (p) => (await get(ws.api, `/api/printers/${p.id}/documents/canvas?Limit=100`)).result.items ?? []));
      const total = lists.reduce((n, items) => n + items.length, 0);
      const newest = new Map(printers.map((p, i) => [p.id, lists[i][0]?.timestamp as string | undefined]));
      // ... every read that follows shows at least that much.
      const summary = await get(ws.api, '/api/workspaces/summary');
      expect(summary.totalDocuments).toBeGreaterThanOrEqual(total);
      for (const s of await get(ws.api, '/api/printers/sidebar')) {
        const at = newest.get(s.printer.id);
        if (at) expect(s.printer.lastDocumentReceivedAt >= at, `sidebar of ${s.printer.displayName}`).toBe(true);
      }
      const sample = printers[checksWhilePrinting % printers.length];
      const at = newest.get(sample.id);
      if (at) expect((await get(ws.api, `/api/printers/${sample.id}`)).printer.lastDocumentReceivedAt >= at).toBe(true);
      const connections = await get(ws.api, '/api/workspaces/connections');
      expect(connections.length).toBeGreaterThanOrEqual(total);
      return total;
    };
    while (printing) {
      await check();
      checksWhilePrinting++;
    }
    await printed;
    // Every job is in the end listed, and counted exactly once.
    let total = 0;
    for (const giveUpAt = Date.now() + 30_000; total < 50 * ROUNDS && Date.now() < giveUpAt;) total = await check();
    expect(total).toBe(50 * ROUNDS);
    expect((await get(ws.api, '/api/workspaces/summary')).totalDocuments).toBe(50 * ROUNDS);
    // Reads ran while the printers printed (each round of reads takes ~1 s or more on a loaded machine).
    expect(checksWhilePrinting).toBeGreaterThan(0);
  }, 180_000);
});

describe('status polls', () => {
  it('a DLE EOT poll over TCP is listed with isStatusPoll: true, hidden by IncludeStatusPolls=false, and streamed by default', async () => {
    const ws = await createWorkspaceAndLogin('status polls');
    const { id, port } = await newPrinter(ws.api, 'Polled');
    const stream = subscribe(baseUrl, `/api/printers/${id}/documents/canvas/stream`, ws.accessToken);
    await stream.connected;
    try {
      const s = await connect(port);
      s.write(Buffer.from([0x10, 0x04, 0x01]));
      expect((await readBytes(s, 1))[0] & 0x93).toBe(0x12); // the printer status byte's fixed bits
      s.end();
      const streamed = (await stream.waitFor((e) => e.event === 'documentCanvasReady')).data;
      expect(streamed).toMatchObject({ bytesReceived: 3, isStatusPoll: true });
      const all = (await get(ws.api, `/api/printers/${id}/documents/canvas`)).result;
      expect(all.items.map((d: any) => [d.id, d.isStatusPoll])).toEqual([[streamed.id, true]]);
      expect(all.statusPollCount).toBe(1);
      const plain = (await get(ws.api, `/api/printers/${id}/documents/canvas?IncludeStatusPolls=false`)).result;
      expect(plain.items ?? []).toEqual([]);
      expect(plain.statusPollCount).toBe(1);
      // documents/next never counts a status poll.
      const next = await ws.api('GET', `/api/printers/${id}/documents/next?timeoutSeconds=0`);
      expect(next.status).toBe(204);
    } finally {
      stream.close();
    }
  });
});
