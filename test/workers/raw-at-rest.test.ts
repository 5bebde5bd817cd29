/**
 * A large job's raw bytes are kept in R2 gzipped, a MiB per gzip member (services/raw-at-rest.ts):
 * they come back exactly as received, and raw objects stored before (uncompressed, `.bin`) read
 * as they are.
 */
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { call, createPrinter, env, importDoc, latestDoc, newWorkspace, toBase64 } from './helpers.ts';
import { rawOfObject } from '../../src/worker/services/raw-at-rest.ts';

describe('raw bytes at rest', () => {
  it('a job of several MiB is stored gzipped and served back byte for byte', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    // 2.5 MiB (three members): a line of text, then NULs (which print nothing) with some
    // bytes that do not repeat among them.
    const bytes = new Uint8Array(5 * (1 << 19));
    bytes.set(new TextEncoder().encode('Raw at rest\n'));
    for (let i = 1; i < 4096; i++) bytes[i * 640] = 0x20 + ((i * 7919) % 90);
    await importDoc(ws, p.printer.id, toBase64(bytes), 'Base64');
    const doc = await latestDoc(ws, p.printer.id);
    const stored = await env.MEDIA.get(`raw/${doc.id}.bin.gz`);
    expect(stored).not.toBeNull();
    expect((await stored!.arrayBuffer()).byteLength).toBeLessThan(bytes.length / 4);
    const res = await call(`/api/printers/${p.printer.id}/documents/${doc.id}?format=raw`, { token: ws.accessToken });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('several gzip members read as their bytes one after the other; an uncompressed .bin as it is', () => {
    const a = new TextEncoder().encode('first member '), b = new TextEncoder().encode('second member');
    const two = new Uint8Array([...gzipSync(a), ...gzipSync(b)]);
    expect(new TextDecoder().decode(rawOfObject('raw/x.bin.gz', two))).toBe('first member second member');
    expect(rawOfObject('raw/x.bin', a)).toBe(a);
  });
});
