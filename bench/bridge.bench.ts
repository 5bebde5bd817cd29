/**
 * tcp-bridge benchmark: status round trips, TCP close -> documentCanvasReady under load, and
 * 1,000 listening printers on one bridge. Starts its own wrangler dev + bridge, or uses
 * BENCH_BASE_URL (with BENCH_BRIDGE_PID, when given, for the RSS figure).
 *
 * Targets (issue): DLE EOT round trip p50 < 5 ms, p99 < 20 ms; TCP close -> documentCanvasReady
 * for a 4 KB receipt p50 < 50 ms with 50 printers printing at once; 1,000 printers: bridge RSS
 * < 150 MB and every port answers.
 *
 * BENCH_BRIDGE_PRINTERS (default 1000) and BENCH_BRIDGE_ROUNDS (default 21, the first a warm-up; bursts vary, so the p50 needs many) scale it.
 */
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { eventLog, type SseSubscription } from '../test/bridge-unit/support/e2e.ts';
import { login, makePrinter, startStack, type Stack } from '../test/bridge-unit/support/stack.ts';
import { connect, readBytes, waitClosed } from '../test/bridge-unit/support/tcp.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms (n=${xs.length})`;
const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');

function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function receipt4k(tag: string): Buffer {
  let text = `\x1b@\x1ba\x01\x1bE\x01SLIPSTREAM BENCH ${tag}\x1bE\x00\n\x1ba\x00`;
  for (let i = 0; text.length < 4000; i++) text += `${String(i).padStart(3, '0')} Item ${'abcdefghij'.slice(0, 2 + (i % 10))}`.padEnd(38, '.') + ` ${((i + 1) * 1.25).toFixed(2)}\n`;
  return Buffer.from(text.slice(0, 4096 - 3) + '\x1dV\x00', 'latin1');
}

/**
 * A lean canvas-stream client: node:http (not fetch, whose web streams cost far more per chunk)
 * and no decoding: it stamps each event's arrival by finding the blank line that ends it and
 * reads only its `event:` and `id:` lines. A 4 KB receipt's document is ~76 KB of JSON; a
 * heavier client would take, from the two cores it shares with the service under test, the
 * time it is measuring. Events carry no data.
 */
