/**
 * Where the Worker's workerd process spends its CPU per printed document, by Linux `perf`
 * (CPU-clock samples of that process only: unlike the V8 profile of bench/worker-profile.ts,
 * which samples wall time, the figures do not grow when other work on the machine takes the
 * CPU away). V8 writes a map of its JIT code (`--perf-basic-prof`, passed through
 * MINIFLARE_WORKERD_V8_FLAGS) so JavaScript frames carry their function and bundle line. Each
 * sample is put in the first category whose frame pattern its stack holds: SQLite commits of the
 * objects' implicit transactions (with their fsync), garbage collection, zlib, SQLite statements
 * run from JavaScript, the local observability collector, V8's compilers, WebSocket messages
 * (the printing path's JavaScript), RPC, HTTP. Then the hottest JavaScript functions and native
 * symbols by self time. Needs `perf` (Debian: linux-perf); not a `.bench.ts`:
 *
 *     npx tsx bench/workerd-perf.ts [printers=50] [jobs=2000]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login, makePrinter, startStack } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { textReceipt } from './escpos.bench.ts';
import { workerdCpuSeconds } from './storage.bench.ts';

const CATEGORIES: [string, RegExp][] = [
  ['SQLite commit of an implicit transaction (fsync included)', /startImplicitTxnImpl|ExplicitTxn::commit/],
  ['local observability (tail stream to its collector)', /TailStream/],
  ['garbage collection', /Scavenge|MarkCompact|CollectGarbage|ScavengerJob|ConcurrentMarking|Sweeper|Heap::/],
  ['zlib (gzip at rest, gunzip)', /zlibSync|ZlibContext/],
  ['SQLite statements from JavaScript', /SqliteDatabase::Query|sqlite3_/],
  ['V8 compilers', /compiler::|maglev::|Compile/],
  ['WebSocket messages (the printing path)', /LegacyWebSocketAdapter::readLoop/],
  ['RPC between objects', /JsRpc/],
  ['HTTP requests', /HttpService|HttpServer|fetch/i],
];

/** `perf script`'s samples: each a list of frames, innermost first. */
function samples(script: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | null = null;
  for (const line of script.split('\n')) {
    if (!line.trim()) {
      if (cur) out.push(cur);
      cur = null;
    } else if (/^\s/.test(line)) {
      const frame = line.trim().replace(/^[0-9a-f]+\s+/, '');
      cur?.push(frame.replace(/\s+\([^)]*\)$/, ''));
    } else cur = [];
  }
  if (cur) out.push(cur);
  return out;
}

function report(stacks: string[][], msPerDocument: number): void {
  const pct = (n: number) => `${((100 * n) / stacks.length).toFixed(1).padStart(5)} %  ${((msPerDocument * n) / stacks.length * 1000).toFixed(0).padStart(4)} us/doc`;
  const byCategory = new Map<string, number>();
  for (const s of stacks) {
    const text = s.join('\n');
    const cat = CATEGORIES.find(([, re]) => re.test(text))?.[0] ?? 'other';
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + 1);
  }
  console.log(`${stacks.length} samples; by category (first match, in this order):`);
  for (const [k, v] of [...byCategory].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(v)}  ${k}`);
  const self = new Map<string, number>();
  for (const s of stacks) {
    const leaf = (s[0] ?? '?').replace(/\+0x[0-9a-f]+$/, '');
    self.set(leaf, (self.get(leaf) ?? 0) + 1);
  }
  const top = (filter: (k: string) => boolean, n: number) => [...self].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('\nJavaScript functions by self time (bundle line):');
  for (const [k, v] of top((k) => k.startsWith('JS:'), 25)) console.log(`  ${pct(v)}  ${k}`);
  console.log('\nnative symbols by self time:');
  for (const [k, v] of top((k) => !k.startsWith('JS:'), 25)) console.log(`  ${pct(v)}  ${k.slice(0, 110)}`);
}

async function main(printerCount: number, jobs: number): Promise<void> {
  if (spawnSync('perf', ['--version']).status !== 0) throw new Error('perf is missing (Debian: apt-get install linux-perf)');
  process.env.MINIFLARE_WORKERD_V8_FLAGS = '--perf-basic-prof --interpreted-frames-native-stack';
  const receipt = Buffer.from(textReceipt());
  const dir = mkdtempSync(join(tmpdir(), 'slipstream-perf-'));
  // V8 writes a map of its JIT code per workerd process (the D1 migrations' ones too): removed after.
  const maps = () => new Set(readdirSync('/tmp').filter((f) => /^perf-\d+\.map$/.test(f)));
  const mapsBefore = maps();
  const stack = await startStack({ vars: { LISTENER_IDLE_TIMEOUT_MS: '2000' } });
  try {
    const { api } = await login(stack.baseUrl, 'perf');
    const printers = [];
    for (let i = 0; i < printerCount; i++) printers.push(await makePrinter(api));
    for (let warm = 0; warm < 2; warm++) await Promise.all(printers.map((p) => printAndClose(p.port, receipt)));
    const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
    const kids = (p: string): string[][] => rows.filter((r) => r[1] === p).flatMap((r) => [r, ...kids(r[0])]);
    const worker = kids(String(stack.worker.child.pid)).find((r) => /\/workerd$/.test(r[2] ?? '') && r.some((a) => a.startsWith('--inspector-addr')));
    if (!worker) throw new Error("the Worker's workerd process was not found");
    const data = join(dir, 'perf.data');
    const perf = spawn('perf', ['record', '-F', '2000', '-g', '-o', data, '-p', worker[0]], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1000));
    const cpu0 = workerdCpuSeconds(stack.worker.child.pid!).worker;
    const t0 = performance.now();
    const perPrinter = Math.ceil(jobs / printerCount);
    await Promise.all(printers.map(async (p) => { for (let i = 0; i < perPrinter; i++) await printAndClose(p.port, receipt); }));
    await new Promise((r) => setTimeout(r, 300));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = workerdCpuSeconds(stack.worker.child.pid!).worker - cpu0;
    perf.kill('SIGINT');
    await new Promise((r) => perf.once('exit', r));
    const n = perPrinter * printerCount;
    const msPerDocument = (cpu * 1000) / n;
    console.log(`${n} receipts from ${printerCount} printers in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(0)} documents/s); the Worker's workerd: ${msPerDocument.toFixed(2)} ms CPU/document (/proc)`);
    // Read while the Worker runs (its JIT code changes): V8's map of it is /tmp/perf-<pid>.map.
    report(samples(execFileSync('perf', ['script', '-i', data], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] })), msPerDocument);
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
    for (const f of maps()) if (!mapsBefore.has(f)) rmSync(join('/tmp', f), { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(Number(process.argv[2] ?? 50), Number(process.argv[3] ?? 2000));
  process.exit(0);
}
