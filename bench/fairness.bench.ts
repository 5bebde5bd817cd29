/**
 * Issue 25's fairness figure: while each bomb class of test/support/bombs.ts (and the 48 MiB
 * import) prints on one printer, two neighbour printers (one of the same workspace, one of
 * another) print a small receipt every 250 ms, timed from TCP close to its `documentCanvasReady`
 * on the printer's canvas stream (test/support/neighbour-probe.ts): p50 and p99 per class, goal
 * p99 under 250 ms. Side by side with an earlier commit in the same run: both run under
 * `npm start` (scripts/start.ts) at once, the earlier one's sources extracted with `git archive`
 * under node_modules/.cache (so they resolve this checkout's packages), rounds alternating
 * between the sides so the machine's load (two shared cores) hits both alike; the machine's load
 * average is printed with each class.
 *
 * `npm run bench -- fairness`; BENCH_FAIRNESS_VS (default HEAD~1: the previous commit),
 * BENCH_FAIRNESS_ROUNDS (default 2), BENCH_FAIRNESS_ONLY (a comma-separated list of class names).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { login, makePrinter } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { until } from '../test/bridge-unit/support/e2e.ts';
import { BOMBS, importBody } from '../test/support/bombs.ts';
import { percentile } from '../test/support/latency-probe.ts';
import { startNeighbourProbe, warmNeighbours, type Neighbour } from '../test/support/neighbour-probe.ts';
import { serviceConfig, startService, type RunningService, type ServiceConfig } from '../test/support/npm-start.ts';
import { buildBridge } from '../scripts/build-bridge.ts';

const BOUND_MS = 250;
const root = join(import.meta.dirname, '..');

interface Side {
  name: string;
  config: ServiceConfig;
  service: RunningService;
  session: Awaited<ReturnType<typeof login>>;
  neighbours: Neighbour[];
}

/** An earlier commit's service tree (sources, scripts, bridge bundle), extracted once. */
export async function checkoutOf(commit: string): Promise<{ sha: string; dir: string }> {
  const sha = execFileSync('git', ['rev-parse', '--short', commit], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(root, 'node_modules', '.cache', 'slipstream-bench-baseline', `service-${sha}`);
  if (!existsSync(join(dir, 'tcp-bridge/dist/bridge.mjs'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', sha, 'src', 'scripts', 'tcp-bridge', 'migrations', 'wrangler.toml', 'package.json', 'tsconfig.json'], { cwd: root, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(root, 'public'), join(dir, 'public'));
    await buildBridge(dir);
  }
  return { sha, dir };
}

async function startSide(name: string, checkout?: string): Promise<Side> {
  const config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000' });
  const service = await startService(config, { root: checkout });
  const session = await login(service.baseUrl, 'fairness bench');
  const elsewhere = await login(service.baseUrl, 'fairness bench neighbour');
  const neighbours = await warmNeighbours(service.baseUrl, session, elsewhere);
  return { name, config, service, session, neighbours };
}

/** The neighbours' close-to-event times (ms) while `job` prints on a new printer of `side`. */
async function measure(side: Side, job: string): Promise<number[]> {
  const bomb = BOMBS.find((b) => b.name === job);
  // Built before the probe starts: 48 MiB of JSON holds this process's event loop, where the probe times its receipts.
  const bytes = bomb ? bomb.bytes() : null;
  const body = bomb ? null : importBody();
  const probe = await startNeighbourProbe(side.service.baseUrl, side.neighbours);
  await new Promise((r) => setTimeout(r, 500));
  if (bomb) {
    const victim = await makePrinter(side.session.api, { protocol: bomb.protocol, ...(bomb.protocol === 'Zpl' && { widthInDots: 812, heightInDots: 1218 }) });
    await printAndClose(victim.port, bytes!).catch(() => {});
    await until(async () => (await side.session.api('GET', `/api/printers/${victim.id}`)).body.printer.lastDocumentReceivedAt, 300_000, `${job} document`, 250);
  } else {
    const victim = await makePrinter(side.session.api);
    await fetch(`${side.service.baseUrl}/api/printers/${victim.id}/documents/import`, {
      method: 'POST', headers: { authorization: `Bearer ${side.session.accessToken}`, 'content-type': 'application/json' }, body,
    });
  }
  await new Promise((r) => setTimeout(r, 500));
  await probe.stop();
  if (probe.failures) console.log(`  (${side.name}, ${job}: ${probe.failures} neighbour receipts not announced)`);
  return probe.samples;
}

export async function run(): Promise<void> {
  const vs = process.env.BENCH_FAIRNESS_VS ?? 'HEAD~1';
  const rounds = Number(process.env.BENCH_FAIRNESS_ROUNDS ?? 2);
  const only = process.env.BENCH_FAIRNESS_ONLY?.split(',').map((s) => s.trim());
  const jobs = [...BOMBS.map((b) => b.name), '48 MiB import'].filter((j) => !only || only.includes(j));
  const earlier = await checkoutOf(vs);
  const sides = [await startSide('this commit'), await startSide(`at ${earlier.sha}`, earlier.dir)];
  try {
    console.log(`neighbours' documents (TCP close to canvas stream event) while each job prints, ms; ${rounds} alternating rounds per side; goal p99 < ${BOUND_MS}:`);
    console.log(`  ${'job'.padEnd(22)}${sides.map((s) => `${s.name.padEnd(13)} p50   p99   n   `).join('')}load`);
    for (const job of jobs) {
      const samples = new Map<Side, number[]>(sides.map((s) => [s, []]));
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? [...sides].reverse() : sides) samples.get(side)!.push(...(await measure(side, job)));
      }
      const cells = sides.map((s) => {
        const xs = samples.get(s)!;
        const p99 = percentile(xs, 99);
        return `${''.padEnd(13)}${percentile(xs, 50).toFixed(0).padStart(4)} ${p99.toFixed(0).padStart(5)}${p99 < BOUND_MS ? ' ' : '!'}${String(xs.length).padStart(4)}   `;
      });
      console.log(`  ${job.padEnd(22)}${cells.join('')}${loadavg()[0].toFixed(1)}`);
    }
    console.log(`  (! marks a p99 at or over ${BOUND_MS} ms; load: the machine's 1-minute load average on 2 cores)`);
  } finally {
    for (const side of sides) {
      await side.service.stop();
      rmSync(side.config.stateDir, { recursive: true, force: true });
    }
  }
}
