/**
 * Issue 25's memory figure: workerd's resident memory (both processes `npm start` runs) at the
 * start, at its peak through every job of test/support/bombs.ts and the 48 MiB import (sampled
 * every 200 ms), and 60 s after the last job (goal: peak under 600 MB, back within 100 MB of
 * the start). Side by side with an earlier commit: each side runs in a fresh `npm start` of its
 * own, one after the other, the order alternating between rounds (the earlier commit's sources
 * extracted as the fairness bench does).
 *
 * `npm run bench -- memory`; BENCH_MEMORY_VS (default HEAD~1: the previous commit),
 * BENCH_MEMORY_ROUNDS (default 2).
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

async function measure(checkout?: string): Promise<Figures> {
  const config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000' });
  const service = await startService(config, { root: checkout });
  const workerdMb = () => service.workerdPids().reduce((s, p) => s + rssMb(p), 0);
  try {
    const session = await login(service.baseUrl, 'memory bench');
    const startMb = workerdMb();
    let peakMb = startMb;
    const sampler = setInterval(() => { peakMb = Math.max(peakMb, workerdMb()); }, 200);
    for (const bomb of BOMBS) {
      const victim = await makePrinter(session.api, { protocol: bomb.protocol, ...(bomb.protocol === 'Zpl' && { widthInDots: 812, heightInDots: 1218 }) });
      await printAndClose(victim.port, bomb.bytes()).catch(() => {});
      await until(async () => (await session.api('GET', `/api/printers/${victim.id}`)).body.printer.lastDocumentReceivedAt, 300_000, bomb.name, 250);
    }
    const victim = await makePrinter(session.api);
    await fetch(`${service.baseUrl}/api/printers/${victim.id}/documents/import`, {
      method: 'POST', headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' }, body: importBody(),
    });
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
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
  console.log(`workerd's resident memory (both processes), MB: every bomb class then the 48 MiB import, ${SETTLE_S} s after; goal peak < ${PEAK_MB}, after ${SETTLE_S} s < start + ${SETTLED_MB}; ${rounds} rounds alternating:`);
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? [...sides].reverse() : sides) {
      const f = await measure(side.dir);
      const ok = f.peakMb < PEAK_MB && f.settledMb < f.startMb + SETTLED_MB;
      console.log(`  round ${r + 1} ${side.name.padEnd(16)} start ${f.startMb.toFixed(0).padStart(4)}, peak ${f.peakMb.toFixed(0).padStart(5)}, after ${SETTLE_S} s ${f.settledMb.toFixed(0).padStart(5)} ${ok ? 'OK' : 'MISSED'}`);
    }
  }
}
