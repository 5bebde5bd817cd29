/**
 * Document storage through the real service (`npm start`: wrangler's local server and the
 * bundled bridge, raw TCP): sustained documents/s with 1, 10 and 50 printers printing the 3.5 KB text receipt
 * (bench/escpos.bench.ts) back to back, D1 statements per document (counted inside the Worker's
 * isolate, COUNT_D1_STATEMENTS=1), CPU per document (/proc) of the Worker's workerd process
 * (the Worker, its Durable Objects, local D1 and R2), of wrangler's dev proxy in front of it
 * (a second workerd that every request and WebSocket frame passes locally; not on Cloudflare),
 * of the bridge and of the TCP clients, with the whole machine's load (its busy share and load
 * average over two cores shared with other work: documents/s moves with it), and a document's
 * bytes (JSON, gzip at rest, a page of 20 on the wire).
 *
 * Side by side: the previous commit's `npm start` (its sources, scripts and bridge, extracted as
 * bench/fairness.bench.ts does) runs beside this checkout's, in alternating rounds
 * (BENCH_STORAGE_ROUNDS, default 4), and the ratios are printed round by round;
 * `BENCH_STORAGE_VS=<commit>` names another commit, `BENCH_STORAGE_VS=none` runs this checkout
 * alone. bench/stages.bench.ts splits the Worker's CPU per document into its stages;
 * bench/worker-profile.ts takes a CPU profile of it, bench/workerd-perf.ts a perf profile of
 * the whole workerd process (native code, SQLite commits, garbage collection).
 *
 * Before documents moved into the printers' Durable Objects (issue 19, same machine):
 * ~68 / 90 / 101 documents/s, ~6 D1 statements and ~9 ms Worker CPU per document, 124 KB per
 * receipt. Goals: >= 300 documents/s with 50 printers, <= 0.1 D1 statements and <= 2 ms Worker CPU per
 * document. `npm run bench -- storage`; BENCH_STORAGE_JOBS scales the jobs per run (default 600, at least 20 per printer).
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { login, makePrinter } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { serviceConfig, startService, type RunningService, type ServiceConfig } from '../test/support/npm-start.ts';
import { textReceipt } from './escpos.bench.ts';
import { checkoutOf } from './fairness.bench.ts';
import { COUNTER_FLUSH_MS } from '../src/worker/objects/counter-outbox.ts';
import { buildDocument } from '../src/worker/services/document-builder.ts';
import { gzip } from '../src/worker/services/gzip.ts';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds a process has used so far (utime + stime); 0 once it is gone. */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by wrangler dev's workerd processes: `worker`, the one running the
 * Worker (its Durable Objects, local D1 and R2: what Cloudflare would run), and `devProxy`,
 * wrangler's own proxy in front of it (every request and WebSocket frame passes it; it does not
 * exist on Cloudflare).
 */
export function workerdCpuSeconds(rootPid: number): { worker: number; devProxy: number } {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
  const kids = (p: string): string[][] => rows.filter((r) => r[1] === p).flatMap((r) => [r, ...kids(r[0])]);
  const out = { worker: 0, devProxy: 0 };
  for (const r of kids(String(rootPid))) {
    if (!/\/workerd$/.test(r[2] ?? '')) continue;
    // The Worker's instance is the one with an inspector (wrangler's --inspector-port).
    out[r.some((a) => a.startsWith('--inspector-addr')) ? 'worker' : 'devProxy'] += processCpuSeconds(Number(r[0]));
  }
  return out;
}

async function d1Statements(side: Side): Promise<number> {
  const r = await fetch(`${side.service.baseUrl}/internal/stats`, { headers: { authorization: `Bearer ${side.config.env.BRIDGE_SECRET}` } });
  // NaN where the service cannot count them (the design before issue 19 had no /internal/stats).
  return r.ok ? ((await r.json()) as { d1Statements: number }).d1Statements : Number.NaN;
}

async function poolMap<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/** Printer ports per side (its block): 61 printers (1, 10 and 50), each listening on a port of its own. */
const PORTS_PER_SIDE = 100;
const takenBlocks = new Set<number>();

