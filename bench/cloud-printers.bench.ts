/**
 * Cloud printers through the real service (wrangler dev + the bundled bridge): N printers
 * (BENCH_CLOUD_PRINTERS, default 1,000) polling a CloudPRNT server on this machine every
 * BENCH_CLOUD_INTERVAL seconds (default 5): the polls per second the service sustains against
 * the N / interval asked, how late polls come (gap between a printer's polls beyond the
 * interval, p50 / p99), and the Worker's CPU per poll (/proc: the workerd running the Worker,
 * its Durable Objects and local D1; wrangler's dev proxy is not on the polling path). Each poll
 * is one alarm and one subrequest per printer (no job ready). `npm run bench -- cloud`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { login, startStack } from '../test/bridge-unit/support/stack.ts';
import { workerdCpuSeconds } from './storage.bench.ts';
import { percentile } from './service.ts';

function machineTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - (f[4] ?? 0), total };
}

export async function run(): Promise<void> {
  const printers = Number(process.env.BENCH_CLOUD_PRINTERS ?? 1000);
  const interval = Number(process.env.BENCH_CLOUD_INTERVAL ?? 5);
  const windowSeconds = Number(process.env.BENCH_CLOUD_WINDOW ?? 30);
  // The CloudPRNT server: answers every poll with no job, and notes who polled when.
  const pollsBy = new Map<string, number[]>();
  let polls = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      polls++;
      try {
        const mac = (JSON.parse(body) as { printerMAC: string }).printerMAC;
        (pollsBy.get(mac) ?? pollsBy.set(mac, []).get(mac)!).push(performance.now());
      } catch { /* counted all the same */ }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jobReady":false}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cloudprnt`;
  const stack = await startStack({ vars: { ALLOW_PRIVATE_TARGETS: 'true', MAX_PRINTERS_PER_WORKSPACE: String(printers) } });
  try {
    const { api } = await login(stack.baseUrl, 'cloud bench');
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < printers) {
        next++;
        const body = {
          printer: { id: crypto.randomUUID(), displayName: 'cloud bench' },
          settings: { protocol: 'StarPrnt', cloudPrint: { kind: 'StarCloudPrnt', url, intervalSeconds: interval } },
        };
        let res = await api('POST', '/api/printers', body);
        // wrangler dev answers 503 when its Worker restarted mid-request: once more.
        if (res.status === 503) res = await api('POST', '/api/printers', body);
        if (res.status !== 200) throw new Error(`create printer: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }));
    console.log(`${printers} cloud printers created in ${((performance.now() - t0) / 1000).toFixed(1)} s; warming up ${2 * interval} s`);
    await new Promise((r) => setTimeout(r, 2 * interval * 1000));
    const polls0 = polls;
    const cpu0 = workerdCpuSeconds(stack.worker.child.pid!);
    const machine0 = machineTicks();
    const w0 = performance.now();
    await new Promise((r) => setTimeout(r, windowSeconds * 1000));
    const seconds = (performance.now() - w0) / 1000;
    const cpu = workerdCpuSeconds(stack.worker.child.pid!);
    const machine = machineTicks();
    const n = polls - polls0;
    const lateness: number[] = [];
    for (const times of pollsBy.values()) {
      for (let i = 1; i < times.length; i++) if (times[i] >= w0) lateness.push(times[i] - times[i - 1] - interval * 1000);
    }
    const asked = printers / interval;
    console.log(`polls/s sustained: ${(n / seconds).toFixed(1)} of ${asked.toFixed(1)} asked (${printers} printers every ${interval} s; ${pollsBy.size} printers seen polling)`);
    console.log(`poll lateness beyond the interval: p50 ${percentile(lateness, 50).toFixed(0)} ms, p99 ${percentile(lateness, 99).toFixed(0)} ms`);
    console.log(`Worker CPU per poll: ${((cpu.worker - cpu0.worker) / n * 1000).toFixed(2)} ms (workerd with the Durable Objects and local D1; dev proxy ${((cpu.devProxy - cpu0.devProxy) / n * 1000).toFixed(2)} ms)`);
    console.log(`machine busy over the window: ${(100 * (machine.busy - machine0.busy) / (machine.total - machine0.total)).toFixed(0)} % of 2 cores`);
  } finally {
    await stack.stop();
    server.closeAllConnections();
    server.close();
  }
}
