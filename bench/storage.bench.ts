/**
 * Document storage through the real service (wrangler dev + the bundled bridge, raw TCP):
 * sustained documents/s with 1, 10 and 50 printers printing the 3.5 KB text receipt
 * (bench/escpos.bench.ts) back to back, D1 statements per document (counted inside the Worker's
 * isolate, COUNT_D1_STATEMENTS=1), workerd CPU per document (/proc), and a document's bytes
 * (JSON, gzip at rest, a page of 20 on the wire).
 *
 * Before documents moved into the printers' Durable Objects (issue 19, same machine):
 * ~68 / 90 / 101 documents/s, ~6 D1 statements and ~9 ms Worker CPU per document, 124 KB per
 * receipt. Goals: >= 300 documents/s with 50 printers, <= 0.1 D1 statements and <= 3 ms CPU per
 * document. `npm run bench -- storage`; BENCH_STORAGE_JOBS scales the jobs per run (default 600, at least 20 per printer).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { login, makePrinter, startStack, type Stack } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { textReceipt } from './escpos.bench.ts';
import { COUNTER_FLUSH_MS } from '../src/worker/objects/counter-outbox.ts';
import { packDocument } from '../src/worker/services/packed-document.ts';

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

async function d1Statements(stack: Stack): Promise<number> {
  const r = await fetch(`${stack.baseUrl}/internal/stats`, { headers: { authorization: `Bearer ${stack.secret}` } });
  // NaN where the service cannot count them (the design before issue 19 had no /internal/stats).
  return r.ok ? ((await r.json()) as { d1Statements: number }).d1Statements : Number.NaN;
}

async function poolMap<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

export async function run(): Promise<void> {
  const receipt = Buffer.from(textReceipt());
  const totalJobs = Number(process.env.BENCH_STORAGE_JOBS ?? 600);
  const stack = await startStack({ vars: { COUNT_D1_STATEMENTS: '1', LISTENER_IDLE_TIMEOUT_MS: '2000' } });
  try {
    const { api } = await login(stack.baseUrl, 'storage bench');
    // Finalised jobs per printer, from the bridge's log as it is written (its kept output is
    // trimmed on long runs).
    const done = new Map<string, number>();
    let partial = '';
    stack.bridge.child.stdout!.on('data', (d: Buffer) => {
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
    const finalisedFor = (ids: Set<string>) => [...ids].reduce((n, id) => n + (done.get(id) ?? 0), 0);
    const rows: string[] = [];
    for (const printerCount of [1, 10, 50]) {
      const printers: { id: string; port: number }[] = [];
      await poolMap(Array.from({ length: printerCount }, (_, i) => i), 10, async () => { printers.push(await makePrinter(api)); });
      const ids = new Set(printers.map((p) => p.id));
      // warm-up: one job per printer (sessions, spares, objects started)
      await Promise.all(printers.map((p) => printAndClose(p.port, receipt)));
      const finalised = () => finalisedFor(ids);
      await until(() => finalised() >= printerCount);
      // At least 20 each, so that the counters' flushes and the connection log's batches are
      // spread over a sustained run, not over a burst of a few jobs per printer.
      const perPrinter = Math.max(20, Math.ceil(totalJobs / printerCount));
      const jobs = perPrinter * printerCount;
      const before = { at: performance.now(), d1: await d1Statements(stack), cpu: workerdCpuSeconds(stack.worker.child.pid!), bridge: processCpuSeconds(stack.bridge.child.pid!), done: finalised() };
      // Each printer prints its receipts back to back (the next connection as soon as the last closed).
      await Promise.all(printers.map(async (p) => {
        for (let i = 0; i < perPrinter; i++) await printAndClose(p.port, receipt);
      }));
      await until(() => finalised() - before.done >= jobs, 300_000, () => `${finalised() - before.done}/${jobs} jobs finalised`);
      const seconds = (performance.now() - before.at) / 1000;
      // The counters' outbox flushes within 30 s of a printer's first unflushed document:
      // wait for it, so the D1 figure includes every flush the run caused.
      await new Promise((r) => setTimeout(r, COUNTER_FLUSH_MS + 2_000));
      const d1 = (await d1Statements(stack)) - before.d1;
      const workerd = workerdCpuSeconds(stack.worker.child.pid!);
      const bridgeCpu = processCpuSeconds(stack.bridge.child.pid!) - before.bridge;
      const perDoc = (s: number) => ((s * 1000) / jobs).toFixed(2);
      // Every job is a stored document (checked after the D1 figure: these reads are not the printing path's) (the bridge's log says when a job ended, not always with its id).
      const stored = (await Promise.all(printers.map(async (p) => ((await api('GET', `/api/printers/${p.id}/documents/canvas?Limit=100`)).body.result.items ?? []).length)))
        .reduce((a, b) => a + b, 0);
      if (perPrinter < 99 && stored !== jobs + printerCount) console.log(`  (stored ${stored} documents for ${jobs + printerCount} jobs)`);
      rows.push(`${String(printerCount).padStart(2)} printer(s): ${(jobs / seconds).toFixed(0)} documents/s (${jobs} receipts in ${seconds.toFixed(1)} s); `
        + `${(d1 / jobs).toFixed(3)} D1 statements/document (${d1}, flushes included); CPU ms/document: Worker ${perDoc(workerd.worker - before.cpu.worker)}, `
        + `wrangler's dev proxy ${perDoc(workerd.devProxy - before.cpu.devProxy)}, bridge ${perDoc(bridgeCpu)}`);
      console.log(rows.at(-1));
    }
    // One document's size.
    const [p] = (await api('GET', '/api/printers')).body as any[];
    const page = await api('GET', `/api/printers/${p.printer.id}/documents/canvas?Limit=20`);
    const items = page.body.result.items as unknown[];
    const one = JSON.stringify(items[0]);
    const pageJson = JSON.stringify(page.body);
    // At rest the printer object keeps the packed body, gzipped (services/packed-document.ts).
    const atRest = gzipSync(packDocument(items[0] as Parameters<typeof packDocument>[0])).length;
    console.log(`document of the ${receipt.length} B receipt: ${one.length} B JSON (${(one.length / receipt.length).toFixed(1)}x), `
      + `${gzipSync(one).length} B JSON gzip (${(gzipSync(one).length / receipt.length).toFixed(2)}x), ${atRest} B at rest (${(atRest / receipt.length).toFixed(2)}x); `
      + `page of ${items.length}: ${pageJson.length} B JSON, ${gzipSync(pageJson).length} B gzip`);
    console.log('before (issue 19): 68 / 90 / 101 documents/s, ~6 D1 statements and ~9 ms CPU per document, 124 KB per receipt');
    console.log('goals: >= 300 documents/s with 50 printers, <= 0.1 D1 statements/document, <= 3 ms CPU/document');
  } finally {
    await stack.stop();
  }
}

async function until(fn: () => boolean, timeoutMs = 60_000, progress?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out${progress ? `: ${progress()}` : ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