/**
 * A printer port block no other program listens in (the machine runs other engineers'
 * services, and each side of the bench needs one of its own): below the ephemeral range.
 */
async function freePortBlock(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 100) * 100;
    if (takenBlocks.has(base)) continue;
    const servers: net.Server[] = [];
    const free = await (async () => {
      for (let port = base; port < base + PORTS_PER_SIDE; port++) {
        const srv = net.createServer();
        const ok = await new Promise<boolean>((r) => { srv.once('error', () => r(false)); srv.listen(port, '127.0.0.1', () => r(true)); });
        if (!ok) return false;
        servers.push(srv);
      }
      return true;
    })();
    await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
    if (free) {
      takenBlocks.add(base);
      return base;
    }
  }
  throw new Error('no free printer port block');
}

/** One running service the bench prints to: its `npm start`, its API and its finalised-job count. */
interface Side {
  name: string;
  config: ServiceConfig;
  service: RunningService;
  api: Awaited<ReturnType<typeof login>>['api'];
  finalisedFor(ids: Set<string>): number;
}

/**
 * `npm start` of this checkout or of an earlier commit's tree (`checkout`), as a user runs it:
 * its own scripts/start.ts (how wrangler is started is part of what is compared). The Worker's
 * inspector is on (INSPECT=1: a port the system picks) only to tell its workerd from wrangler's
 * dev proxy; the D1 statement count is a setting of the dev vars file.
 */
async function startSide(name: string, checkout?: string): Promise<Side> {
  const config = await serviceConfig({
    LISTENER_IDLE_TIMEOUT_MS: '2000', RATE_LIMIT_PER_MINUTE: '1000000', INSPECT: '1', LOG_LEVEL: 'info',
    PRINTER_PORT_BASE: String(await freePortBlock()), PRINTER_PORT_COUNT: String(PORTS_PER_SIDE),
  });
  const devVars = join(config.stateDir, 'bench.vars');
  writeFileSync(devVars, 'COUNT_D1_STATEMENTS=1\n');
  config.env.SLIPSTREAM_DEV_VARS = devVars;
  const service = await startService(config, { root: checkout });
  const { api } = await login(service.baseUrl, 'storage bench');
  // Finalised jobs per printer, from the bridge's log as it is written.
  const done = new Map<string, number>();
  let partial = '';
  service.child.stdout!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"connection"')) continue;
      try {
        const l = JSON.parse(line);
        // A connection's log line comes once its job is finalised (or handed over for recovery).
        if (l.event === 'connection') done.set(l.printerId, (done.get(l.printerId) ?? 0) + 1);
      } catch { /* not a log line */ }
    }
  });
  return { name, config, service, api, finalisedFor: (ids) => [...ids].reduce((n, id) => n + (done.get(id) ?? 0), 0) };
}

