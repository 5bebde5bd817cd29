/**
 * The hourly Cron Trigger (decisions.md "Workspaces": retention runs hourly): the exported
 * `scheduled` handler deletes documents older than each workspace's retention.
 */
import { describe, expect, it } from 'vitest';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/worker/index.ts';
import {
  ageDocuments, call, createPrinter, docIds, env, escposRasterHex, escposTextHex, expectJson, importDoc, newWorkspace, type Ws,
} from './helpers.ts';

async function runCron(): Promise<void> {
  const controller = createScheduledController({ scheduledTime: new Date(), cron: '0 * * * *' });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, env as never, ctx);
  await waitOnExecutionContext(ctx);
}

async function workspaceWithDocs(retentionDays: number, n: number): Promise<{ ws: Ws; printerId: string; ids: string[] }> {
  const ws = await newWorkspace();
  await expectJson(await call('/api/workspaces', { method: 'PATCH', token: ws.accessToken, json: { documentRetentionDays: retentionDays } }), 200);
  const printerId = (await createPrinter(ws)).printer.id;
  for (let i = 0; i < n; i++) await importDoc(ws, printerId, i === 0 ? escposRasterHex(i) : escposTextHex(`cron ${i}`));
  return { ws, printerId, ids: await docIds(ws, printerId) };
}

describe('scheduled handler', () => {
  it('deletes documents older than each workspace\u2019s retention, and only those', async () => {
    const short = await workspaceWithDocs(1, 3); // ids newest first; the oldest has an image
    const long = await workspaceWithDocs(30, 2);
    await ageDocuments([short.ids[1], short.ids[2]], 2); // older than 1 day
    await ageDocuments([long.ids[0]], 2); // 2 days is fine with 30
    await ageDocuments([long.ids[1]], 31); // expired with 30
    const mediaBefore = await env.DB.prepare('SELECT COUNT(*) AS n FROM media WHERE document_id = ?').bind(short.ids[2]).first<{ n: number }>();
    expect(mediaBefore?.n).toBe(1);

    await runCron();

    expect(await docIds(short.ws, short.printerId)).toEqual([short.ids[0]]);
    expect(await docIds(long.ws, long.printerId)).toEqual([long.ids[0]]);
    const mediaAfter = await env.DB.prepare('SELECT COUNT(*) AS n FROM media WHERE document_id = ?').bind(short.ids[2]).first<{ n: number }>();
    expect(mediaAfter?.n).toBe(0);
  });

  it('is idempotent and leaves fresh documents alone', async () => {
    const fresh = await workspaceWithDocs(1, 2);
    await runCron();
    await runCron();
    expect(await docIds(fresh.ws, fresh.printerId)).toEqual(fresh.ids);
  });

  it('prunes TCP connection records older than the kept window (at least 24 h are kept)', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const recent = new Date(Date.now() - 23 * 3600_000).toISOString();
    const ancient = new Date(Date.now() - 30 * 86400_000).toISOString();
    for (const at of [recent, ancient]) {
      await env.DB.prepare('INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed) VALUES (?, ?, ?, ?, 1)')
        .bind(ws.id, p.printer.id, '10.1.1.1', at).run();
    }
    await runCron();
    const { results } = await env.DB.prepare('SELECT connected_at FROM tcp_connections WHERE workspace_id = ?').bind(ws.id).all<{ connected_at: string }>();
    expect(results.map((r) => r.connected_at)).toEqual([recent]);
  });
});
