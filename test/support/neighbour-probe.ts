/**
 * "Other printers keep printing" (issue 25): a small receipt to each neighbour printer every
 * `everyMs`, timing each from the moment the client's TCP connection is closed to the arrival of
 * its `documentCanvasReady` on the printer's canvas stream. That is what a user watching another
 * printer lives with while one printer renders something heavy.
 */
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { subscribe, type SseSubscription } from '../bridge-unit/support/e2e.ts';
import { repeatProbe, type Probe } from './latency-probe.ts';
import { makePrinter, type login } from '../bridge-unit/support/stack.ts';

export interface Neighbour {
  id: string;
  port: number;
  /** A token of the printer's workspace (the stream needs it). */
  accessToken: string;
}

/** `samples`: close-to-canvas-event times in ms of every receipt that arrived; `failures`: receipts not printed or not announced within the timeout. */
export type NeighbourProbe = Probe;

function printClosed(port: number, data: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.end(data));
    s.on('error', reject);
    s.on('close', () => resolve(Date.now()));
    s.resume();
  });
}

function receipt(marker: string): Buffer {
  return Buffer.from(`\x1b@\x1ba\x01NEIGHBOUR\n\x1ba\x00${marker}\n1 x Coffee          3.20\nTOTAL               3.20\n\x1dVA\x03`, 'latin1');
}

export async function startNeighbourProbe(baseUrl: string, neighbours: Neighbour[], everyMs = 250, timeoutMs = 120_000): Promise<NeighbourProbe> {
  const streams: SseSubscription[] = neighbours.map((n) => subscribe(baseUrl, `/api/printers/${n.id}/documents/canvas/stream`, n.accessToken, { parseData: false }));
  await Promise.all(streams.map((s) => s.connected));
  const perNeighbour = neighbours.map((n, i) => repeatProbe(everyMs, async () => {
    const marker = randomUUID();
    const closedAt = await printClosed(n.port, receipt(marker));
    const ev = await streams[i].waitFor((e) => e.event === 'documentCanvasReady' && (e.data as string).includes(marker), timeoutMs);
    return Math.max(0, ev.at - closedAt);
  }));
  return {
    get samples() { return perNeighbour.flatMap((p) => p.samples); },
    get failures() { return perNeighbour.reduce((sum, p) => sum + p.failures, 0); },
    async stop() {
      await Promise.all(perNeighbour.map((p) => p.stop()));
      for (const s of streams) s.close();
    },
  };
}

type WorkspaceSession = Awaited<ReturnType<typeof login>>;

/**
 * The two neighbours every fairness figure watches: one printer in `here`'s workspace and one in
 * `elsewhere`'s, each printed to for 1.5 s before anything is measured (objects and streams warm).
 */
export async function warmNeighbours(baseUrl: string, here: WorkspaceSession, elsewhere: WorkspaceSession): Promise<Neighbour[]> {
  const neighbours = [
    { ...(await makePrinter(here.api)), accessToken: here.accessToken },
    { ...(await makePrinter(elsewhere.api)), accessToken: elsewhere.accessToken },
  ];
  const warm = await startNeighbourProbe(baseUrl, neighbours);
  await new Promise((r) => setTimeout(r, 1500));
  await warm.stop();
  return neighbours;
}
