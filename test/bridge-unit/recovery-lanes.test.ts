/**
 * The recovery queue against a real HTTP server standing in for the Worker's recovery route:
 * a printer whose object is slow to store its jobs does not hold back another printer's, and
 * one printer's jobs still arrive in the order they were received.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Backoff } from '../../tcp-bridge/backoff.ts';
import { createLogger } from '../../tcp-bridge/log.ts';
import { RecoveryQueue, type RecoveredJob } from '../../tcp-bridge/recovery.ts';

interface Received {
  printerId: string;
  sessionId: string;
  at: number;
}

let server: Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** Answers each recovery POST after `delayFor(printerId)` ms; records arrivals in order. */
async function recoveryRoute(delayFor: (printerId: string) => number): Promise<{ url: string; received: Received[]; stored: Received[] }> {
  const received: Received[] = [];
  const stored: Received[] = [];
  server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const printerId = decodeURIComponent(url.pathname.split('/')[4] ?? '');
    const sessionId = url.searchParams.get('sessionId') ?? '';
    received.push({ printerId, sessionId, at: Date.now() });
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        stored.push({ printerId, sessionId, at: Date.now() });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ documentId: `${sessionId}-doc` }));
      }, delayFor(printerId));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, received, stored };
}

const job = (printerId: string, sessionId: string): RecoveredJob => ({
  printerId,
  sessionId,
  clientAddress: '127.0.0.1',
  bytesSent: 0,
  error: '',
  endReason: 'closed',
  body: Buffer.from(`job ${sessionId}`),
});

async function until(predicate: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('recovery lanes', () => {
  it("sends another printer's job while a busy printer's object is still storing", async () => {
    const route = await recoveryRoute((printerId) => (printerId === 'busy' ? 1_500 : 0));
    const queue = new RecoveryQueue({ workerUrl: route.url, secret: 's', log: createLogger('silent'), backoff: () => new Backoff({ initialMs: 10 }) });
    queue.add(job('busy', 'b1'));
    queue.add(job('busy', 'b2'));
    queue.add(job('idle', 'i1'));
    await until(() => route.stored.some((r) => r.sessionId === 'i1'), 5_000);
    // The idle printer's job was stored before the busy printer's first one.
    expect(route.stored.map((r) => r.sessionId)).toEqual(['i1']);
    expect(await queue.drain(10_000)).toBe(0);
    expect(route.stored.map((r) => r.sessionId)).toEqual(['i1', 'b1', 'b2']);
  });

  it("keeps one printer's jobs in the order they were queued, one at a time", async () => {
    const route = await recoveryRoute(() => 30);
    const queue = new RecoveryQueue({ workerUrl: route.url, secret: 's', log: createLogger('silent'), maxLanes: 2 });
    for (let i = 0; i < 5; i++) queue.add(job('p', `p${i}`));
    for (let i = 0; i < 3; i++) queue.add(job('q', `q${i}`));
    for (let i = 0; i < 3; i++) queue.add(job('r', `r${i}`));
    expect(await queue.drain(10_000)).toBe(0);
    for (const printer of ['p', 'q', 'r']) {
      const mine = route.received.filter((r) => r.printerId === printer).map((r) => r.sessionId);
      expect(mine).toEqual([...mine].sort());
      // One at a time: each job of a printer arrives after the previous one was stored.
      const arrivals = route.received.filter((r) => r.printerId === printer);
      const stores = route.stored.filter((r) => r.printerId === printer);
      for (let i = 1; i < arrivals.length; i++) expect(arrivals[i].at).toBeGreaterThanOrEqual(stores[i - 1].at);
    }
    // Never more than maxLanes printers at once: r waited for p or q to finish.
    const firstR = route.received.find((r) => r.printerId === 'r')!;
    const finished = ['p', 'q'].map((printer) => route.stored.filter((r) => r.printerId === printer).at(-1)!.at);
    expect(firstR.at).toBeGreaterThanOrEqual(Math.min(...finished));
  });
});
