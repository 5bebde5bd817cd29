/**
 * Documents in their printers' Durable Objects, end to end (extensions.md "Storage and size"):
 * a service of its own (scripts/start.ts, as `npm start` runs it) prints receipts over raw TCP,
 * is stopped and started again on the same state directory, and the documents are still
 * listed, paged and replayed (Last-Event-ID) as before; D1 holds no document body; the
 * statistics agree with a count of the documents; retention deletes them. Also the sizes:
 * the bench's 3.5 KB text receipt compressed at rest, a page of 20 on the wire with gzip, and
 * a gzip event stream that still delivers each event as it happens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { DatabaseSync } from 'node:sqlite';
import type { Api } from './api.ts';
import { printAndClose, freePorts } from '../bridge-unit/support/tcp.ts';
import { until } from '../bridge-unit/support/e2e.ts';
import { textReceipt } from '../../bench/escpos.bench.ts';

const root = resolve(import.meta.dirname, '../..');
const stateDir = mkdtempSync(join(tmpdir(), 'slipstream-storage-'));
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  BRIDGE_SECRET: randomBytes(16).toString('hex'),
  PRINTER_PORT_BASE: String(14000 + Math.floor(Math.random() * 80) * 100),
};
let child: ChildProcess | null = null;
let baseUrl = '';

async function start(): Promise<void> {
  const [port] = await freePorts(1);
  baseUrl = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), resolve(root, 'scripts/start.ts')], {
    cwd: root,
    env: { ...process.env, ...secrets, STATE_DIR: stateDir, PORT: String(port), SLIPSTREAM_SKIP_BUILD: '1', BIND_HOST: '127.0.0.1', LISTENER_IDLE_TIMEOUT_MS: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  await until(() => out.includes('Slipstream is running') || proc.exitCode !== null, 90_000, 'the service to start');
  if (proc.exitCode !== null) throw new Error(`service exited:\n${out}`);
}

async function stop(): Promise<void> {
  const proc = child;
  child = null;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

/** GET with `Accept-Encoding: gzip` and nothing decoded: the bytes on the wire and the text they hold. */
function getGzip(path: string, token: string): Promise<{ status: number; encoding?: string; wireBytes: number; text: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request(baseUrl + path, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const text = (encoding === 'gzip' ? gunzipSync(wire) : wire).toString('utf8');
        resolveGet({ status: res.statusCode ?? 0, encoding, wireBytes: wire.length, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const receipt = Buffer.from(textReceipt());
let api: Api;
let token = '';
let workspaceId = '';
let printerId = '';
let port = 0;
let printedIds: string[] = []; // newest first

async function allDocuments(limit: number, extra = ''): Promise<any[]> {
  const out: any[] = [];
  let before = '';
  for (;;) {
    const page = await api('GET', `/api/printers/${printerId}/documents/canvas?Limit=${limit}${before}${extra}`);
    expect(page.status).toBe(200);
    out.push(...(page.body.result.items ?? []));
    if (!page.body.result.hasMore) return out;
    before = `&BeforeId=${page.body.result.nextBeforeId}`;
  }
}

beforeAll(async () => {
  await start();
  workspaceId = randomUUID();
  const created = await fetch(`${baseUrl}/api/workspaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: workspaceId, workspaceName: 'storage' }) }).then((r) => r.json() as Promise<any>);
  const login = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: created.token }) }).then((r) => r.json() as Promise<any>);
  token = login.accessToken;
  api = async (method, path, body, headers = {}) => {
    const res = await fetch(baseUrl + path, {
      method, headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const p = await api('POST', '/api/printers', { printer: { id: randomUUID(), displayName: 'storage' }, settings: { protocol: 'EscPos', widthInDots: 576 } });
  expect(p.status).toBe(200);
  printerId = p.body.printer.id;
  port = p.body.settings.tcpListenPort;
  await until(async () => (await api('GET', `/api/printers/${printerId}`)).body.runtimeStatus?.state === 'Started', 20_000, 'the listener');
  for (let i = 0; i < 25; i++) await printAndClose(port, receipt);
  await printAndClose(port, Buffer.from([0x10, 0x04, 0x01])); // a status poll (DLE EOT 1)
  const docs = await until(async () => {
    const d = await allDocuments(100, '&IncludeStatusPolls=true');
    return d.length >= 26 ? d : null;
  }, 30_000, '26 documents');
  printedIds = docs.filter((d) => d.bytesReceived === receipt.length).map((d) => d.id);
  expect(printedIds).toHaveLength(25);
}, 180_000);

afterAll(async () => {
  await stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('document size', () => {
  it('the 3.5 KB text receipt: compressed at rest at most 1.5x its bytes, no command stored past 64 bytes', async () => {
    const [doc] = await allDocuments(1, '&IncludeStatusPolls=false'); // the newest receipt, not the status poll after it
    expect(doc.bytesReceived).toBe(receipt.length);
    const json = JSON.stringify(doc);
    const gz = gzipSync(json, { level: 6 }).length; // what CompressionStream('gzip') stores (default level)
    console.log(`receipt ${receipt.length} B -> document ${json.length} B JSON (${(json.length / receipt.length).toFixed(1)}x), ${gz} B gzip (${(gz / receipt.length).toFixed(2)}x)`);
    expect(gz).toBeLessThanOrEqual(1.5 * receipt.length);
    // The JSON itself: 35x before lean documents; the element model (one debug element per
    // command plus the drawn element, every contract field present) keeps it near 30x.
    expect(json.length).toBeLessThanOrEqual(32 * receipt.length);
    for (const el of doc.canvases.flatMap((c: any) => c.items)) {
      expect(el.commandRaw.length).toBeLessThanOrEqual(128);
      if (el.type !== 'debug') expect(el.commandRaw).toBe('');
    }
  });

  it('a page of 20 receipts is at most 150 KB on the wire with Accept-Encoding: gzip', async () => {
    const res = await getGzip(`/api/printers/${printerId}/documents/canvas?Limit=20`, token);
    expect(res.status).toBe(200);
    expect(res.encoding).toBe('gzip');
    const page = JSON.parse(res.text);
    expect(page.result.items).toHaveLength(20);
    console.log(`page of 20: ${res.text.length} B JSON, ${res.wireBytes} B on the wire`);
    expect(res.wireBytes).toBeLessThanOrEqual(150 * 1024);
  });

  it('the canvas stream compressed with gzip still delivers each event as it happens', async () => {
    const events: string[] = [];
    let text = '';
    const req = request(`${baseUrl}/api/printers/${printerId}/documents/canvas/stream`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
    const opened = new Promise<string | undefined>((res, rej) => {
      req.on('response', (r) => {
        const body = r.headers['content-encoding'] === 'gzip' ? r.pipe(createGunzip()) : r;
        body.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          for (const m of text.matchAll(/id: ([0-9a-f-]{36})\n/g)) if (!events.includes(m[1])) events.push(m[1]);
        });
        body.on('error', () => {});
        res(r.headers['content-encoding']);
      });
      req.on('error', rej);
    });
    req.end();
    try {
      expect(await opened).toBe('gzip');
      await until(() => text.includes(': connected'), 10_000, 'the connected comment through gzip');
      await printAndClose(port, receipt);
      await until(() => events.length === 1, 15_000, 'the document event through gzip');
    } finally {
      req.destroy();
    }
  });
});

describe('documents survive a restart of the whole service', () => {
  it('are listed, paged and replayed (Last-Event-ID) as before, with statistics that agree', async () => {
    const before = await allDocuments(100, '&IncludeStatusPolls=true');
    await stop();
    await start();
    const after = await allDocuments(7, '&IncludeStatusPolls=true');
    expect(after.map((d) => d.id)).toEqual(before.map((d) => d.id));
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    // status polls are left out when asked, and counted
    const page = await api('GET', `/api/printers/${printerId}/documents/canvas?Limit=100&IncludeStatusPolls=false`);
    expect(page.body.result.items).toHaveLength(before.length - 1);
    expect(page.body.result.statusPollCount).toBe(1);

    // Last-Event-ID: the documents after the 20th-newest receipt, oldest first
    const anchor = printedIds[19];
    const expected = before.slice(0, before.findIndex((d) => d.id === anchor)).filter((d) => d.bytesReceived > 3).map((d) => d.id).reverse();
    const res = await fetch(`${baseUrl}/api/printers/${printerId}/documents/canvas/stream?IncludeStatusPolls=false`, { headers: { authorization: `Bearer ${token}`, 'last-event-id': anchor } });
    const reader = res.body!.getReader();
    let text = '';
    const ids = () => [...text.matchAll(/id: ([0-9a-f-]{36})\n/g)].map((m) => m[1]);
    await until(async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return ids().length >= expected.length;
    }, 15_000, 'the replay');
    await reader.cancel();
    expect(ids()).toEqual(expected);

    // statistics from the counters agree with a count of the documents
    const summary = await until(async () => {
      const s = (await api('GET', '/api/workspaces/summary')).body;
      return s.totalDocuments === before.length ? s : null;
    }, 45_000, 'summary = document count (the counters flush within 30 s)');
    expect(summary.documentsLast24h).toBe(before.length);
  });

  it('D1 holds no document body', async () => {
    const dir = join(stateDir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
    const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
    let checked = 0;
    const marker = 'Item number 17 descr';
    for (const f of files) {
      const db = new DatabaseSync(join(dir, f), { readOnly: true });
      try {
        const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all().map((r: any) => r.name as string);
        if (!tables.includes('workspaces')) continue; // miniflare's own bookkeeping
        checked++;
        expect(tables).toContain('document_counters');
        expect((db.prepare('SELECT COUNT(*) AS n FROM documents').get() as any).n).toBe(0);
        for (const t of tables) {
          for (const row of db.prepare(`SELECT * FROM "${t}"`).all()) {
            const flat = Object.values(row as object).map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v))).join('|');
            expect(flat, `table ${t}`).not.toContain(marker);
            expect(flat, `table ${t}`).not.toContain(Buffer.from(marker).toString('hex').toUpperCase());
          }
        }
      } finally {
        db.close();
      }
    }
    expect(checked).toBe(1);
  });

  it('retention deletes them and the statistics follow', async () => {
    const cleaned = await api('POST', '/api/workspaces/retention/cleanup', { maxDocuments: 1000, retentionDaysOverride: 0 });
    expect(cleaned.status).toBe(200);
    expect(cleaned.body.deletedDocuments).toBe(27); // 25 + 1 status poll + the streamed one
    expect(await allDocuments(100, '&IncludeStatusPolls=true')).toEqual([]);
    expect((await api('GET', '/api/workspaces/summary')).body.totalDocuments).toBe(0);
  });
});
