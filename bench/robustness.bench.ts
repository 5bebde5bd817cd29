/**
 * Issue 17's and 25's figures against a private `npm start`: while each bomb or heavy job
 * renders, two neighbour printers' receipts (one in another workspace) from TCP close to their
 * canvas stream event (p50, p99; target p99 under 250 ms) and another printer's status round
 * trip (p99, max); workerd's resident memory at the start, at its peak and 60 s after the bombs; the open-loop client's throughput and the
 * peak resident memory of bridge and workerd, and the time from SIGTERM to exit with 20 jobs in
 * flight. BENCH_OPEN_LOOP_SECONDS (default 30) and BENCH_OPEN_LOOP_RATE (jobs/s, default 100).
 */
import net from 'node:net';
import { rmSync } from 'node:fs';
import { login, makePrinter } from '../test/bridge-unit/support/stack.ts';
import { connect, printAndClose } from '../test/bridge-unit/support/tcp.ts';
import { BOMBS, bmpBomb, pngBomb } from '../test/support/bombs.ts';
import { percentile, startProbe } from '../test/support/latency-probe.ts';
import { startNeighbourProbe, warmNeighbours } from '../test/support/neighbour-probe.ts';
import { rssMb, serviceConfig, startService, type RunningService } from '../test/support/npm-start.ts';

const BOUND_MS = 250;

async function waitDocuments(api: Awaited<ReturnType<typeof login>>['api'], printerId: string, n: number, timeoutMs: number): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await api('GET', `/api/printers/${printerId}/documents/canvas?Limit=${Math.max(n, 1)}`);
    const items = r.status === 200 ? r.body.result.items : [];
    if (items.length >= n || Date.now() > deadline) return items;
    await new Promise((res) => setTimeout(res, 200));
  }
}

function memorySampler(service: RunningService) {
  const peak = { bridge: 0, workerd: 0 };
  const timer = setInterval(() => {
    const b = service.bridgePid();
    if (b) peak.bridge = Math.max(peak.bridge, rssMb(b));
    peak.workerd = Math.max(peak.workerd, service.workerdPids().reduce((s, p) => s + rssMb(p), 0));
  }, 200);
  return { peak, stop: () => clearInterval(timer) };
}

