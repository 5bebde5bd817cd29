/**
 * Where the Worker's CPU per printed document goes, stage by stage, measured inside workerd:
 * bench/workerd-stages/worker.ts runs each stage of the printing path (the service's own code,
 * on the storage bench's 3.5 KB text receipt) `n` times in a Durable Object, and this reads the
 * CPU workerd spent from /proc (workerd's clock stands still while JavaScript runs, so it
 * cannot time itself). Rounds alternate the stages; the median of 5 is printed with its range.
 * The storage bench's "Worker" figure is the whole per-document cost these stages are part of
 * (the rest: WebSocket messages, the object's events and commits, garbage collection).
 * `npm run bench -- stages`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '../test/bridge-unit/support/tcp.ts';
import { workerdCpuSeconds } from './storage.bench.ts';

const dir = join(import.meta.dirname, 'workerd-stages');
const wranglerBin = join(import.meta.dirname, '..', 'node_modules/wrangler/bin/wrangler.js');
const N = Number(process.env.BENCH_STAGES_N ?? 400);

async function startWorker(): Promise<{ url: string; child: ChildProcess; stop(): void }> {
  const state = mkdtempSync(join(tmpdir(), 'slipstream-stages-'));
  const [port, inspector] = await freePorts(2);
  const child = spawn(process.execPath, [wranglerBin, 'dev', '--local', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector),
    '--persist-to', state, '--show-interactive-dev-session=false', '--log-level', 'warn'], {
    cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', X_LOCAL_OBSERVABILITY: 'false', WRANGLER_LOG_PATH: join(state, 'logs') },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/stages`)).ok) break;
    } catch { /* not up yet */ }
    if (i > 600 || child.exitCode !== null) throw new Error(`wrangler dev did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url, child,
    stop() {
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* gone */ }
      rmSync(state, { recursive: true, force: true });
    },
  };
}

export async function run(): Promise<void> {
  const worker = await startWorker();
  try {
    const stages = (await (await fetch(`${worker.url}/stages`)).json()) as string[];
    const runStage = async (stage: string, n: number) => {
      const r = await fetch(`${worker.url}/run?stage=${encodeURIComponent(stage)}&n=${n}`);
      if (!r.ok) throw new Error(`${stage}: ${r.status} ${await r.text()}`);
    };
    for (const s of stages) await runStage(s, Math.ceil(N / 10)); // warm-up
    const samples = new Map<string, number[]>(stages.map((s) => [s, []]));
    for (let round = 0; round < 5; round++) {
      for (const s of round % 2 ? [...stages].reverse() : stages) {
        const before = workerdCpuSeconds(worker.child.pid!).worker;
        await runStage(s, N);
        samples.get(s)!.push(((workerdCpuSeconds(worker.child.pid!).worker - before) * 1e6) / N);
      }
    }
    const loop = median(samples.get(stages[0])!);
    let pathTotal = 0;
    console.log(`workerd CPU per document and stage (median of 5 rounds of ${N}, the loop's own cost subtracted; /proc ticks are 10 ms, so +-${(1e4 / N).toFixed(0)} us):`);
    for (const s of stages.slice(1)) {
      const xs = samples.get(s)!.map((x) => x - loop).sort((a, b) => a - b);
      const onPath = !s.startsWith('was:') && !s.startsWith('DTO JSON') && !s.startsWith('with a subscriber');
      if (onPath) pathTotal += median(xs);
      console.log(`  ${s.padEnd(42)} ${median(xs).toFixed(0).padStart(5)} us  (${xs[0].toFixed(0)}-${xs[xs.length - 1].toFixed(0)})`);
    }
    console.log(`  ${'stages on the printing path, together'.padEnd(42)} ${pathTotal.toFixed(0).padStart(5)} us  (the storage bench's Worker CPU per document is the whole)`);
  } finally {
    worker.stop();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
