/**
 * Where a neighbour printer's document waits while one printer renders a heavy job: a V8 CPU
 * profile of the Worker's isolate (wrangler dev's inspector) cut into its synchronous steps (runs
 * of samples without `(idle)`), the longest listed with what ran in them (the innermost project
 * file and the functions by self time), and each slow neighbour receipt (TCP close to its canvas
 * stream event, over 100 ms) with the steps that overlapped its wait. Every printer object of
 * `wrangler dev` shares this one thread, so a step of 150 ms is 150 ms every other printer waits.
 * Not a `.bench.ts` (`npm run bench` does not run it):
 *
 *     npx tsx bench/worker-steps.ts "<bomb name of test/support/bombs.ts>" | import
 *
 * `import` is the bombs test's 48 MiB hex import. Time the isolate's thread spent in other
 * isolates (wrangler's R2, D1 and Durable Object simulators run in the same workerd) shows as
 * idle here: a slow receipt with no long step beside it points there. The thread's time waiting
 * for a CPU (Linux schedstat) is printed too: on a loaded machine it is often most of a slow
 * receipt's wait, and no step of the Worker's is behind it.
 */
import { join } from 'node:path';
import { login, makePrinter, startStack } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { subscribe } from '../test/bridge-unit/support/e2e.ts';
import { BOMBS, importBody } from '../test/support/bombs.ts';
import { bundleFiles, inspectorSession, type Profile } from './worker-profile.ts';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LONG_STEP_US = 30_000;
const SLOW_RECEIPT_MS = 100;
/** Sampling every 500 µs: a gap over this between two samples is a stall of the sampler. */
const STALL_US = 5_000;

interface Step { startUs: number; endUs: number; samples: number[] }

/** Runs of non-idle samples, in the profile's clock (µs). */
function steps(p: Profile, idleIds: Set<number>): Step[] {
  const out: Step[] = [];
  let t = p.startTime;
  let cur: Step | null = null;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    const id = p.samples[i];
    if (idleIds.has(id)) {
      if (cur) { out.push(cur); cur = null; }
      continue;
    }
    if (!cur) cur = { startUs: t, endUs: t, samples: [] };
    cur.endUs = t + (p.timeDeltas[i + 1] ?? 0);
    cur.samples.push(i);
  }
  if (cur) out.push(cur);
  return out;
}

