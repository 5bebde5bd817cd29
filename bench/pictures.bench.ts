/**
 * Cheap pictures (issue 26), through the real service as a user lives with it: each job is
 * printed over raw TCP to a printer of `npm start` (scripts/start.ts) whose canvas stream is
 * open, and timed from the first byte sent and from the client's close to the document's
 * `documentCanvasReady` on that stream. Jobs, every picture distinct (a new seed each round, so
 * nothing is reused from the round before): 2,000 and 20,000 tiny rasters (16x2 dots), 300
 * pictures of 64x64, and the driver-style receipt (576x2,400 dots sent as 100 GS v 0 bands of
 * 576x24). Printed: pictures per second from bytes to document (goal >= 2,000 for tiny ones) and
 * the time from close to document (goal <= 100 ms for the driver-style receipt).
 *
 * Side by side with an earlier commit in the same run (both under `npm start` at once, the
 * earlier one's sources extracted as bench/fairness.bench.ts does), rounds alternating between
 * the sides; the median round is printed with the range, and the machine's load average beside
 * each job (two shared cores). `npm run bench -- pictures`; BENCH_PICTURES_VS (default HEAD~1,
 * `none`: this commit alone), BENCH_PICTURES_ROUNDS (default 5).
 */
import net from 'node:net';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { login, makePrinter } from '../test/bridge-unit/support/stack.ts';
import { subscribe, type SseSubscription } from '../test/bridge-unit/support/e2e.ts';
import { serviceConfig, startService, type RunningService, type ServiceConfig } from '../test/support/npm-start.ts';
import { checkoutOf } from './fairness.bench.ts';

interface Side {
  name: string;
  config: ServiceConfig;
  service: RunningService;
  printer: { id: string; port: number };
  stream: SseSubscription;
}

interface Kind {
  name: string;
  pictures: number;
  bytes(seed: number): Buffer;
  /** The goal, as text, and whether a round's figures meet it. */
  goal: string;
  met(r: Timing): boolean;
}

interface Timing {
  /** First byte sent to document on the stream, ms. */
  total: number;
  /** The client's close to document on the stream, ms. */
  afterClose: number;
}

/** `n` distinct GS v 0 rasters of `wBytes` bytes x `h` rows, from `seed` (no two seeds alike). */
function rasters(n: number, wBytes: number, h: number, seed: number): Buffer {
  const header = 8;
  const out = Buffer.alloc(2 + n * (header + wBytes * h) + 4);
  out.set([0x1b, 0x40]);
  let at = 2;
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    out.set([0x1d, 0x76, 0x30, 0x00, wBytes & 0xff, wBytes >> 8, h & 0xff, h >> 8], at);
    at += header;
    for (let k = 0; k < wBytes * h; k++) out[at++] = ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24) & (k % 3 ? 0xff : 0x81);
    // The picture's number and the round's seed in its first bytes: distinct within and across rounds.
    out.writeUInt16LE(i & 0xffff, at - wBytes * h);
    if (wBytes * h >= 4) out.writeUInt16LE(seed & 0xffff, at - wBytes * h + 2);
  }
  out.set([0x1d, 0x56, 0x41, 0x03], at);
  return out;
}

const KINDS: Kind[] = [
  { name: 'tiny 16x2, 2,000', pictures: 2_000, bytes: (s) => rasters(2_000, 2, 2, s), goal: '>= 2,000 pictures/s', met: (r) => 2_000 / (r.total / 1000) >= 2_000 },
  { name: 'tiny 16x2, 20,000', pictures: 20_000, bytes: (s) => rasters(20_000, 2, 2, s), goal: '>= 2,000 pictures/s', met: (r) => 20_000 / (r.total / 1000) >= 2_000 },
  { name: '64x64, 300', pictures: 300, bytes: (s) => rasters(300, 8, 64, s), goal: '', met: () => true },
  { name: 'driver-style receipt (100 bands of 576x24)', pictures: 100, bytes: (s) => rasters(100, 72, 24, s), goal: '<= 100 ms close to document', met: (r) => r.afterClose <= 100 },
];

async function startSide(name: string, checkout?: string): Promise<Side> {
  const config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000' });
  const service = await startService(config, { root: checkout });
  const session = await login(service.baseUrl, 'pictures bench');
  const printer = await makePrinter(session.api);
  const stream = subscribe(service.baseUrl, `/api/printers/${printer.id}/documents/canvas/stream`, session.accessToken, { parseData: false });
  await stream.connected;
  return { name, config, service, printer, stream };
}

/** Sends `bytes` to the printer and waits for its document on the stream. */
async function printTimed(side: Side, bytes: Buffer): Promise<Timing> {
  const documents = () => side.stream.events.filter((e) => e.event === 'documentCanvasReady');
  const before = documents().length;
  const started = Date.now();
  const closed = await new Promise<number>((resolve, reject) => {
    const s = net.connect(side.printer.port, '127.0.0.1', () => s.end(bytes));
    s.on('error', reject);
    s.on('close', () => resolve(Date.now()));
    s.resume();
  });
  await side.stream.waitFor(() => documents().length > before, 300_000);
  const doc = documents()[before];
  return { total: doc.at - started, afterClose: Math.max(0, doc.at - closed) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const vs = process.env.BENCH_PICTURES_VS ?? 'HEAD~1';
  const rounds = Number(process.env.BENCH_PICTURES_ROUNDS ?? 5);
  const sides = [await startSide('this commit')];
  try {
    if (vs !== 'none') {
      const earlier = await checkoutOf(vs);
      sides.push(await startSide(`at ${earlier.sha}`, earlier.dir));
    }
    // Warm: the printers' objects, sessions and streams.
    for (const side of sides) await printTimed(side, rasters(10, 8, 8, 0));
    let seed = 1;
    console.log(`pictures, every one distinct, printed over TCP with the printer's canvas stream open; median of ${rounds} alternating rounds (range):`);
    for (const kind of KINDS) {
      const results = new Map<Side, Timing[]>(sides.map((s) => [s, []]));
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? [...sides].reverse() : sides) results.get(side)!.push(await printTimed(side, kind.bytes(seed++)));
      }
      console.log(`  ${kind.name} (load ${loadavg()[0].toFixed(1)} on 2 cores)${kind.goal ? `, goal ${kind.goal}` : ''}:`);
      for (const side of sides) {
        const rs = results.get(side)!;
        const perSecond = rs.map((t) => kind.pictures / (t.total / 1000));
        const after = rs.map((t) => t.afterClose);
        const mid = { total: median(rs.map((t) => t.total)), afterClose: median(after) };
        console.log(`    ${side.name.padEnd(14)} ${median(perSecond).toFixed(0).padStart(6)} pictures/s (${Math.min(...perSecond).toFixed(0)}-${Math.max(...perSecond).toFixed(0)}), `
          + `close to document ${median(after).toFixed(0)} ms (${Math.min(...after).toFixed(0)}-${Math.max(...after).toFixed(0)})${kind.goal ? (kind.met(mid) ? ' OK' : ' MISSED') : ''}`);
      }
    }
  } finally {
    for (const side of sides) {
      side.stream.close();
      await side.service.stop();
      rmSync(side.config.stateDir, { recursive: true, force: true });
    }
  }
}
