/**
 * Issue 25's memory figure: workerd's resident memory (both processes `npm start` runs) at the
 * start, at its peak through every job of test/support/bombs.ts and the 48 MiB import (sampled
 * every 200 ms), and 60 s after the last job (goal: peak under 600 MB, back within 100 MB of
 * the start). Side by side with an earlier commit: each side runs in a fresh `npm start` of its
 * own, one after the other, the order alternating between rounds (the earlier commit's sources
 * extracted as the fairness bench does).
 *
 * `npm run bench -- memory`; BENCH_MEMORY_VS (default HEAD~1: the previous commit),
 * BENCH_MEMORY_ROUNDS (default 2). BENCH_MEMORY_CLASSES=1: each job class alone instead, in a
 * fresh `npm start` of its own (which class's native transient makes the peak), its peak and its
 * figure BENCH_MEMORY_CLASS_SETTLE_S (default 25) seconds after; BENCH_MEMORY_ONLY: the classes
 * (comma-separated names, `import` for the import) to run.
 */
import { rmSync } from 'node:fs';
import { login, makePrinter } from '../test/bridge-unit/support/stack.ts';
import { printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { until } from '../test/bridge-unit/support/e2e.ts';
import { BOMBS, importBody } from '../test/support/bombs.ts';
import { rssMb, serviceConfig, startService } from '../test/support/npm-start.ts';
import { checkoutOf } from './fairness.bench.ts';

const PEAK_MB = 600;
const SETTLED_MB = 100;
const SETTLE_S = 60;

interface Figures { startMb: number; peakMb: number; settledMb: number }

const IMPORT = 'import';
const CLASSES = [...BOMBS.map((b) => b.name), IMPORT];

/** Runs `classes` (bomb names, `import`) one after the other in one fresh `npm start`, then waits `settleS`. */
async function measure(checkout?: string, classes = CLASSES, settleS = SETTLE_S): Promise<Figures> {
  const config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000' });
  const service = await startService(config, { root: checkout });
  const workerdMb = () => service.workerdPids().reduce((s, p) => s + rssMb(p), 0);
  try {
    const session = await login(service.baseUrl, 'memory bench');
    const startMb = workerdMb();
    let peakMb = startMb;
    const sampler = setInterval(() => { peakMb = Math.max(peakMb, workerdMb()); }, 200);
    for (const name of classes) {
      const bomb = BOMBS.find((b) => b.name === name);
      if (bomb) {
        const victim = await makePrinter(session.api, { protocol: bomb.protocol, ...(bomb.protocol === 'Zpl' && { widthInDots: 812, heightInDots: 1218 }) });
        await printAndClose(victim.port, bomb.bytes()).catch(() => {});
        await until(async () => (await session.api('GET', `/api/printers/${victim.id}`)).body.printer.lastDocumentReceivedAt, 300_000, bomb.name, 250);
      } else {
        const victim = await makePrinter(session.api);
        const res = await fetch(`${service.baseUrl}/api/printers/${victim.id}/documents/import`, {
          method: 'POST', headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' }, body: importBody(),
        });
        if (res.status !== 204) throw new Error(`import answered ${res.status}: ${await res.text()}`);
      }
    }
    await new Promise((r) => setTimeout(r, settleS * 1000));
    clearInterval(sampler);
    return { startMb, peakMb, settledMb: workerdMb() };
  } finally {
    await service.stop();
    rmSync(config.stateDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const vs = process.env.BENCH_MEMORY_VS ?? 'HEAD~1';
  const rounds = Number(process.env.BENCH_MEMORY_ROUNDS ?? 2);
  const earlier = await checkoutOf(vs);
  const sides = [{ name: 'this commit', dir: undefined }, { name: `at ${earlier.sha}`, dir: earlier.dir }];
  if (process.env.BENCH_MEMORY_CLASSES) return perClass(sides, rounds);
  console.log(`workerd's resident memory (both processes), MB: every bomb class then the 48 MiB import, ${SETTLE_S} s after; goal peak < ${PEAK_MB}, after ${SETTLE_S} s < start + ${SETTLED_MB}; ${rounds} rounds alternating:`);
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? [...sides].reverse() : sides) {
      const f = await measure(side.dir);
      const ok = f.peakMb < PEAK_MB && f.settledMb < f.startMb + SETTLED_MB;
      console.log(`  round ${r + 1} ${side.name.padEnd(16)} start ${f.startMb.toFixed(0).padStart(4)}, peak ${f.peakMb.toFixed(0).padStart(5)}, after ${SETTLE_S} s ${f.settledMb.toFixed(0).padStart(5)} ${ok ? 'OK' : 'MISSED'}`);
    }
  }
}

/** Each class alone in a fresh `npm start`, the sides alternating per class and round. */
async function perClass(sides: { name: string; dir?: string }[], rounds: number): Promise<void> {
  const settleS = Number(process.env.BENCH_MEMORY_CLASS_SETTLE_S ?? 25);
  const only = process.env.BENCH_MEMORY_ONLY?.split(',').map((n) => n.trim());
  const classes = only ?? CLASSES;
  const unknown = classes.filter((c) => !CLASSES.includes(c));
  if (unknown.length) throw new Error(`unknown classes ${unknown.join(', ')}; known: ${CLASSES.join(', ')}`);
  console.log(`workerd's resident memory (both processes), MB, each class alone in a fresh npm start: start / peak / ${settleS} s after; ${rounds} rounds alternating:`);
  for (const name of classes) {
    for (let r = 0; r < rounds; r++) {
      const line: string[] = [];
      for (const side of r % 2 ? [...sides].reverse() : sides) {
        const f = await measure(side.dir, [name], settleS);
        line.push(`${side.name} ${f.startMb.toFixed(0)} / ${f.peakMb.toFixed(0)} / ${f.settledMb.toFixed(0)}`);
      }
      console.log(`  ${name.padEnd(20)} round ${r + 1}: ${line.join(';  ')}`);
    }
  }
}
