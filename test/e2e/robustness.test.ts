/**
 * Issue 17 against the real `npm start` (its own instance: this file stops, kills and restarts
 * it): SIGTERM with 20 jobs in flight loses none; kill -9 of the bridge keeps the service up and
 * loses none; 20 concurrent 16 MiB jobs are each whole or flagged; an open-loop client for 30 s
 * leaves the service up with every accepted job stored and memory bounded.
 * "Stored" means listed with all its bytes, or with an error message saying what happened.
 */
import { rmSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../bridge-unit/support/e2e.ts';
import { login, makePrinter } from '../bridge-unit/support/stack.ts';
import { connect, printAndClose, waitClosed } from '../bridge-unit/support/tcp.ts';
import { rssMb, serviceConfig, startService, type RunningService, type ServiceConfig } from '../support/npm-start.ts';

let config: ServiceConfig;
let service: RunningService;
let session: Awaited<ReturnType<typeof login>>;

beforeAll(async () => {
  config = await serviceConfig({ LISTENER_IDLE_TIMEOUT_MS: '30000', RATE_LIMIT_PER_MINUTE: '100000' });
  service = await startService(config);
  session = await login(service.baseUrl, 'robustness');
}, 180_000);

afterAll(async () => {
  await service?.stop();
  if (config) rmSync(config.stateDir, { recursive: true, force: true });
});

/** Every document of the printer, `pageSize` at a time (small pages for big documents). */
async function docs(printerId: string, pageSize = 100): Promise<any[]> {
  const out: any[] = [];
  let before = '';
  for (;;) {
    const r = await session.api('GET', `/api/printers/${printerId}/documents/canvas?Limit=${pageSize}${before}`);
    if (r.status !== 200) {
      // Said, not swallowed: a failing listing looked like missing documents (issue 17b).
      console.log(`[robustness] listing ${printerId} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      return out;
    }
    out.push(...r.body.result.items);
    if (!r.body.result.hasMore) return out;
    before = `&BeforeId=${r.body.result.items.at(-1).id}`;
  }
}

/** Whole (every byte the client sent) or flagged (an error says why not): never silently short. */
function wholeOrFlagged(doc: any, sent: number): boolean {
  return doc.bytesReceived === sent || (doc.errorMessages ?? []).length > 0;
}

/** Opens `n` connections spread over the printers, each sending its first part and staying open. */
async function jobsInFlight(printers: { id: string; port: number }[], n: number, tag: string) {
  const open: { socket: net.Socket; printerId: string; first: string }[] = [];
  for (let i = 0; i < n; i++) {
    const p = printers[i % printers.length];
    const socket = await connect(p.port);
    socket.on('error', () => {});
    const first = `${tag} ${String(i).padStart(2, '0')} first part\n`;
    socket.write(first);
    open.push({ socket, printerId: p.id, first });
  }
  return open;
}

async function storedWithTag(printerIds: string[], tag: string): Promise<any[]> {
  const all = (await Promise.all(printerIds.map((id) => docs(id)))).flat();
  return all.filter((d) => JSON.stringify(d.elements ?? d).includes(tag));
}

describe('shutdown and crashes lose nothing', () => {
  it('SIGTERM with 20 jobs in flight on 4 printers: exit in under 10 s; after npm start again 20 of 20 stored (whole or flagged)', async () => {
    const printers = await Promise.all([0, 1, 2, 3].map(() => makePrinter(session.api)));
    const open = await jobsInFlight(printers, 20, 'SIGTERM-JOB');
    // Every connection has reached its Durable Object (its bytes are forwarded as they come).
    await new Promise((r) => setTimeout(r, 1500));
    const stopped = await service.stop('SIGTERM');
    expect(stopped.code).toBe(0);
    console.log(`[robustness] SIGTERM to exit with 20 jobs in flight: ${stopped.ms} ms`);
    // Docker and many CI runners kill after 10 s (issue 25).
    expect(stopped.ms).toBeLessThan(10_000);
    await Promise.all(open.map((o) => waitClosed(o.socket, 5000)));

    service = await startService(config);
    const stored = await until(async () => {
      const found = await storedWithTag(printers.map((p) => p.id), 'SIGTERM-JOB');
      return found.length >= 20 && found;
    }, 60_000, '20 documents after the restart');
    expect(stored).toHaveLength(20);
    for (const doc of stored) expect(wholeOrFlagged(doc, open[0].first.length)).toBe(true);
  }, 240_000);

  it('kill -9 of the bridge: the service stays up, the bridge comes back, 20 of 20 stored', async () => {
    const printers = await Promise.all([0, 1, 2].map(() => makePrinter(session.api)));
    const open = await jobsInFlight(printers, 20, 'KILLED-BRIDGE-JOB');
    await new Promise((r) => setTimeout(r, 1500));
    const bridgePid = service.bridgePid();
    expect(bridgePid).not.toBeNull();
    process.kill(bridgePid!, 'SIGKILL');
    await Promise.all(open.map((o) => waitClosed(o.socket, 10_000)));
    // npm start is still running and restarts the bridge; the printers listen again.
    expect(service.child.exitCode).toBeNull();
    await until(() => { const pid = service.bridgePid(); return pid !== null && pid !== bridgePid; }, 30_000, 'a new bridge');
    await until(async () => (await session.api('GET', `/api/printers/${printers[0].id}`)).body.runtimeStatus.state === 'Started', 30_000, 'listening again');
    await printAndClose(printers[0].port, 'after the crash\n');

    const stored = await until(async () => {
      const found = await storedWithTag(printers.map((p) => p.id), 'KILLED-BRIDGE-JOB');
      return found.length >= 20 && found;
    }, 60_000, '20 documents of the killed bridge');
    expect(stored).toHaveLength(20);
    for (const doc of stored) expect(wholeOrFlagged(doc, open[0].first.length)).toBe(true);
    await until(async () => (await storedWithTag([printers[0].id], 'after the crash')).length === 1, 15_000, 'printing after the crash');
  }, 240_000);
});

describe('load', () => {
  it('an open-loop client for 30 s: the service stays up, every accepted job is stored, memory stays bounded', async () => {
    const printers = await Promise.all([0, 1].map(() => makePrinter(session.api)));
    const sent = new Map<string, string>(); // tag -> printerId
    const peak = { bridge: 0, workerd: 0 };
    const sample = setInterval(() => {
      const b = service.bridgePid();
      if (b) peak.bridge = Math.max(peak.bridge, rssMb(b));
      peak.workerd = Math.max(peak.workerd, service.workerdPids().reduce((s, p) => s + rssMb(p), 0));
    }, 250);
    const started = Date.now();
    const clients: Promise<void>[] = [];
    // 100 new jobs a second whatever happens to the earlier ones (open loop).
    for (let i = 0; Date.now() - started < 30_000; i++) {
      const p = printers[i % printers.length];
      const tag = `OPEN-LOOP-${String(i).padStart(5, '0')}`;
      sent.set(tag, p.id);
      clients.push(new Promise<void>((resolve) => {
        const s = net.connect(p.port, '127.0.0.1', () => s.end(`\x1b@${tag}\nsome receipt text\n`));
        s.on('error', () => resolve());
        s.on('close', () => resolve());
        s.setTimeout(120_000, () => s.destroy());
      }));
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(clients);
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`${service.baseUrl}/api/workspaces/greeting`)).status).toBe(200);
    // Accepted = read by the bridge (its connection log says so once the job is over); refused
    // ones were closed unread. Wait until no job of these printers is still running.
    const connections = () => service.bridgeLogs().filter((l) => l.event === 'connection' && printers.some((p) => p.id === l.printerId));
    let seen = -1;
    await until(() => {
      const now = connections().length;
      const quiet = now === seen;
      seen = now;
      return quiet;
    }, 120_000, 'every job over', 3000);
    const accepted = connections().filter((l) => l.bytesReceived > 0);
    const acceptedCount = accepted.length;
    const stored = await until(async () => {
      const found = await storedWithTag(printers.map((p) => p.id), 'OPEN-LOOP-');
      return found.length >= acceptedCount && found;
    }, 120_000, 'every accepted job stored');
    clearInterval(sample);
    console.log(`[robustness] open loop: ${sent.size} jobs offered, ${acceptedCount} accepted, ${stored.length} stored in ${(Date.now() - started) / 1000} s; peak RSS bridge ${peak.bridge.toFixed(0)} MB, workerd ${peak.workerd.toFixed(0)} MB`);
    expect(acceptedCount).toBeGreaterThan(100);
    expect(stored.length).toBe(acceptedCount);
    // Each job once: no document twice (a recovery of an already stored job is idempotent).
    const tags = stored.map((d) => /OPEN-LOOP-\d{5}/.exec(JSON.stringify(d.elements ?? d))?.[0]);
    expect(new Set(tags).size).toBe(stored.length);
    expect(peak.bridge).toBeLessThan(400);
    expect(peak.workerd).toBeLessThan(2048);
  }, 400_000);

  it('20 concurrent 16 MiB jobs: each whole or flagged, none silently short', async () => {
    // One job per printer, all at once: every printer object renders its 16 MiB while the
    // others do (with three printers, each object rendered seven in a row and jobs past the
    // bridge's finalise wait went the slow recovery path: see docs/decisions.md).
    const printers = await Promise.all(Array.from({ length: 20 }, () => makePrinter(session.api)));
    const line = Buffer.from('0123456789 the quick brown fox jumps over the lazy dog 0123456789\n'); // 66 bytes
    const size = 16 * 1024 * 1024;
    const body = Buffer.alloc(size);
    for (let o = 0; o < size; o += line.length) line.copy(body, o, 0, Math.min(line.length, size - o));
    const jobs = Array.from({ length: 20 }, (_, i) => {
      const p = printers[i % printers.length];
      const head = Buffer.from(`BIG-JOB-${String(i).padStart(2, '0')}\n`);
      const job = Buffer.concat([head, body.subarray(head.length)]);
      return { printerId: p.id, done: printAndClose(p.port, job).catch((e) => e) };
    });
    await Promise.all(jobs.map((j) => j.done));
    // Wait on the bridge's connection log (each names its document once finalised): listing
    // 20 documents of 16 MiB over and over would itself load the service.
    const ids = new Set(printers.map((p) => p.id));
    await until(() => service.bridgeLogs().filter((l) => l.event === 'connection' && ids.has(l.printerId) && (l.documentId || l.outcome === 'upstream-lost')).length >= 20, 300_000, '20 big jobs finalised', 1000);
    const stored = await until(async () => {
      const found = (await Promise.all(printers.map((p) => docs(p.id)))).flat();
      console.log(`[robustness] big documents listed: ${found.length} of 20`);
      return found.length >= 20 && found;
    }, 300_000, '20 big documents', 2000);
    expect(stored).toHaveLength(20);
    for (const doc of stored) expect(wholeOrFlagged(doc, size), `${doc.bytesReceived} bytes, errors ${JSON.stringify(doc.errorMessages)}`).toBe(true);
  }, 900_000);
});
