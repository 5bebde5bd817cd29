/**
 * Where the Worker's CPU goes per printed document: a V8 CPU profile of the Worker's isolate
 * (wrangler dev's inspector, Chrome DevTools protocol) while printers print the storage bench's
 * text receipt through the real bridge, summed by stage (the source file a sample's innermost
 * project frame is in) and by function. Not a `.bench.ts` (`npm run bench` does not run it):
 *
 *     npx tsx bench/worker-profile.ts [printers=10] [jobs=600]
 *     npx tsx bench/worker-profile.ts job "<bomb name>"   (one job of test/support/bombs.ts, close to stored)
 *
 * Samples outside JavaScript (workerd's own work: WebSocket frames, SQLite commits, the
 * event loop) are `(program)`/`(garbage collector)`; `(idle)` is waiting. The profile's
 * non-idle time per document is compared with workerd's CPU from /proc, which also counts
 * workerd's other threads and processes.
 */
import WebSocket from 'ws';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { login, makePrinter, startStack } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { textReceipt } from './escpos.bench.ts';
import { workerdCpuSeconds } from './storage.bench.ts';
import { BOMBS } from '../test/support/bombs.ts';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

export async function inspectorSession(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string; title?: string; id?: string }[];
  // wrangler lists the user Worker first (the others are its own proxy workers).
  const target = targets.find((t) => !/proxy/i.test(t.title ?? '')) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  let next = 1;
  const pending = new Map<number, (v: any) => void>();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.id && pending.has(m.id)) { pending.get(m.id)!(m.error ? Promise.reject(new Error(m.error.message)) : m.result); pending.delete(m.id); }
  });
  const call = (method: string, params: object = {}) => new Promise<any>((r) => {
    const id = next++;
    pending.set(id, r);
    ws.send(JSON.stringify({ id, method, params }));
  });
  return { call, close: () => ws.close(), targets };
}

/**
 * The source file of each line of wrangler's bundle (esbuild writes `// src/…/file.ts` before
 * each module), read while wrangler dev runs (it deletes the bundle on exit).
 */
export function bundleFiles(root: string): (line: number) => string | null {
  const dir = join(root, '.wrangler/tmp');
  const newest = readdirSync(dir).map((d) => join(dir, d, 'index.js')).filter((f) => { try { return statSync(f).isFile(); } catch { return false; } })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  const starts: { line: number; file: string }[] = [];
  readFileSync(newest, 'utf8').split('\n').forEach((l, i) => {
    const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(l);
    if (m) starts.push({ line: i, file: m[1].replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*/, 'node_modules/$1') });
  });
  return (line) => {
    let lo = 0, hi = starts.length - 1, best: string | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid].line <= line) { best = starts[mid].file; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  };
}

let fileOfLine: (line: number) => string | null = () => null;

/** A frame's stage: the project file (or package) its bundle line is in; null for builtins. */
function stageOf(frame: ProfileNode['callFrame']): string | null {
  return frame.url.endsWith('index.js') ? fileOfLine(frame.lineNumber) : null;
}

export async function profile(printerCount: number, jobs: number): Promise<void> {
  const receipt = Buffer.from(textReceipt());
  const stack = await startStack({ vars: { LISTENER_IDLE_TIMEOUT_MS: '2000' } });
  try {
    const { api } = await login(stack.baseUrl, 'profile');
    const printers = [];
    for (let i = 0; i < printerCount; i++) printers.push(await makePrinter(api));
    await Promise.all(printers.map((p) => printAndClose(p.port, receipt)));
    await Promise.all(printers.map((p) => printAndClose(p.port, receipt)));
    fileOfLine = bundleFiles(join(import.meta.dirname, '..'));
    const insp = await inspectorSession(stack.worker.inspectorPort);
    await insp.call('Profiler.enable');
    await insp.call('Profiler.setSamplingInterval', { interval: 200 });
    await insp.call('Profiler.start');
    const cpuBefore = workerdCpuSeconds(stack.worker.child.pid!);
    const threadsBefore = threadTimes(stack.worker.child.pid!);
    const t0 = performance.now();
    const perPrinter = Math.ceil(jobs / printerCount);
    await Promise.all(printers.map(async (p) => { for (let i = 0; i < perPrinter; i++) await printAndClose(p.port, receipt); }));
    // printAndClose returns when the bridge closes the socket; the document follows shortly.
    await new Promise((r) => setTimeout(r, 500));
    const wall = (performance.now() - t0) / 1000;
    const cpu = workerdCpuSeconds(stack.worker.child.pid!).worker - cpuBefore.worker;
    const { profile: prof } = (await insp.call('Profiler.stop')) as { profile: Profile };
    console.log('inspector targets:', insp.targets.map((t) => t.title ?? t.id).join(', '));
    console.log('workerd threads (CPU s during the run):', threadTimes(stack.worker.child.pid!, threadsBefore));
    insp.close();
    const n = perPrinter * printerCount;
    report(prof, n);
    const conns = stack.bridge.logs().filter((l) => l.event === 'connection');
    console.log(`bridge: ${conns.filter((l) => l.spare).length} of ${conns.length} connections on a spare WebSocket (the others upgraded their own)`);
    console.log(`Worker's workerd CPU (/proc, all threads): ${((cpu * 1000) / n).toFixed(2)} ms/document over ${n} documents in ${wall.toFixed(1)} s (${(n / wall).toFixed(0)} documents/s)`);
  } finally {
    await stack.stop();
  }
}

