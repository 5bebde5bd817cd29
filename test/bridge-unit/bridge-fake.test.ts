/**
 * The real bridge (in-process) against a fake Worker speaking docs/internal-protocol.md,
 * over real sockets. Covers forwarding, replies, idle/maxJobBytes/stop endings, whitelist,
 * binds, buffer emulation and upstream loss without needing wrangler.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, type RunningBridge } from '../../tcp-bridge/bridge.ts';
import { FakeWorker, listenerSpec } from './support/fake-worker.ts';
import { capturedLog } from './support/log.ts';
import { OFFLINE_MESSAGE } from '../../tcp-bridge/session.ts';
import { connect, freePorts, isRefused, printAndClose, readBytes, waitClosed } from './support/tcp.ts';

const { lines, log } = capturedLog();

let fake: FakeWorker;
let bridge: RunningBridge;
let ports: number[];

const listener = (i: number, extra: Record<string, unknown> = {}) => listenerSpec(i, ports[i], extra);

async function boundOk(i: number) {
  await fake.waitFor(() => fake.messages('bound').find((m) => m.printerId === `printer-${i}` && m.ok === true), 5000, `bound ${i}`);
}

beforeEach(async () => {
  lines.length = 0;
  fake = new FakeWorker();
  await fake.start();
  ports = await freePorts(4);
  fake.listeners = [listener(0), listener(1)];
  bridge = startBridge({ workerUrl: fake.url, secret: fake.secret, bindHost: '0.0.0.0', logLevel: 'info', stateDir: '', maxJobsTotal: 256 }, log);
  await boundOk(0);
  await boundOk(1);
});

afterEach(async () => {
  await bridge.stop();
  await fake.stop();
});

describe('bridge against a fake Worker', () => {
  it('forwards a job byte-exact with the client address and records the connection', async () => {
    const payload = Buffer.concat([Buffer.from('\x1b@Hello\n'), Buffer.alloc(70_000, 0x41), Buffer.from('\x1dV\x00')]);
    await printAndClose(ports[0], payload);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.printerId).toBe('printer-0');
    expect(doc.bytes.equals(payload)).toBe(true);
    expect(doc.clientAddress).toBe('127.0.0.1');
    expect(doc.reason).toBe('closed');
    expect(doc.bytesSent).toBe(0);
    const conn = fake.messages('connection').find((m) => m.printerId === 'printer-0');
    expect(conn).toMatchObject({ clientIp: '127.0.0.1', allowed: true });
    expect(new Date(conn!.at as string).getTime()).toBeGreaterThan(Date.now() - 10_000);
    await fake.waitFor(() => lines.find((l) => l.includes('"event":"connection"') && l.includes('"outcome":"closed"')));
    const line = JSON.parse(lines.find((l) => l.includes('"event":"connection"'))!);
    expect(line).toMatchObject({ printerId: 'printer-0', client: '127.0.0.1', bytesIn: payload.length, bytesOut: 0, outcome: 'closed' });
  });

  it('queues bytes that arrive before the session WebSocket is open, in order', async () => {
    fake.upgradeDelayMs = 300;
    const s = await connect(ports[0]);
    const parts: Buffer[] = [];
    for (let i = 0; i < 50; i++) {
      const b = Buffer.from(`line ${i}\n`);
      parts.push(b);
      s.write(b);
      await new Promise((r) => setTimeout(r, 2));
    }
    s.end();
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.bytes.toString()).toBe(Buffer.concat(parts).toString());
  });

  it('writes status replies back at once and counts bytesSent', async () => {
    const s = await connect(ports[0]);
    const replies: number[] = [];
    for (const n of [1, 2, 3, 4]) {
      s.write(Buffer.from([0x10, 0x04, n]));
      replies.push((await readBytes(s, 1))[0]);
    }
    expect(replies).toEqual([0x16, 0x12, 0x12, 0x12]);
    s.end();
    await waitClosed(s);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.bytesSent).toBe(4);
    expect(doc.bytes.length).toBe(12);
  });

  it('ends an idle connection after the idle timeout and closes the socket', async () => {
    const s = await connect(ports[0]);
    s.write('idle job\n');
    await new Promise((r) => setTimeout(r, 300));
    s.write('more\n'); // resets the timer
    const closed = await waitClosed(s, 5000);
    expect(closed.ms).toBeGreaterThanOrEqual(450);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.reason).toBe('idle');
    expect(doc.bytes.toString()).toBe('idle job\nmore\n');
  });

  it('finalises an oversized job with what fit and closes the connection', async () => {
    fake.setListeners([listener(0, { maxJobBytes: 1000 }), listener(1)]);
    await fake.waitFor(() => lines.some((l) => l.includes('listener.updated')));
    const s = await connect(ports[0]);
    s.on('error', () => {});
    s.write(Buffer.alloc(5000, 0x42));
    await waitClosed(s);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.reason).toBe('maxJobBytes');
    expect(doc.bytes.length).toBe(1000);
  });

  it('refuses clients outside an enabled whitelist and records every attempt', async () => {
    fake.setListeners([listener(0, { whitelist: { enabled: true, entries: ['10.0.0.0/8'] } }), listener(1, { whitelist: { enabled: true, entries: ['127.0.0.0/8'] } })]);
    await fake.waitFor(() => lines.filter((l) => l.includes('listener.updated')).length >= 2);
    const s = await connect(ports[0]);
    s.on('error', () => {});
    s.write('should not print\n');
    await waitClosed(s);
    await printAndClose(ports[1], 'allowed\n');
    const docs = await fake.waitForDocuments(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.documents).toHaveLength(1);
    expect(docs[0].printerId).toBe('printer-1');
    expect(fake.messages('connection').map((m) => [m.printerId, m.allowed])).toEqual([
      ['printer-0', false],
      ['printer-1', true],
    ]);
  });

  it('closes removed listeners (open connections finalised as stopped) and binds added ones', async () => {
    const s = await connect(ports[1]);
    s.on('error', () => {});
    s.write('in flight\n');
    await fake.waitFor(() => fake.openSessions === 1);
    fake.setListeners([listener(0), listener(2)]);
    await boundOk(2);
    await fake.waitFor(() => fake.messages('unbound').find((m) => m.printerId === 'printer-1'));
    expect(await isRefused(ports[1])).toBe(true);
    await waitClosed(s);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc).toMatchObject({ printerId: 'printer-1', reason: 'stopped' });
    expect(doc.bytes.toString()).toBe('in flight\n');
    await printAndClose(ports[2], 'new printer\n');
    await fake.waitForDocuments(2);
    // Started again: the same port accepts again.
    fake.setListeners([listener(0), listener(1), listener(2)]);
    await fake.waitFor(() => fake.messages('bound').filter((m) => m.printerId === 'printer-1' && m.ok).length >= 2);
    await printAndClose(ports[1], 'back\n');
    await fake.waitForDocuments(3);
  });

  it('reports a port in use as a failed bind and retries on the next listeners set', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(ports[3], '0.0.0.0', () => r()));
    fake.setListeners([listener(0), listener(1), listener(3)]);
    const failed = await fake.waitFor(() => fake.messages('bound').find((m) => m.printerId === 'printer-3'));
    expect(failed.ok).toBe(false);
    expect(String(failed.error)).toMatch(/EADDRINUSE/);
    await new Promise<void>((r) => blocker.close(() => r()));
    fake.setListeners([listener(0), listener(1), listener(3)]);
    await boundOk(3);
  });

  it('buffer emulation holds the writer back and still delivers every byte', async () => {
    fake.setListeners([listener(0, { buffer: { maxCapacity: 1000, drainRate: 4000 } }), listener(1)]);
    await fake.waitFor(() => lines.some((l) => l.includes('listener.updated')));
    const payload = Buffer.alloc(10_000);
    for (let i = 0; i < payload.length; i++) payload[i] = 0x20 + (i % 90);
    const t0 = Date.now();
    await printAndClose(ports[0], payload);
    const [doc] = await fake.waitForDocuments(1, 10_000);
    const ms = Date.now() - t0;
    expect(doc.bytes.equals(payload)).toBe(true);
    // 10,000 bytes at 4,000 B/s: the job cannot finish before ~2.5 s.
    expect(ms).toBeGreaterThanOrEqual(2300);
    const reports = doc.bufferReports;
    expect(reports.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...reports.map((r) => r.bufferedBytes))).toBeLessThanOrEqual(1000);
    expect(Math.max(...reports.map((r) => r.bufferedBytes))).toBeGreaterThan(500);
    expect(reports.at(-1)).toEqual(expect.objectContaining({ bufferedBytes: 0, bufferedBytesDeltaBps: 0 }));
    // At least twice a second while changing.
    const nonZero = reports.filter((r) => r.bufferedBytes > 0);
    for (let i = 1; i < nonZero.length; i++) expect(nonZero[i].at - nonZero[i - 1].at).toBeLessThan(500);
  });

  it('buffer emulation blocks the writer for real: write() reports a full socket once the kernel buffers are full', async () => {
    // Loopback kernel buffers absorb ~4 MB, so a writer only blocks beyond that: 10 x 512 KB.
    const capacity = 512 * 1024;
    fake.setListeners([listener(0, { buffer: { maxCapacity: capacity, drainRate: 2 * 1024 * 1024 }, maxJobBytes: 64 * 1024 * 1024 }), listener(1)]);
    await fake.waitFor(() => lines.some((l) => l.includes('listener.updated')));
    const s = await connect(ports[0]);
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const total = capacity * 10;
    let written = 0;
    let blockedAt = -1;
    const t0 = Date.now();
    while (written < total) {
      const ok = s.write(chunk);
      written += chunk.length;
      if (!ok) {
        if (blockedAt < 0) blockedAt = written;
        await new Promise((r) => s.once('drain', r));
      }
    }
    const writeMs = Date.now() - t0;
    await new Promise<void>((r) => s.end(r));
    const [doc] = await fake.waitForDocuments(1, 20_000);
    expect(blockedAt).toBeGreaterThan(0);
    expect(blockedAt).toBeLessThan(total);
    // At 2 MB/s, pushing 5 MB through a 512 KB buffer and ~4 MB of kernel buffers takes
    // at least ~250 ms of draining; a writer that was never held back finishes at once.
    expect(writeMs).toBeGreaterThan(100);
    expect(doc.bytes.length).toBe(total);
  });

  it('the buffer is per printer: two connections share it', async () => {
    fake.setListeners([listener(0, { buffer: { maxCapacity: 1000, drainRate: 4000 } }), listener(1)]);
    await fake.waitFor(() => lines.some((l) => l.includes('listener.updated')));
    const t0 = Date.now();
    await Promise.all([printAndClose(ports[0], Buffer.alloc(5000, 0x61)), printAndClose(ports[0], Buffer.alloc(5000, 0x62))]);
    const docs = await fake.waitForDocuments(2, 10_000);
    // 10,000 bytes through one 4,000 B/s printer: ~2.5 s, not ~1.25 s as with a buffer each.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2200);
    expect(docs.map((d) => d.bytes.length)).toEqual([5000, 5000]);
    expect(docs.every((d) => d.bytes.every((b) => b === d.bytes[0]))).toBe(true);
  });

  it('keeps listening while the Worker is away, recovers jobs, and resynchronises', async () => {
    const workerPort = fake.port;
    await fake.stop();
    // Still listening; a job printed now is kept and submitted when the Worker is back.
    const reply = await printAndClose(ports[0], 'printed during outage\n').catch((e) => e);
    expect(reply instanceof Error ? (reply as NodeJS.ErrnoException).code : 'ok').not.toBe('ECONNREFUSED');
    const boundBefore = fake.messages('bound').length;
    await fake.start(workerPort);
    await fake.waitFor(() => fake.controlConnected === 1, 15_000, 'control reconnect');
    await fake.waitFor(() => fake.messages('bound').length >= boundBefore + 2, 5000, 'resync bound');
    const [doc] = await fake.waitForDocuments(1, 15_000);
    expect(doc.via).toBe('recovered');
    // Whole (the client closed normally), but printed while nobody could answer status queries.
    expect(doc.error).toBe(OFFLINE_MESSAGE);
    expect(doc.endReason).toBe('closed');
    expect(doc.bytes.toString()).toBe('printed during outage\n');
    // The connection attempt made during the outage was recorded once the channel was back.
    await fake.waitFor(() => fake.messages('connection').length >= 1);
    await printAndClose(ports[1], 'after\n');
    await fake.waitForDocuments(2);
  });

  it('a session whose upstream drops is closed and finalised with what arrived, never lost', async () => {
    const s = await connect(ports[0]);
    s.on('error', () => {});
    s.write('part one\n');
    await fake.waitFor(() => fake.openSessions === 1);
    await new Promise((r) => setTimeout(r, 50));
    const workerPort = fake.port;
    await fake.stop();
    await waitClosed(s);
    await fake.start(workerPort);
    const [doc] = await fake.waitForDocuments(1, 15_000);
    expect(doc.bytes.toString()).toBe('part one\n');
    expect(doc.error).toBe('upstream connection lost');
    // Recovery is idempotent: the bridge's resubmission did not make a second document.
    await fake.waitFor(() => lines.some((l) => l.includes('recovery.submitted')), 15_000);
    expect(fake.documents).toHaveLength(1);
  });

  it('idle connections do not starve others (slowloris)', async () => {
    // A longer idle timeout than the default, so a loaded machine cannot close them first.
    const updates = () => lines.filter((l) => l.includes('listener.updated')).length;
    const before = updates();
    // The per-printer limits (limits.test.ts) are lifted here: this is about the bridge itself.
    fake.setListeners([listener(0, { idleTimeoutMs: 3000, maxConnections: 1000, maxJobsInFlight: 1000 }), listener(1)]);
    await fake.waitFor(() => updates() > before);
    const idle = await Promise.all(Array.from({ length: 200 }, () => connect(ports[0])));
    for (const s of idle) s.on('error', () => {});
    let idleClosed = 0;
    for (const s of idle) s.once('close', () => idleClosed++);
    await printAndClose(ports[0], 'real job\n');
    await fake.waitFor(() => fake.documents.find((d) => d.bytes.toString() === 'real job\n'));
    // Served while every idle connection still held its slot: it did not wait for them.
    expect(idleClosed).toBe(0);
    await Promise.all(idle.map((s) => waitClosed(s, 5000)));
    await fake.waitForDocuments(201, 5000);
  });

  it('shuts down cleanly, finalising open connections', async () => {
    const s = await connect(ports[0]);
    s.on('error', () => {});
    s.write('open at shutdown\n');
    await fake.waitFor(() => fake.openSessions === 1);
    await bridge.stop();
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.reason).toBe('stopped');
    expect(await isRefused(ports[0])).toBe(true);
  });
});
