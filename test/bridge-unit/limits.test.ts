/**
 * Issue 17 in the bridge, against the fake Worker over real sockets: jobs in flight and open
 * connections per printer (further clients wait unread, then are served; beyond the connection
 * cap they are refused), the job duration cap, and recovered jobs kept on disk across a restart.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, type RunningBridge } from '../../tcp-bridge/bridge.ts';
import { RecoveryQueue } from '../../tcp-bridge/recovery.ts';
import { FakeWorker, listenerSpec } from './support/fake-worker.ts';
import { capturedLog } from './support/log.ts';
import { connect, freePorts, printAndClose, waitClosed } from './support/tcp.ts';

const { lines, log } = capturedLog();

let fake: FakeWorker;
let bridge: RunningBridge | null;
let ports: number[];
let stateDir: string;

const listener = (i: number, extra: Record<string, unknown> = {}) => listenerSpec(i, ports[i], extra);
const boundOk = (i: number) =>
  fake.waitFor(() => fake.messages('bound').find((m) => m.printerId === `printer-${i}` && m.ok === true), 5000, `bound ${i}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(): RunningBridge {
  return startBridge({ workerUrl: fake.url, secret: fake.secret, bindHost: '127.0.0.1', logLevel: 'info', stateDir, maxJobsTotal: 256 }, log);
}

beforeEach(async () => {
  lines.length = 0;
  stateDir = mkdtempSync(join(tmpdir(), 'bridge-limits-'));
  fake = new FakeWorker();
  await fake.start();
  ports = await freePorts(2);
  fake.listeners = [listener(0, { maxJobsInFlight: 2, maxConnections: 4, idleTimeoutMs: 4000 }), listener(1)];
  bridge = start();
  await boundOk(0);
  await boundOk(1);
});

afterEach(async () => {
  await bridge?.stop();
  await fake.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('jobs in flight and connections per printer', () => {
  it('runs at most MAX_JOBS_IN_FLIGHT jobs, holds the next unread, refuses beyond MAX_CONNECTIONS_PER_PRINTER, loses none', async () => {
    const running = await Promise.all([connect(ports[0]), connect(ports[0])]);
    for (const [i, s] of running.entries()) s.write(`running ${i}\n`);
    await fake.waitFor(() => fake.openSessions === 2, 5000, 'two sessions');
    // Two more wait: accepted by the kernel, their bytes not read, no session for them.
    const waiting = await Promise.all([connect(ports[0]), connect(ports[0])]);
    for (const [i, s] of waiting.entries()) s.end(`waited ${i}\n`);
    // The fifth is over the connection cap: closed at once.
    const refused = await connect(ports[0]);
    refused.on('error', () => {});
    expect((await waitClosed(refused, 5000)).ms).toBeLessThan(5000);
    await sleep(300);
    expect(fake.openSessions).toBe(2);
    expect(fake.documents).toHaveLength(0);
    // Another printer is not held up by this one's queue.
    await printAndClose(ports[1], 'other printer\n');
    await fake.waitFor(() => fake.documents.find((d) => d.printerId === 'printer-1'), 5000, 'other printer served');

    for (const s of running) s.end();
    const docs = await fake.waitForDocuments(5, 10_000);
    const texts = docs.filter((d) => d.printerId === 'printer-0').map((d) => d.bytes.toString()).sort();
    expect(texts).toEqual(['running 0\n', 'running 1\n', 'waited 0\n', 'waited 1\n']);
    expect(lines.some((l) => l.includes('"outcome":"over-capacity"'))).toBe(true);
  });
});

describe('shutdown with connections waiting', () => {
  it('a waiting client that already wrote its job is read and finalised at shutdown, not dropped', async () => {
    const running = await Promise.all([connect(ports[0]), connect(ports[0])]);
    for (const [i, s] of running.entries()) {
      s.on('error', () => {});
      s.write(`running ${i}\n`);
    }
    await fake.waitFor(() => fake.openSessions === 2, 5000, 'two sessions');
    const waiting = await connect(ports[0]);
    waiting.on('error', () => {});
    waiting.write('waited until shutdown\n');
    await sleep(200);
    expect(fake.openSessions).toBe(2);
    await bridge!.stop();
    bridge = null;
    const docs = await fake.waitForDocuments(3, 10_000);
    expect(docs.map((d) => d.bytes.toString()).sort()).toEqual(['running 0\n', 'running 1\n', 'waited until shutdown\n']);
    expect(docs.every((d) => d.reason === 'stopped')).toBe(true);
  });
});

describe('idle timer under our own backpressure', () => {
  it('a client blocked because the Worker is not taking frames is not idle: its job arrives whole', async () => {
    fake.setListeners([listener(0, { idleTimeoutMs: 500, maxJobBytes: 64 * 1024 * 1024 }), listener(1)]);
    await fake.waitFor(() => lines.some((l) => l.includes('listener.updated')), 5000, 'update');
    const s = await connect(ports[0]);
    s.write('x');
    await fake.waitFor(() => fake.openSessions === 1, 5000, 'session');
    // The Worker stalls for 4 idle timeouts while 12 MiB arrive: the bridge pauses the socket.
    fake.stallSessions(2000);
    const job = Buffer.alloc(12 * 1024 * 1024, 0x41);
    s.end(job);
    const [doc] = await fake.waitForDocuments(1, 30_000);
    expect(doc.reason).toBe('closed');
    expect(doc.bytes.length).toBe(1 + job.length);
  });
});

describe('job duration', () => {
  it('a job still open after MAX_JOB_SECONDS is ended, finalised with what arrived, and its connection closed', async () => {
    fake.setListeners([listener(0, { maxJobSeconds: 1, idleTimeoutMs: 5000 }), listener(1)]);
    await fake.waitFor(() => lines.some((l) => l.includes('listener.updated')), 5000, 'update');
    const s = await connect(ports[0]);
    s.on('error', () => {});
    const trickle = setInterval(() => s.writable && s.write('.'), 100);
    const closed = await waitClosed(s, 5000);
    clearInterval(trickle);
    expect(closed.ms).toBeGreaterThanOrEqual(900);
    expect(closed.ms).toBeLessThan(5000);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc.reason).toBe('maxJobSeconds');
    expect(doc.bytes.length).toBeGreaterThan(3);
  });
});

describe('recovered jobs on disk', () => {
  it('a job the Worker never took is written to STATE_DIR at shutdown and sent by the next run', async () => {
    const workerPort = fake.port;
    await fake.stop();
    await printAndClose(ports[0], 'kept across a restart\n');
    await fake.waitFor(() => lines.some((l) => l.includes('recovery.queued')), 5000, 'queued');
    await bridge!.stop();
    bridge = null;
    const dir = join(stateDir, 'recovery');
    expect(readdirSync(dir).filter((f) => f.endsWith('.job'))).toHaveLength(1);

    await fake.start(workerPort);
    bridge = start();
    const [doc] = await fake.waitForDocuments(1, 15_000);
    expect(doc.bytes.toString()).toBe('kept across a restart\n');
    expect(doc.via).toBe('recovered');
    await fake.waitFor(() => readdirSync(dir).length === 0, 5000, 'file removed once sent');
  });

  it('keeps at most its memory bound in memory, spilling the rest to disk, in order', async () => {
    const dir = join(stateDir, 'spill');
    const queue = new RecoveryQueue({ workerUrl: 'http://127.0.0.1:1', secret: 'x', log, spillDir: dir, maxMemoryBytes: 1000 });
    for (let i = 0; i < 5; i++) {
      queue.add({ printerId: 'printer-0', sessionId: `s${i}`, clientAddress: '127.0.0.1', bytesSent: 0, error: '', endReason: 'closed', body: Buffer.alloc(600, 0x30 + i) });
    }
    queue.stop();
    // 600 bytes fit in memory; each further job went to disk.
    expect(readdirSync(dir)).toHaveLength(4);
    expect(queue.persist()).toBe(5);
    const next = new RecoveryQueue({ workerUrl: fake.url, secret: fake.secret, log, spillDir: dir });
    expect(next.loadSpilled()).toBe(5);
    const docs = await fake.waitForDocuments(5, 15_000);
    expect(docs.map((d) => d.sessionId)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    expect(docs.every((d) => d.error === '' && d.endReason === 'closed')).toBe(true);
    await fake.waitFor(() => !existsSync(dir) || readdirSync(dir).length === 0, 5000, 'files removed');
  });
});
