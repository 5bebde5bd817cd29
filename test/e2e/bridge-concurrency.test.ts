/**
 * Concurrency through the real bridge and Worker: 50 printers, 4 clients each, all printing
 * at once; every one of the 200 documents holds exactly its own client's bytes.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { documentHex, hexOf, listDocuments, until } from '../bridge-unit/support/e2e.ts';
import { connect, waitClosed } from '../bridge-unit/support/tcp.ts';

let api: Api;

beforeAll(async () => {
  api = (await createWorkspaceAndLogin('bridge concurrency')).api;
});

describe('concurrency', () => {
  it('50 printers x 4 clients printing at once: 200 documents, each with exactly its own bytes', async () => {
    const printers: Array<{ id: string; port: number }> = [];
    for (let i = 0; i < 50; i++) {
      const p = await createPrinter(api, { displayName: `concurrent ${i}` });
      printers.push({ id: p.printer.id, port: p.settings.tcpListenPort });
    }
    const jobs = printers.flatMap((p, i) =>
      [0, 1, 2, 3].map((j) => {
        const lines = [`\x1b@printer ${i} client ${j}\n`];
        for (let k = 0; k < 20; k++) lines.push(`${i}-${j}-${k} ${randomBytes(12).toString('hex')}\n`);
        lines.push('\x1dV\x00');
        return { printer: p, payload: Buffer.from(lines.join(''), 'latin1') };
      }),
    );
    // Open all 200 connections first, then write in small interleaved chunks, then close.
    const sockets = await Promise.all(jobs.map((j) => connect(j.printer.port)));
    for (let off = 0; off < 1200; off += 97) {
      jobs.forEach((j, k) => {
        if (off < j.payload.length) sockets[k].write(j.payload.subarray(off, off + 97));
      });
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(sockets.map((s) => new Promise<void>((r) => s.end(r))));
    await Promise.all(sockets.map((s) => waitClosed(s, 10_000)));

    for (const p of printers) {
      const docs = await until(async () => {
        const all = await listDocuments(api, p.id);
        return all.length >= 4 ? all : null;
      }, 30_000, `4 documents on ${p.id}`, 200);
      expect(docs).toHaveLength(4);
      const want = jobs.filter((j) => j.printer === p).map((j) => hexOf(j.payload)).sort();
      const got = docs.map((d) => documentHex(d)).sort();
      expect(got).toEqual(want);
      for (const d of docs) {
        expect(d.clientAddress).toBe('127.0.0.1');
        expect(d.bytesReceived).toBe(d.canvases.flatMap((c: any) => c.items).filter((x: any) => x.type === 'debug').reduce((a: number, x: any) => a + x.lengthInBytes, 0));
      }
    }
  }, 180_000);
});