async function main(what: string): Promise<void> {
  const bomb = BOMBS.find((b) => b.name === what);
  if (!bomb && what !== 'import') throw new Error(`no job named ${what}: ${BOMBS.map((b) => b.name).join(', ')}, import`);
  const stack = await startStack({ vars: { LISTENER_IDLE_TIMEOUT_MS: '2000' } });
  try {
    const session = await login(stack.baseUrl, 'steps');
    const elsewhere = await login(stack.baseUrl, 'steps neighbour');
    const victim = await makePrinter(session.api, { protocol: bomb?.protocol ?? 'EscPos', ...(bomb?.protocol === 'Zpl' && { widthInDots: 812, heightInDots: 1218 }) });
    const neighbours = [
      { ...(await makePrinter(session.api)), accessToken: session.accessToken },
      { ...(await makePrinter(elsewhere.api)), accessToken: elsewhere.accessToken },
    ];
    const streams = neighbours.map((n) => subscribe(stack.baseUrl, `/api/printers/${n.id}/documents/canvas/stream`, n.accessToken, { parseData: false }));
    await Promise.all(streams.map((s) => s.connected));
    const fileOfLine = bundleFiles(join(import.meta.dirname, '..'));
    const insp = await inspectorSession(stack.worker.inspectorPort);
    // NOPROFILE=1: the neighbours' figures alone (sampling every 500 µs costs the thread too).
    const profiling = !process.env.NOPROFILE;
    if (profiling) {
      await insp.call('Profiler.enable');
      await insp.call('Profiler.setSamplingInterval', { interval: 500 });
      await insp.call('Profiler.start');
    }
    // PERF=1: Linux perf samples every workerd thread of the Worker's process (native frames:
    // SQLite, zlib, WebSocket frames, other isolates), in the profile's clock.
    const perfFile = `/tmp/worker-steps-${process.pid}.perf`;
    let perf: ChildProcess | null = null;
    if (process.env.PERF) {
      const pids = workerdPids(stack.worker.child.pid!);
      // PERF=all: the whole machine (the bridge, the clients, other work on it).
      const target = process.env.PERF === 'all' ? ['-a'] : ['-p', pids.join(',')];
      perf = spawn('perf', ['record', '-q', '-k', 'CLOCK_MONOTONIC', '-F', '2000', '-g', '-o', perfFile, ...target], { stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, 500));
    }
    // The Worker's thread's time on a CPU and waiting for one (Linux schedstat), sampled from here
    // on: a slow receipt while the thread waited to be scheduled is the machine's load, not a step.
    const sched = threadSchedule(workerdInspected(stack.worker.child.pid!));
    // Wall clock (ms) to the profile's monotonic clock (µs).
    const toMono = (wallMs: number) => wallMs * 1000 + (Number(process.hrtime.bigint() / 1000n) - Date.now() * 1000);
    const receipts: { printerId: string; closedAt: number; closedUs: number; arrivedUs: number; ms: number }[] = [];
    const inFlight: Promise<void>[] = [];
    const timer = setInterval(() => neighbours.forEach((n, i) => inFlight.push((async () => {
      const marker = randomUUID();
      const closedAt = await new Promise<number>((resolve, reject) => {
        const s = net.connect(n.port, '127.0.0.1', () => s.end(`\x1b@NEIGHBOUR\n${marker}\n1 x Coffee 3.20\n\x1dVA\x03`));
        s.on('error', reject);
        s.on('close', () => resolve(Date.now()));
        s.resume();
      });
      const ev = await streams[i].waitFor((e) => e.event === 'documentCanvasReady' && (e.data as string).includes(marker), 300_000);
      receipts.push({ printerId: n.id, closedAt, closedUs: toMono(closedAt), arrivedUs: toMono(ev.at), ms: ev.at - closedAt });
    })().catch(() => {}))), 250);
    const body = bomb ? bomb.bytes() : importBody();
    await new Promise((r) => setTimeout(r, 1000));
    const t0 = performance.now();
    if (bomb) {
      await printAndClose(victim.port, body as Buffer).catch(() => {});
    } else {
      const r = await fetch(`${stack.baseUrl}/api/printers/${victim.id}/documents/import`, {
        method: 'POST', headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' }, body: body as Uint8Array<ArrayBuffer>,
      });
      console.log(`import answered ${r.status}`);
    }
    for (;;) {
      const r = await session.api('GET', `/api/printers/${victim.id}`);
      if (r.body.printer.lastDocumentReceivedAt) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    console.log(`${what}: stored ${((performance.now() - t0) / 1000).toFixed(1)} s after it was sent`);
    console.log(sched.report());
    await new Promise((r) => setTimeout(r, 1000));
    clearInterval(timer);
    await Promise.all(inFlight);
    if (!profiling) {
      insp.close();
      if (process.env.PACER) console.log(stack.worker.output.filter((l) => l.includes('PACER')).slice(0, Number(process.env.PACER)).join('\n'));
      const ms = receipts.map((r) => r.ms).sort((a, b) => a - b);
      console.log(`neighbours: n=${ms.length}, p50 ${ms[Math.floor(ms.length / 2)]} ms, p99 ${ms[Math.min(ms.length - 1, Math.floor(0.99 * ms.length))]} ms, max ${ms[ms.length - 1]} ms`);
      return;
    }
    const { profile: prof } = (await insp.call('Profiler.stop')) as { profile: Profile };
    insp.close();
    let perfSamples: PerfSample[] = [];
    if (perf) {
      const exited = new Promise((r) => perf!.once('exit', r));
      perf.kill('SIGINT');
      await exited;
      perfSamples = readPerf(perfFile);
    }
    for (const s of streams) s.close();

    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const idleIds = new Set(prof.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
    const stageOf = (f: Profile['nodes'][number]['callFrame']) => (f.url.endsWith('index.js') ? fileOfLine(f.lineNumber) : null);
    const describeStep = (s: Step) => {
      const fns = new Map<string, number>();
      const stages = new Map<string, number>();
      for (const i of s.samples) {
        const delta = prof.timeDeltas[i + 1] ?? 0;
        // A long gap between two samples is the sampler not running (the machine's load), not
        // this frame's time: past STALL_US it is counted apart.
        const us = Math.min(delta, STALL_US);
        if (delta > STALL_US) {
          fns.set('(sampler stalled)', (fns.get('(sampler stalled)') ?? 0) + delta - STALL_US);
          stages.set('(sampler stalled)', (stages.get('(sampler stalled)') ?? 0) + delta - STALL_US);
        }
        const node = byId.get(prof.samples[i])!;
        const f = node.callFrame;
        const fn = `${f.functionName || '(anonymous)'} ${stageOf(f) ?? f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
        fns.set(fn, (fns.get(fn) ?? 0) + us);
        // The stack's project files, outermost last: "a < b < c" reads "a called from b from c".
        const files: string[] = [];
        for (let cur: number | undefined = node.id; cur !== undefined; cur = parent.get(cur)) {
          const st = stageOf(byId.get(cur)!.callFrame);
          if (st && files[files.length - 1] !== st) files.push(st.replace(/^src\/worker\//, ''));
        }
        const key = files.slice(0, 3).join(' < ') || '(no project frame)';
        stages.set(key, (stages.get(key) ?? 0) + us);
      }
      const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `      ${(v / 1000).toFixed(1).padStart(6)} ms  ${k}`).join('\n');
      return `${top(stages, 5)}\n    functions:\n${top(fns, 6)}`;
    };
    const all = steps(prof, idleIds);
    const long = all.filter((s) => s.endUs - s.startUs >= LONG_STEP_US);
    const busy = all.reduce((a, s) => a + s.endUs - s.startUs, 0);
    console.log(`profile ${((prof.endTime - prof.startTime) / 1e6).toFixed(1)} s, ${(busy / 1e6).toFixed(1)} s not idle in ${all.length} steps; ${long.length} of ${LONG_STEP_US / 1000} ms or more`);
    for (const s of [...long].sort((a, b) => (b.endUs - b.startUs) - (a.endUs - a.startUs)).slice(0, 12)) {
      console.log(`  step of ${((s.endUs - s.startUs) / 1000).toFixed(0)} ms at +${((s.startUs - prof.startTime) / 1e6).toFixed(2)} s:\n${describeStep(s)}`);
      if (perf) console.log(describePerf(perfSamples, s.startUs, s.endUs));
    }
    const sorted = receipts.map((r) => r.ms).sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
    console.log(`neighbours: n=${sorted.length}, p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${sorted[sorted.length - 1]} ms`);
    // The slowest receipt's wait, 10 ms at a time: what the isolate ran (the innermost project
    // file of its samples), and with PERF the Worker's workerd threads' time on a CPU.
    const slowest = [...receipts].sort((a, b) => b.ms - a.ms)[0];
    if (slowest && process.env.TIMELINE) {
      const sampleAt: number[] = [];
      let t = prof.startTime;
      for (let i = 0; i < prof.samples.length; i++) { t += prof.timeDeltas[i] ?? 0; sampleAt.push(t); }
      const workerdMain = new Set(workerdPids(stack.worker.child.pid!).map(String));
      const workerdPid = workerdInspected(stack.worker.child.pid!);
      console.log(`timeline of the slowest receipt (${slowest.ms} ms), 10 ms bins from its close:`);
      for (let from = slowest.closedUs - 20_000; from < slowest.arrivedUs + 10_000; from += 10_000) {
        const js = new Map<string, number>();
        for (let i = 0; i < sampleAt.length; i++) {
          if (sampleAt[i] < from || sampleAt[i] >= from + 10_000) continue;
          const node = byId.get(prof.samples[i])!;
          let stage = idleIds.has(node.id) ? '(idle)' : null;
          for (let cur: number | undefined = node.id; !stage && cur !== undefined; cur = parent.get(cur)) stage = stageOf(byId.get(cur)!.callFrame);
          stage ??= node.callFrame.functionName || '(anonymous)';
          js.set(stage, (js.get(stage) ?? 0) + 1);
        }
        const onCpu = new Map<string, number>();
        const mainFrames = new Map<string, number>();
        for (const p of perfSamples) {
          if (p.us < from || p.us >= from + 10_000) continue;
          const pid = p.thread.split(' ')[1].split('/')[0];
          if (p.thread.endsWith(`${workerdPid}/${workerdPid}`)) {
            // The first named native frame from the leaf (JIT frames are unnamed).
            const f = p.frames.find((x) => x && x !== '[unknown]' && !x.startsWith('Builtins_')) ?? '[JIT]';
            const short = f.replace(/\(.*$/, '').replace(/<.*>/g, '<>').slice(0, 60);
            mainFrames.set(short, (mainFrames.get(short) ?? 0) + 0.5);
          }
          const key = workerdMain.has(pid) ? p.thread : pid === String(stack.bridge.child.pid) ? 'bridge' : pid === String(process.pid) ? 'this client' : p.thread.split(' ')[0];
          onCpu.set(key, (onCpu.get(key) ?? 0) + 0.5);
        }
        const fmt = (m: Map<string, number>, unit: string) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k.replace(/^src\//, '')} ${v}${unit}`).join(', ');
        console.log(`  +${((from - slowest.closedUs) / 1000).toFixed(0).padStart(4)} ms  JS: ${fmt(js, '') || '(no samples)'}${perf ? `  | CPU ms: ${fmt(onCpu, '')}  | main: ${[...mainFrames].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ${v}`).join(', ')}` : ''}`);
      }
    }
    // RUNS=1: the slowest receipt's wait as runs of samples by what they ran (the outermost
    // project frame, so a yield and the next slice show apart), with each run's length.
    if (slowest && process.env.RUNS) {
      let t = prof.startTime;
      const runs: { what: string; us: number; inner: Map<string, number> }[] = [];
      for (let i = 0; i < prof.samples.length; i++) {
        t += prof.timeDeltas[i] ?? 0;
        if (t < slowest.closedUs || t > slowest.arrivedUs) continue;
        const node = byId.get(prof.samples[i])!;
        let outer: string | null = null;
        const chain: string[] = [];
        for (let cur: number | undefined = node.id; cur !== undefined; cur = parent.get(cur)) {
          const f = byId.get(cur)!.callFrame;
          if (f.functionName && f.functionName !== '(root)') chain.push(f.functionName);
          const st = stageOf(f);
          if (st) outer = `${st.replace(/^src\//, '')}:${f.functionName}`;
        }
        const what = idleIds.has(node.id) ? '(idle)' : outer ?? chain[chain.length - 1] ?? node.callFrame.functionName;
        const us = prof.timeDeltas[i + 1] ?? 0;
        if (!runs.length || runs[runs.length - 1].what !== what) runs.push({ what, us: 0, inner: new Map() });
        const run = runs[runs.length - 1];
        run.us += us;
        const inner = `${node.callFrame.functionName || '(anonymous)'}${stageOf(node.callFrame) ? ` ${stageOf(node.callFrame)!.replace(/^src\//, '')}` : ''}`;
        run.inner.set(inner, (run.inner.get(inner) ?? 0) + us);
      }
      console.log(`runs in the slowest receipt's wait:\n${runs.map((r) => `  ${r.what} ${(r.us / 1000).toFixed(1)} ms${r.us > 10_000 ? ` (${[...r.inner].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(', ')})` : ''}`).join('\n')}`);
    }
    if (slowest && process.env.HOPS) {
      // Temporary instrumentation's lines (HOP <printer> <what> <Date.now()>), for the slowest receipt's printer.
      const hops = stack.worker.output.filter((l) => l.includes(`HOP ${slowest.printerId}`)).map((l) => l.slice(l.indexOf('HOP')).split(' '))
        .filter((p) => Number(p[p.length - 1]) >= slowest.closedAt - 50 && Number(p[p.length - 1]) <= slowest.closedAt + slowest.ms + 50);
      for (const l of stack.bridge.logs()) if (l.event === 'hop' && l.printerId === slowest.printerId && l.at >= slowest.closedAt - 50 && l.at <= slowest.closedAt + slowest.ms + 50) hops.push(['HOP', l.printerId, 'bridge', String(l.what).replace(/ /g, '_'), String(l.at)]);
      hops.sort((a, b) => Number(a[a.length - 1]) - Number(b[b.length - 1]));
      console.log(`hops of the slowest receipt (closed at 0):\n${hops.map((p) => `  +${Number(p[p.length - 1]) - slowest.closedAt} ms ${p.slice(2, -1).join(' ')}`).join('\n')}`);
    }
    for (const r of receipts.filter((x) => x.ms >= SLOW_RECEIPT_MS).sort((a, b) => b.ms - a.ms).slice(0, 10)) {
      const over = long.filter((s) => s.endUs > r.closedUs && s.startUs < r.arrivedUs).map((s) => `${((s.endUs - s.startUs) / 1000).toFixed(0)} ms at +${((s.startUs - prof.startTime) / 1e6).toFixed(2)} s`);
      console.log(`  receipt of ${r.ms} ms at +${((r.closedUs - prof.startTime) / 1e6).toFixed(2)} s; long steps in its wait: ${over.join(', ') || 'none'}`);
    }
  } finally {
    await stack.stop();
  }
}

/** The workerd processes under wrangler's process (the Worker's and wrangler's dev proxy). */
function workerdPids(rootPid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
  const desc = (p: string): string[][] => rows.filter((r) => r[1] === p).flatMap((r) => [r, ...desc(r[0])]);
  return desc(String(rootPid)).filter((r) => r[2].startsWith('workerd')).map((r) => Number(r[0]));
}

/** The workerd process that runs the Worker (the one with an inspector; the other is wrangler's dev proxy). */
function workerdInspected(rootPid: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim());
  const pids = new Set(workerdPids(rootPid));
  const row = rows.find((r) => pids.has(Number(r.split(/\s+/)[0])) && r.includes('--inspector-addr'));
  return Number(row?.split(/\s+/)[0]);
}

/**
 * Samples /proc/<pid>/task/<pid>/schedstat (ns on a CPU, ns runnable but waiting for one) every
 * 5 ms; `report` gives the totals and the 100 ms windows with the longest waits.
 */
function threadSchedule(pid: number): { report(): string } {
  const rows: { at: number; run: number; wait: number }[] = [];
  const read = () => {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
      rows.push({ at: performance.now(), run: run / 1e6, wait: wait / 1e6 });
    } catch { /* gone */ }
  };
  read();
  const timer = setInterval(read, 5);
  return {
    report() {
      clearInterval(timer);
      read();
      if (rows.length < 2) return 'schedstat: not readable';
      const first = rows[0], last = rows[rows.length - 1];
      const windows = new Map<number, { run: number; wait: number }>();
      for (let i = 1; i < rows.length; i++) {
        const w = windows.get(Math.floor((rows[i - 1].at - first.at) / 100)) ?? { run: 0, wait: 0 };
        w.run += rows[i].run - rows[i - 1].run;
        w.wait += rows[i].wait - rows[i - 1].wait;
        windows.set(Math.floor((rows[i - 1].at - first.at) / 100), w);
      }
      const worst = [...windows].sort((a, b) => b[1].wait - a[1].wait).slice(0, 5).map(([k, w]) => `+${k / 10} s: on a CPU ${w.run.toFixed(0)} ms, waiting for one ${w.wait.toFixed(0)} ms`);
      return `Worker thread over ${((last.at - first.at) / 1000).toFixed(1)} s: on a CPU ${(last.run - first.run).toFixed(0)} ms, runnable but waiting for a CPU ${(last.wait - first.wait).toFixed(0)} ms; longest waits per 100 ms:\n  ${worst.join('\n  ')}`;
    },
  };
}

interface PerfSample { us: number; thread: string; frames: string[] }

function readPerf(file: string): PerfSample[] {
  const text = execFileSync('perf', ['script', '-i', file, '-F', 'pid,tid,comm,time,ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  const out: PerfSample[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim());
    if (!lines.length) continue;
    const m = /^\s*(\S+)\s+(\d+)\/(\d+)\s+([\d.]+):/.exec(lines[0]);
    if (!m) continue;
    const frames = lines.slice(1).map((l) => l.trim().replace(/^[0-9a-f]+\s+/, '').replace(/\(.*\)$/, '').trim());
    out.push({ us: Number(m[4]) * 1e6, thread: `${m[1]} ${m[2]}/${m[3]}`, frames });
  }
  return out;
}

/** What the workerd threads did between `fromUs` and `toUs`: samples per thread and their leaf-most known native frames. */
function describePerf(samples: PerfSample[], fromUs: number, toUs: number): string {
  const within = samples.filter((s) => s.us >= fromUs && s.us < toUs);
  const byThread = new Map<string, Map<string, number>>();
  for (const s of within) {
    const known = s.frames.filter((f) => f && f !== '[unknown]');
    // The innermost frame, and the first that names a workerd/V8/SQLite/zlib area.
    const area = known.find((f) => /sqlite|zlib|deflate|inflate|Heap|GC|Scaveng|Mark|Sweep|Compact|WebSocket|R2|Blob|ActorSqlite|kj::|capnp|workerd::api|Json|JSON|TextDecoder|Utf8|String/.test(f)) ?? known[0] ?? '[JIT]';
    const key = `${(known[0] ?? '[JIT]').slice(0, 70)}  <  ${area.slice(0, 80)}`;
    const t = byThread.get(s.thread) ?? new Map<string, number>();
    t.set(key, (t.get(key) ?? 0) + 1);
    byThread.set(s.thread, t);
  }
  const lines: string[] = [];
  for (const [thread, m] of [...byThread].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, 8)) {
    lines.push(`    perf ${thread}: ${(sum(m) / 2).toFixed(0)} ms on CPU`);
    for (const [k, n] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 4)) lines.push(`      ${(n / 2).toFixed(1).padStart(6)} ms  ${k}`);
  }
  return lines.join('\n');
}
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

await main(process.argv[2] ?? '16 MiB text');
process.exit(0);