/** A profile of one heavy job (a bomb class of test/support/bombs.ts) from TCP close to its stored document. */
export async function profileJob(name: string): Promise<void> {
  const bomb = BOMBS.find((b) => b.name === name);
  if (!bomb) throw new Error(`no job named ${name}: ${BOMBS.map((b) => b.name).join(', ')}`);
  const stack = await startStack({ vars: { LISTENER_IDLE_TIMEOUT_MS: '2000' } });
  try {
    const { api } = await login(stack.baseUrl, 'profile');
    const printer = await makePrinter(api, { protocol: bomb.protocol });
    fileOfLine = bundleFiles(join(import.meta.dirname, '..'));
    const insp = await inspectorSession(stack.worker.inspectorPort);
    await insp.call('Profiler.enable');
    await insp.call('Profiler.setSamplingInterval', { interval: 500 });
    await insp.call('Profiler.start');
    const threadsBefore = threadTimes(stack.worker.child.pid!);
    const t0 = performance.now();
    await printAndClose(printer.port, bomb.bytes());
    const closed = performance.now();
    for (;;) {
      const r = await api('GET', `/api/printers/${printer.id}/documents/canvas?Limit=1`);
      if (r.body?.result?.items?.length) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    console.log(`${name}: sent in ${((closed - t0) / 1000).toFixed(1)} s, stored ${((performance.now() - closed) / 1000).toFixed(1)} s after the close`);
    const { profile: prof } = (await insp.call('Profiler.stop')) as { profile: Profile };
    console.log('workerd threads (CPU s during the run):', threadTimes(stack.worker.child.pid!, threadsBefore));
    insp.close();
    report(prof, 1);
  } finally {
    await stack.stop();
  }
}

/** CPU seconds per workerd thread (name: seconds), minus `before`'s. */
function threadTimes(rootPid: number, before?: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  const kids = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
  const desc = (p: string): string[] => kids.filter((r) => r[1] === p).flatMap((r) => [r[0], ...desc(r[0])]);
  const pids = new Set(desc(String(rootPid)).filter((pid) => kids.find((r) => r[0] === pid)?.[2]?.startsWith('workerd')));
  for (const pid of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = `${pid}/${tid} ${name}`;
      out[key] = (Number(f[11]) + Number(f[12])) / 100 - (before?.[key] ?? 0);
    }
  }
  if (before) for (const k of Object.keys(out)) if (out[k] < 0.02) delete out[k];
  return out;
}

function report(p: Profile, docs: number): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
  const byStage = new Map<string, number>();
  const byFn = new Map<string, number>();
  // Inclusive time per project file (a file counted once per sample however deep it recurs).
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)') { idle += us; continue; }
    total += us;
    // The innermost frame in a project file names the stage (a library or builtin called from it counts to it).
    let stage: string | null = null;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const s = stageOf(byId.get(cur)!.callFrame);
      if (s && !stage) stage = s;
      if (s && !seen.has(s)) { seen.add(s); inclusive.set(s, (inclusive.get(s) ?? 0) + us); }
    }
    const key = stage ?? (name.startsWith('(') ? name : `(builtin) ${name || '(anonymous)'}`);
    byStage.set(key, (byStage.get(key) ?? 0) + us);
    const fnKey = `${name || '(anonymous)'} ${stageOf(node.callFrame) ?? node.callFrame.url.split('/').pop() ?? ''}:${node.callFrame.lineNumber + 1}`;
    byFn.set(fnKey, (byFn.get(fnKey) ?? 0) + us);
  }
  // Builtins (SQLite's exec, zlib, send…) by the innermost project function that called them.
  const byCaller = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    if (stageOf(node.callFrame) || node.callFrame.functionName.startsWith('(')) continue;
    let caller: ProfileNode | undefined;
    for (let cur = parent.get(id); cur !== undefined && !caller; cur = parent.get(cur)) if (stageOf(byId.get(cur)!.callFrame)) caller = byId.get(cur);
    if (!caller) continue;
    const key = `${node.callFrame.functionName || '(anonymous)'} from ${caller.callFrame.functionName || '(anonymous)'} ${stageOf(caller.callFrame)}`;
    byCaller.set(key, (byCaller.get(key) ?? 0) + us);
  }
  const ms = (us: number) => `${(us / 1000 / docs).toFixed(3)} ms/doc`;
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  console.log(`profile: ${ms(total)} in JavaScript and workerd (not idle), ${ms(idle)} idle`);
  console.log('\nself time by stage (innermost project file on the stack):');
  for (const [k, v] of [...byStage].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${pct(v)} ${ms(v)}  ${k}`);
  console.log('\ninclusive time by project file:');
  for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${pct(v)} ${ms(v)}  ${k}`);
  console.log('\nbuiltins by their project caller:');
  for (const [k, v] of [...byCaller].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(v)} ${ms(v)}  ${k}`);
  console.log('\nself time by function:');
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${pct(v)} ${ms(v)}  ${k}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'job') await profileJob(process.argv[3]);
  else await profile(Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 600));
  process.exit(0);
}