function arrivals(baseUrl: string, path: string, accessToken: string): SseSubscription {
  const log = eventLog(path);
  const HEAD = 200; // the id: and event: lines come first
  let head: number[] = [];
  let afterLf = false;
  const emit = (at: number) => {
    let event = '';
    let id: string | undefined;
    for (const line of String.fromCharCode(...head).split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('id:')) id = line.slice(3).trim();
    }
    head = [];
    if (event) log.push({ event, data: undefined, id, at }); // else a comment (": connected", ": keep-alive")
  };
  const onChunk = (chunk: Buffer) => {
    const at = Date.now();
    for (let pos = 0; ; ) {
      const lf = chunk.indexOf(10, pos);
      const end = lf < 0 ? chunk.length : lf;
      if (end > pos) {
        afterLf = false;
        for (let i = pos; i < end && head.length < HEAD; i++) head.push(chunk[i]);
      }
      if (lf < 0) return;
      if (afterLf) {
        emit(at); // a blank line ends the event
        afterLf = false;
      } else {
        if (head.length < HEAD) head.push(10);
        afterLf = true;
      }
      pos = lf + 1;
    }
  };
  let request: http.ClientRequest | null = null;
  const connected = new Promise<void>((resolve, reject) => {
    request = http.get(baseUrl + path, { headers: { authorization: `Bearer ${accessToken}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`SSE ${path}: ${res.statusCode}`));
        return;
      }
      res.on('data', onChunk);
      res.on('error', () => {});
      resolve();
    });
    request.on('error', reject);
  });
  connected.catch(() => {});
  return { events: log.events, connected, waitFor: log.waitFor, close: () => request?.destroy() };
}

/** Runs fn over items, n at a time; the first error is thrown once every worker has stopped. */
async function poolMap<T, R>(items: T[], n: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: unknown = null;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length && failure === null) {
        const i = next++;
        try {
          out[i] = await fn(items[i], i);
        } catch (err) {
          failure ??= err;
        }
      }
    }),
  );
  if (failure !== null) throw failure;
  return out;
}

export async function run(): Promise<void> {
  let stack: Stack | null = null;
  let baseUrl = process.env.BENCH_BASE_URL;
  let bridgePid = process.env.BENCH_BRIDGE_PID ? Number(process.env.BENCH_BRIDGE_PID) : null;
  if (!baseUrl) {
    const t0 = Date.now();
    // One workspace holds all the printers: lift MAX_PRINTERS_PER_WORKSPACE (100) for it.
    stack = await startStack({ vars: { LISTENER_IDLE_TIMEOUT_MS: '2000', MAX_PRINTERS_PER_WORKSPACE: '100000' } });
    baseUrl = stack.baseUrl;
    bridgePid = stack.bridge.child.pid ?? null;
    console.log(`started wrangler dev + bridge in ${Date.now() - t0} ms (${baseUrl})`);
  }
  try {
    const { api, accessToken } = await login(baseUrl, 'bridge bench');

    // 1. DLE EOT round trip on an open connection.
    {
      const p = await makePrinter(api);
      const s = await connect(p.port);
      const rtt: number[] = [];
      for (let i = 0; i < 2200; i++) {
        const t = performance.now();
        s.write(Buffer.from([0x10, 0x04, 1 + (i % 4)]));
        await readBytes(s, 1);
        if (i >= 200) rtt.push(performance.now() - t);
      }
      s.end();
      await waitClosed(s);
      const first: number[] = [];
      for (let i = 0; i < 50; i++) {
        const t = performance.now();
        const c = await connect(p.port);
        c.write(Buffer.from([0x10, 0x04, 1]));
        await readBytes(c, 1);
        first.push(performance.now() - t);
        c.destroy();
      }
      console.log(`DLE EOT round trip (bridge + Worker, loopback): ${fmt(rtt)}  [target p50 < 5, p99 < 20: ${verdict(pct(rtt, 50) < 5 && pct(rtt, 99) < 20)}]`);
      console.log(`  connect + first DLE EOT reply on a new connection: ${fmt(first)}`);
    }

    // 2. TCP close -> documentCanvasReady, 4 KB receipt, 50 printers at once.
    {
      const printers = await poolMap(Array.from({ length: 50 }, (_, i) => i), 10, () => makePrinter(api));
      const streams = printers.map((p) => arrivals(baseUrl!, `/api/printers/${p.id}/documents/canvas/stream`, accessToken));
      await Promise.all(streams.map((s) => s.connected));
      await new Promise((r) => setTimeout(r, 300));
      const rounds = Number(process.env.BENCH_BRIDGE_ROUNDS ?? 21);
      const lat: number[] = [];
      const burstMedians: number[] = [];
      for (let round = 0; round < rounds; round++) {
        // Each round is a burst: every printer prints at the same moment, once the previous
        // burst has settled (the Worker's background work included). Back-to-back rounds would
        // measure sustained throughput instead, which the single-threaded local workerd bounds.
        if (round > 0) await new Promise((r) => setTimeout(r, 500));
        const seen = streams.map((s) => s.events.filter((e) => e.event === 'documentCanvasReady').length);
        // Made before the burst: the client's own work must not compete with what it measures.
        const receipts = printers.map((_, i) => receipt4k(`${round}/${i}`));
        const closedAt: number[] = [];
        const arrivedAt: number[] = [];
        await Promise.all(
          printers.map(async (p, i) => {
            const s = await connect(p.port);
            await new Promise<void>((r) => s.write(receipts[i], () => r()));
            closedAt[i] = Date.now();
            s.end();
          }),
        );
        await Promise.all(
          streams.map(async (st, i) => {
            const ev = await st.waitFor((e) => e.event === 'documentCanvasReady' && st.events.filter((x) => x.event === 'documentCanvasReady').indexOf(e) >= seen[i], 30_000);
            arrivedAt[i] = ev.at;
          }),
        );
        if (round > 0) {
          // Round 0 warms up.
          const burst = arrivedAt.map((at, i) => at - closedAt[i]);
          lat.push(...burst);
          burstMedians.push(pct(burst, 50));
        }
      }
      for (const s of streams) s.close();
      console.log(`TCP close -> documentCanvasReady, 4 KB receipt, 50 printers at once: ${fmt(lat)}  [target p50 < 50: ${verdict(pct(lat, 50) < 50)}]`);
      // Within a burst the events leave workerd together (its one thread takes the jobs in turn,
      // stage by stage), so a burst's median is near its maximum; bursts differ with what else
      // the machine's cores are doing at that moment.
      console.log(`  median of each burst: ${[...burstMedians].sort((a, b) => a - b).join(', ')} ms`);
      if (stack) {
        // The bridge logs, per connection, the time from its `end` to the Worker's `finalised`.
        const worker = stack.bridge.logs().filter((l) => l.event === 'connection' && typeof l.finaliseMs === 'number' && l.bytesIn > 4000).map((l) => l.finaliseMs as number);
        if (worker.length) console.log(`  bridge 'end' -> 'finalised' (the job durable in D1, after the 150 ms write window): ${fmt(worker)}`);
        const jobs = stack.bridge.logs().filter((l) => l.event === 'connection' && l.bytesIn > 4000);
        if (jobs.length) console.log(`  sessions started on a warm spare (no upgrade on the connection's path): ${jobs.filter((l) => l.spare).length}/${jobs.length}`);
      }
      // The same with one printer at a time: the latency without queueing in the Worker (once
      // the last burst's documents are written).
      await new Promise((r) => setTimeout(r, 500));
      const solo: number[] = [];
      for (let i = 0; i < 20; i++) {
        const reopened = arrivals(baseUrl!, `/api/printers/${printers[0].id}/documents/canvas/stream`, accessToken);
        await reopened.connected;
        const s = await connect(printers[0].port);
        await new Promise<void>((r) => s.write(receipt4k(`solo ${i}`), () => r()));
        const t = Date.now();
        s.end();
        const ev = await reopened.waitFor((e) => e.event === 'documentCanvasReady', 30_000);
        solo.push(ev.at - t);
        reopened.close();
      }
      console.log(`TCP close -> documentCanvasReady, 4 KB receipt, one printer at a time: ${fmt(solo)}`);
    }

    // 3. Many printers on one bridge.
    {
      const n = Number(process.env.BENCH_BRIDGE_PRINTERS ?? 1000);
      const before = bridgePid ? rssMb(bridgePid) : null;
      const t0 = Date.now();
      const printers = await poolMap(Array.from({ length: n }, (_, i) => i), 16, async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await makePrinter(api);
          } catch (err) {
            if (attempt >= 3) throw err;
          }
        }
      });
      const createMs = Date.now() - t0;
      await new Promise((r) => setTimeout(r, 1000));
      const idleRss = bridgePid ? rssMb(bridgePid) : null;
      let answered = 0;
      const failures: string[] = [];
      let peakRss = idleRss ?? 0;
      const t1 = Date.now();
      await poolMap(printers, 64, async (p) => {
        try {
          const s = await connect(p.port);
          s.write(Buffer.from([0x10, 0x04, 1]));
          const b = await readBytes(s, 1, 10_000);
          if ((b[0] & 0x93) === 0x12) answered++;
          else failures.push(`${p.port}: reply ${b[0]}`);
          s.end();
          await waitClosed(s);
        } catch (err) {
          failures.push(`${p.port}: ${(err as Error).message}`);
        }
        if (bridgePid && answered % 100 === 0) peakRss = Math.max(peakRss, rssMb(bridgePid) ?? 0);
      });
      const probeMs = Date.now() - t1;
      const afterRss = bridgePid ? rssMb(bridgePid) : null;
      peakRss = Math.max(peakRss, afterRss ?? 0);
      console.log(`${n} printers created in ${createMs} ms; every port probed (connect + DLE EOT 1) in ${probeMs} ms: ${answered}/${n} answered  [${verdict(answered === n)}]`);
      if (stack) {
        const ids = new Set(printers.map((p) => p.id));
        const probeLogs = () => stack!.bridge.logs().filter((l) => l.event === 'connection' && ids.has(l.printerId));
        // A connection is logged once the Worker finalised it, shortly after the client saw the close.
        for (let i = 0; i < 50 && probeLogs().length < answered; i++) await new Promise((r) => setTimeout(r, 100));
        const probes = probeLogs();
        console.log(`  probe connections on a warm spare: ${probes.filter((l) => l.spare).length}/${probes.length}`);
      }
      if (failures.length) console.log(`  failures: ${failures.slice(0, 5).join('; ')}${failures.length > 5 ? ' ...' : ''}`);
      if (bridgePid) {
        console.log(`bridge RSS: ${before?.toFixed(1)} MB before, ${idleRss?.toFixed(1)} MB with ${n} listeners idle, peak ${peakRss.toFixed(1)} MB while probing  [target < 150: ${verdict(peakRss < 150)}]`);
      } else console.log('bridge RSS: not measured (set BENCH_BRIDGE_PID with BENCH_BASE_URL)');
    }
  } finally {
    if (stack) {
      await stack.stop();
      rmSync(stack.stateDir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
