/**
 * Retention (contract section 4 retention rows, decisions.md "Workspaces"): the cleanup
 * preview and run, their scope (own workspace; all for admins), override 0, maxDocuments,
 * media deletion. The admin tests run last in this file: they clean every workspace.
 */
import { describe, expect, it } from 'vitest';
import {
  adminWorkspace, ageDocuments, assertResponseRules, call, createPrinter, docIds, elementsOf, escposLargeRasterHex, escposRasterHex, escposTextHex, expectJson,
  expectProblem, importDoc, latestDoc, newWorkspace, type Ws,
} from './helpers.ts';

const summary = async (ws: Ws, query = '') =>
  expectJson(await call(`/api/workspaces/retention/cleanup-summary${query}`, { token: ws.accessToken }), 200);
const cleanup = async (ws: Ws, json: unknown) =>
  expectJson(await call('/api/workspaces/retention/cleanup', { token: ws.accessToken, json }), 200);

/** A workspace with one printer and `n` text documents (+ `images` raster documents). */
async function seeded(n: number, images = 0): Promise<{ ws: Ws; printerId: string; ids: string[] }> {
  const ws = await newWorkspace();
  const printerId = (await createPrinter(ws)).printer.id;
  for (let i = 0; i < n; i++) await importDoc(ws, printerId, escposTextHex(`doc ${i}`));
  for (let i = 0; i < images; i++) await importDoc(ws, printerId, escposRasterHex(i));
  return { ws, printerId, ids: await docIds(ws, printerId) };
}

describe('GET /api/workspaces/retention/cleanup-summary', () => {
  it('previews nothing for fresh documents; override 0 previews all of the workspace', async () => {
    const { ws } = await seeded(2, 1);
    await seeded(3); // another workspace's documents are not counted
    const none = await summary(ws);
    expect(none).toEqual({ expiredDocuments: 0, retentionMediaFiles: 0 });
    assertResponseRules(none);
    const all = await summary(ws, '?retentionDaysOverride=0');
    expect(all).toEqual({ expiredDocuments: 3, retentionMediaFiles: 1 });
  });

  it('counts documents older than the workspace retention, or than the override', async () => {
    const { ws, ids } = await seeded(4);
    await ageDocuments(ids.slice(0, 2), 40);
    await ageDocuments(ids.slice(2, 3), 10);
    expect((await summary(ws)).expiredDocuments).toBe(2); // retention 30
    expect((await summary(ws, '?retentionDaysOverride=5')).expiredDocuments).toBe(3);
    expect((await summary(ws, '?retentionDaysOverride=100')).expiredDocuments).toBe(0);
    await expectJson(await call('/api/workspaces', { method: 'PATCH', token: ws.accessToken, json: { documentRetentionDays: 7 } }), 200);
    expect((await summary(ws)).expiredDocuments).toBe(3);
    // a preview deletes nothing
    expect(await docIds(ws, (await expectJson(await call('/api/printers', { token: ws.accessToken }), 200))[0].printer.id)).toHaveLength(4);
  });

  it('refuses an invalid override with 400', async () => {
    const ws = await newWorkspace();
    for (const q of ['-1', 'abc', '3651', '1.5']) {
      await expectProblem(await call(`/api/workspaces/retention/cleanup-summary?retentionDaysOverride=${q}`, { token: ws.accessToken }), 400, { errors: true });
    }
  });
});