/** The commit to run beside this checkout (null: alone, when asked or when there is no git history here). */
function previousCommit(spec: string): string | null {
  if (spec === 'none') return null;
  try {
    return execFileSync('git', ['rev-parse', '--short', spec], { cwd: join(import.meta.dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    console.log(`(no commit ${spec} here: this checkout alone)`);
    return null;
  }
}

/** A printer's documents, counted page by page (a page ends early past 8 MiB of JSON). */
async function countDocuments(api: Side['api'], printerId: string): Promise<number> {
  let n = 0;
  for (let before = ''; ;) {
    const { result } = (await api('GET', `/api/printers/${printerId}/documents/canvas?Limit=100${before && `&BeforeId=${before}`}`)).body;
    n += result.items.length;
    if (!result.hasMore) return n;
    before = result.nextBeforeId;
  }
}

interface Round { jobs: number; seconds: number; worker: number; devProxy: number; bridge: number; client: number; machineBusy: number; loadAverage: number }

/** Busy and total CPU ticks of the whole machine (all cores, every process: other users' too). */
function machineTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - (f[4] ?? 0), total }; // idle, iowait
}

/** Each printer prints `perPrinter` receipts back to back; the figures once all are finalised. */
async function printRound(side: Side, printers: { id: string; port: number }[], perPrinter: number, receipt: Buffer): Promise<Round> {
  const ids = new Set(printers.map((p) => p.id));
  const jobs = perPrinter * printers.length;
  const cpu0 = workerdCpuSeconds(side.service.child.pid!);
  const bridge0 = processCpuSeconds(side.service.bridgePid() ?? 0);
  const done0 = side.finalisedFor(ids);
  const client0 = process.cpuUsage();
  const machine0 = machineTicks();
  const t0 = performance.now();
  // The next connection as soon as the last one closed.
  await Promise.all(printers.map(async (p) => {
    for (let i = 0; i < perPrinter; i++) await printAndClose(p.port, receipt);
  }));
  await until(() => side.finalisedFor(ids) - done0 >= jobs, 300_000, () => `${side.finalisedFor(ids) - done0}/${jobs} jobs finalised`);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = workerdCpuSeconds(side.service.child.pid!);
  const client = process.cpuUsage(client0);
  const machine = machineTicks();
  return {
    jobs, seconds, worker: cpu.worker - cpu0.worker, devProxy: cpu.devProxy - cpu0.devProxy, bridge: processCpuSeconds(side.service.bridgePid() ?? 0) - bridge0,
    client: (client.user + client.system) / 1e6, machineBusy: (machine.busy - machine0.busy) / (machine.total - machine0.total), loadAverage: loadavg()[0],
  };
}

function sum(rounds: Round[]): Round {
  const total = rounds.reduce((a, r) => ({
    jobs: a.jobs + r.jobs, seconds: a.seconds + r.seconds, worker: a.worker + r.worker, devProxy: a.devProxy + r.devProxy, bridge: a.bridge + r.bridge,
    client: a.client + r.client, machineBusy: a.machineBusy + r.machineBusy * r.seconds, loadAverage: a.loadAverage + r.loadAverage * r.seconds,
  }), { jobs: 0, seconds: 0, worker: 0, devProxy: 0, bridge: 0, client: 0, machineBusy: 0, loadAverage: 0 });
  return { ...total, machineBusy: total.machineBusy / total.seconds, loadAverage: total.loadAverage / total.seconds };
}

function describe(r: Round): string {
  const perDoc = (s: number) => ((s * 1000) / r.jobs).toFixed(2);
  return `${(r.jobs / r.seconds).toFixed(0)} documents/s (${r.jobs} receipts in ${r.seconds.toFixed(1)} s); `
    + `CPU ms/document: Worker ${perDoc(r.worker)}, wrangler's dev proxy ${perDoc(r.devProxy)}, bridge ${perDoc(r.bridge)}, TCP clients ${perDoc(r.client)}; `
    + `machine ${(r.machineBusy * 100).toFixed(0)} % busy, load average ${r.loadAverage.toFixed(1)} on 2 cores`;
}

export async function run(): Promise<void> {
  const receipt = Buffer.from(textReceipt());
  const totalJobs = Number(process.env.BENCH_STORAGE_JOBS ?? 600);
  const vs = previousCommit(process.env.BENCH_STORAGE_VS ?? 'HEAD~1');
  // Alternating rounds, so that the machine's load (two shared cores) hits both designs alike.
  const rounds = vs ? Number(process.env.BENCH_STORAGE_ROUNDS ?? 4) : 1;
  const sides = [await startSide('this design')];
  try {
    if (vs) sides.push(await startSide(`at ${vs}`, (await checkoutOf(vs)).dir));
    const [main] = sides;
    for (const printerCount of [1, 10, 50]) {
      const printersOf = new Map<Side, { id: string; port: number }[]>();
      for (const side of sides) {
        const printers: { id: string; port: number }[] = [];
        await poolMap(Array.from({ length: printerCount }, (_, i) => i), 10, async () => { printers.push(await makePrinter(side.api)); });
        printersOf.set(side, printers);
        // warm-up: one job per printer (sessions, spares, objects started)
        await printRound(side, printers, 1, receipt);
      }
      // At least 20 each, so that the counters' flushes and the connection log's batches are
      // spread over a sustained run, not over a burst of a few jobs per printer.
      const perPrinter = Math.max(20, Math.ceil(totalJobs / printerCount / rounds));
      const d1Before = await d1Statements(main);
      const results = new Map<Side, Round[]>(sides.map((s) => [s, []]));
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? [...sides].reverse() : sides) results.get(side)!.push(await printRound(side, printersOf.get(side)!, perPrinter, receipt));
      }
      const mine = sum(results.get(main)!);
      // The counters' outbox flushes within 30 s of a printer's first unflushed document:
      // wait for it, so the D1 figure includes every flush the run caused.
      await new Promise((r) => setTimeout(r, COUNTER_FLUSH_MS + 2_000));
      const d1 = (await d1Statements(main)) - d1Before;
      // Every job is a stored document (checked after the D1 figure: these reads are not the printing path's).
      const printers = printersOf.get(main)!;
      const stored = (await Promise.all(printers.map((p) => countDocuments(main.api, p.id)))).reduce((a, b) => a + b, 0);
      if (stored !== mine.jobs + printerCount) console.log(`  (stored ${stored} documents for ${mine.jobs + printerCount} jobs)`);
      console.log(`${String(printerCount).padStart(2)} printer(s): ${describe(mine)}; ${(d1 / mine.jobs).toFixed(3)} D1 statements/document (${d1}, flushes included)`);
      for (const side of sides.slice(1)) {
        const theirs = sum(results.get(side)!);
        const ratio = (f: (r: Round) => number) => {
          const xs = results.get(main)!.map((m, i) => f(m) / f(results.get(side)![i])).sort((a, b) => a - b);
          return `${(f(mine) / f(theirs)).toFixed(2)} (rounds ${xs.map((x) => x.toFixed(2)).join(' ')})`;
        };
        console.log(`            ${side.name}: ${describe(theirs)}`);
        console.log(`            this / ${side.name}: documents/s ${ratio((r) => r.jobs / r.seconds)}, Worker CPU/document ${ratio((r) => r.worker / r.jobs)}`);
      }
    }
    // One document's size.
    const { api } = main;
    const [p] = (await api('GET', '/api/printers')).body as any[];
    const page = await api('GET', `/api/printers/${p.printer.id}/documents/canvas?Limit=20`);
    const items = page.body.result.items as unknown[];
    const one = JSON.stringify(items[0]);
    const pageJson = JSON.stringify(page.body);
    // At rest the printer object keeps the compact body, gzipped (services/compact-body.ts).
    const { canvases, ...fields } = items[0] as { canvases: Parameters<typeof buildDocument>[1] };
    const atRest = gzip((await buildDocument(fields as never, canvases, fields as never, () => { throw new Error("a text receipt has no pictures"); }, receipt)).body).length;
    console.log(`document of the ${receipt.length} B receipt: ${one.length} B JSON (${(one.length / receipt.length).toFixed(1)}x), `
      + `${gzipSync(one).length} B JSON gzip (${(gzipSync(one).length / receipt.length).toFixed(2)}x), ${atRest} B at rest (${(atRest / receipt.length).toFixed(2)}x); `
      + `page of ${items.length}: ${pageJson.length} B JSON, ${gzipSync(pageJson).length} B gzip`);
    console.log('before (issue 19): 68 / 90 / 101 documents/s, ~6 D1 statements and ~9 ms CPU per document, 124 KB per receipt');
    console.log('goals: >= 300 documents/s with 50 printers, <= 0.1 D1 statements/document, <= 2 ms Worker CPU/document (issue 26; <= 3 ms before)');
  } finally {
    for (const side of sides) {
      await side.service.stop();
      rmSync(side.config.stateDir, { recursive: true, force: true });
    }
  }
}

async function until(fn: () => boolean, timeoutMs = 60_000, progress?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out${progress ? `: ${progress()}` : ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