async function bombs(service: RunningService, session: Awaited<ReturnType<typeof login>>): Promise<void> {
  const other = await makePrinter(session.api);
  const elsewhere = await login(service.baseUrl, 'robustness neighbour');
  const neighbours = await warmNeighbours(service.baseUrl, session, elsewhere);
  const workerdMb = () => service.workerdPids().reduce((s, p) => s + rssMb(p), 0);
  const startMb = workerdMb();
  console.log(`bombs (neighbours' receipts every 250 ms, close to canvas event; another printer's DLE EOT round trip every 250 ms; bound ${BOUND_MS} ms; workerd ${startMb.toFixed(0)} MB at the start):`);
  const report = (name: string, samples: number[], failures: number, extra: string) => {
    const p99 = percentile(samples, 99), max = Math.max(...samples);
    console.log(`  ${name.padEnd(16)} p99 ${p99.toFixed(0).padStart(6)} ms, max ${max.toFixed(0).padStart(6)} ms, n=${samples.length}, failed ${failures} ${p99 < BOUND_MS ? 'OK' : 'MISSED'}  ${extra}`);
  };
  for (const bomb of BOMBS) {
    const victim = await makePrinter(session.api, { protocol: bomb.protocol });
    const mem = memorySampler(service);
    const probe = startProbe(other.port);
    const near = await startNeighbourProbe(service.baseUrl, neighbours);
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    const bytes = bomb.bytes();
    await printAndClose(victim.port, bytes).catch(() => {});
    const [doc] = await waitDocuments(session.api, victim.id, 1, 300_000);
    await new Promise((r) => setTimeout(r, 500));
    await Promise.all([probe.stop(), near.stop()]);
    mem.stop();
    const errors = doc ? (doc.errorMessages ?? []).length : 'no document';
    const n = near.samples;
    console.log(`  ${bomb.name.padEnd(20)} neighbours p50 ${percentile(n, 50).toFixed(0).padStart(5)} ms, p99 ${percentile(n, 99).toFixed(0).padStart(6)} ms, n=${n.length}, failed ${near.failures} ${percentile(n, 99) < BOUND_MS ? 'OK' : 'MISSED'}`);
    report(bomb.name, probe.samples, probe.failures, `${(bytes.length / 1024).toFixed(0)} KB stored in ${((Date.now() - started) / 1000).toFixed(1)} s, errors: ${errors}, peak workerd ${mem.peak.workerd.toFixed(0)} MB`);
  }
  for (const [name, image] of [['PNG bomb', pngBomb(64, 64, 64 << 20)], ['BMP bomb', bmpBomb()]] as const) {
    const victim = await makePrinter(session.api);
    const probe = startProbe(other.port);
    await new Promise((r) => setTimeout(r, 500));
    const form = new FormData();
    form.append('file', new Blob([image as BlobPart]), name === 'PNG bomb' ? 'bomb.png' : 'bomb.bmp');
    const res = await fetch(`${service.baseUrl}/api/printers/${victim.id}/nv-images/1`, { method: 'PUT', headers: { authorization: `Bearer ${session.accessToken}` }, body: form });
    await new Promise((r) => setTimeout(r, 500));
    await probe.stop();
    report(name, probe.samples, probe.failures, `upload answered ${res.status}`);
  }
  {
    const victim = await makePrinter(session.api);
    const probe = startProbe(other.port);
    const data = Buffer.alloc(24 * 1024 * 1024, 0x41).toString('hex'); // 48 MiB of hex
    const started = Date.now();
    const res = await session.api('POST', `/api/printers/${victim.id}/documents/import`, { data, format: 'Hex' });
    await probe.stop();
    report('48 MiB import', probe.samples, probe.failures, `answered ${res.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  let settled = workerdMb();
  for (let i = 0; i < 60 && settled >= startMb + 100; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    settled = workerdMb();
  }
  console.log(`workerd ${startMb.toFixed(0)} MB at the start, ${settled.toFixed(0)} MB within 60 s after the bombs (goal: within 100 MB of the start)`);
}

async function openLoop(service: RunningService, session: Awaited<ReturnType<typeof login>>): Promise<void> {
  const seconds = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 30);
  const rate = Number(process.env.BENCH_OPEN_LOOP_RATE ?? 100);
  const printers = await Promise.all([0, 1].map(() => makePrinter(session.api)));
  const mem = memorySampler(service);
  let completed = 0, failed = 0;
  const clients: Promise<void>[] = [];
  const started = Date.now();
  for (let i = 0; Date.now() - started < seconds * 1000; i++) {
    const p = printers[i % printers.length];
    clients.push(new Promise<void>((resolve) => {
      const s = net.connect(p.port, '127.0.0.1', () => s.end(`\x1b@OPEN LOOP ${i}\nreceipt text\n`));
      s.on('error', () => { failed++; resolve(); });
      s.on('close', (hadError) => { if (!hadError) completed++; resolve(); });
    }));
    await new Promise((r) => setTimeout(r, 1000 / rate));
  }
  await Promise.all(clients);
  const ids = new Set(printers.map((p) => p.id));
  const deadline = Date.now() + 120_000;
  const accepted = () => service.bridgeLogs().filter((l) => l.event === 'connection' && ids.has(l.printerId) && l.bytesReceived > 0);
  while (accepted().some((l) => !l.documentId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  const elapsed = (Date.now() - started) / 1000;
  mem.stop();
  const stored = accepted().filter((l) => l.documentId).length;
  console.log(`open loop ${rate}/s for ${seconds} s: ${clients.length} offered, ${accepted().length} accepted, ${stored} stored (${(stored / elapsed).toFixed(0)} jobs/s until the last was stored), ${failed} connection errors; peak RSS bridge ${mem.peak.bridge.toFixed(0)} MB, workerd ${mem.peak.workerd.toFixed(0)} MB`);
}

async function sigterm(service: RunningService, session: Awaited<ReturnType<typeof login>>): Promise<void> {
  const printers = await Promise.all([0, 1, 2, 3].map(() => makePrinter(session.api)));
  for (let i = 0; i < 20; i++) {
    const s = await connect(printers[i % 4].port);
    s.on('error', () => {});
    s.write(`job ${i} in flight\n`);
  }
  await new Promise((r) => setTimeout(r, 1500));
  const { code, ms } = await service.stop('SIGTERM');
  console.log(`SIGTERM to exit with 20 jobs in flight on 4 printers: ${ms} ms (exit ${code}; issue 25: under 10,000 ms)`);
}

export async function run(): Promise<void> {
  const config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000', LISTENER_IDLE_TIMEOUT_MS: '30000' });
  const service = await startService(config);
  try {
    const session = await login(service.baseUrl, 'robustness bench');
    await bombs(service, session);
    await openLoop(service, session);
    await sigterm(service, session);
  } finally {
    await service.stop();
    rmSync(config.stateDir, { recursive: true, force: true });
  }
}