describe('POST /api/workspaces/retention/cleanup', () => {
  it('deletes the expired documents and their media, keeps the rest', async () => {
    // An image no other test prints: media are content-addressed (issue 19), and one another
    // workspace still shows stays served.
    const { ws, printerId } = await seeded(2);
    await importDoc(ws, printerId, escposRasterHex(77));
    const ids = await docIds(ws, printerId);
    const imageDoc = await latestDoc(ws, printerId);
    const mediaUrl = elementsOf(imageDoc).find((e) => e.type === 'image').media.url;
    expect((await call(mediaUrl)).status).toBe(200);
    // the image document (newest) and one text document expire
    await ageDocuments([ids[0], ids[1]], 31);
    const result = await cleanup(ws, { maxDocuments: 100 });
    expect(result).toEqual({ deletedDocuments: 2, deletedMedia: 1 });
    assertResponseRules(result);
    expect(await docIds(ws, printerId)).toEqual([ids[2]]);
    await expectProblem(await call(mediaUrl), 404);
    expect(await summary(ws, '?retentionDaysOverride=0')).toEqual({ expiredDocuments: 1, retentionMediaFiles: 0 });
  });

  it('stops after maxDocuments', async () => {
    const { ws, printerId, ids } = await seeded(5);
    await ageDocuments(ids, 60);
    expect(await cleanup(ws, { maxDocuments: 2 })).toEqual({ deletedDocuments: 2, deletedMedia: 0 });
    expect(await docIds(ws, printerId)).toHaveLength(3);
    expect((await summary(ws)).expiredDocuments).toBe(3);
    expect(await cleanup(ws, { maxDocuments: 10, retentionDaysOverride: null })).toEqual({ deletedDocuments: 3, deletedMedia: 0 });
  });

  it('override 0 deletes every document of the caller\u2019s workspace, and no other workspace\u2019s', async () => {
    const mine = await seeded(3, 1);
    const theirs = await seeded(2, 1);
    await ageDocuments(theirs.ids, 400); // even very old documents of others stay
    const result = await cleanup(mine.ws, { maxDocuments: 1000, retentionDaysOverride: 0 });
    expect(result).toEqual({ deletedDocuments: 4, deletedMedia: 1 });
    expect(await docIds(mine.ws, mine.printerId)).toEqual([]);
    expect(await docIds(theirs.ws, theirs.printerId)).toEqual(theirs.ids);
    // the other workspace's media is still served
    const url = elementsOf(await latestDoc(theirs.ws, theirs.printerId)).find((e) => e.type === 'image')?.media.url;
    if (url) expect((await call(url)).status).toBe(200);
  });

  it('a normal workspace\u2019s cleanup never touches another workspace\u2019s expired documents', async () => {
    const mine = await seeded(1);
    const theirs = await seeded(2);
    await ageDocuments(theirs.ids, 90);
    await ageDocuments(mine.ids, 90);
    expect(await cleanup(mine.ws, { maxDocuments: 100 })).toEqual({ deletedDocuments: 1, deletedMedia: 0 });
    expect(await docIds(theirs.ws, theirs.printerId)).toEqual(theirs.ids);
    expect((await summary(theirs.ws)).expiredDocuments).toBe(2);
  });

  it('a shared image stays served while another document still uses it', async () => {
    const { ws, printerId } = await seeded(0, 0);
    await importDoc(ws, printerId, escposLargeRasterHex(42));
    const older = await latestDoc(ws, printerId);
    await importDoc(ws, printerId, escposLargeRasterHex(42));
    const newer = await latestDoc(ws, printerId);
    const olderUrl = elementsOf(older).find((e) => e.type === 'image').media.url;
    const newerUrl = elementsOf(newer).find((e) => e.type === 'image').media.url;
    await ageDocuments([older.id], 45);
    expect(await cleanup(ws, { maxDocuments: 100 })).toEqual({ deletedDocuments: 1, deletedMedia: 1 });
    // Content-addressed (issue 19): both documents show the one medium, which stays served.
    expect(newerUrl).toBe(olderUrl);
    const res = await call(newerUrl);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});

describe('admin scope (runs last: cleans every workspace)', () => {
  it('the admin preview and cleanup cover all workspaces', async () => {
    const admin = await adminWorkspace();
    const a = await seeded(2);
    const b = await seeded(1, 1);
    await ageDocuments(a.ids, 100);
    await ageDocuments(b.ids, 100);
    const preview = await summary(admin);
    expect(preview.expiredDocuments).toBeGreaterThanOrEqual(4);
    expect(preview.retentionMediaFiles).toBeGreaterThanOrEqual(1);
    const result = await cleanup(admin, { maxDocuments: 100_000 });
    expect(result.deletedDocuments).toBe(preview.expiredDocuments);
    expect(result.deletedMedia).toBe(preview.retentionMediaFiles);
    expect(await docIds(a.ws, a.printerId)).toEqual([]);
    expect(await docIds(b.ws, b.printerId)).toEqual([]);
  });

  it('admin override 0 deletes all documents in all workspaces', async () => {
    const admin = await adminWorkspace();
    const a = await seeded(2);
    const b = await seeded(1, 1);
    const total = await summary(admin, '?retentionDaysOverride=0');
    expect(total.expiredDocuments).toBeGreaterThanOrEqual(4);
    const result = await cleanup(admin, { maxDocuments: 100_000, retentionDaysOverride: 0 });
    expect(result.deletedDocuments).toBe(total.expiredDocuments);
    expect(await docIds(a.ws, a.printerId)).toEqual([]);
    expect(await docIds(b.ws, b.printerId)).toEqual([]);
    expect(await summary(admin, '?retentionDaysOverride=0')).toEqual({ expiredDocuments: 0, retentionMediaFiles: 0 });
  });
});
