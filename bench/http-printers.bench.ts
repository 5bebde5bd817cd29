/**
 * HTTP printers (issue 27): Epson ePOS-Print and Star WebPRNT receipts per second beside the
 * same receipt sent as raw ESC/POS / StarPRNT over TCP, measured alike: TILLS printers, each
 * with one till sending its receipts one after the other, each receipt timed from the moment
 * it is sent to its document arriving on the printer's canvas stream (what the web UI shows);
 * rounds alternate HTTP and raw. The HTTP client also reads its answer (sent once the document
 * is stored), timed too. And the latency the first-bytes sniffing (tcp-bridge/sniff.ts) adds to
 * a raw connection, measured side by side against a socket served without it.
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { benchWorkspace, percentile, startBenchService } from './service.ts';
import { sniff } from '../tcp-bridge/sniff.ts';
import { translateEposPrint } from '../src/engines/epos-print/index.ts';
import { translateWebPrnt } from '../src/engines/webprnt/index.ts';
import { readSse } from '../test/support/sse.ts';

/** Receipts per till per round. */
const JOBS = Number(process.env.BENCH_HTTP_JOBS ?? 40);
/** Printers printing at once, one till (a sequential client) each. */
const TILLS = 4;
const ROUNDS = 4;

const fixture = (name: string) => (JSON.parse(readFileSync(join(import.meta.dirname, '../test/fixtures/http-printers', name), 'utf8')) as {
  requests: { method: string; path: string; headers: Record<string, string>; body: string }[];
}).requests.find((r) => r.method === 'POST')!;

/** Sends a raw job and closes: the client does not wait for anything (a POS's raw print). */
function rawJob(port: number, bytes: Uint8Array): void {
  const s = net.connect(port, '127.0.0.1', () => s.end(bytes));
  s.on('error', (e) => { throw e; });
  s.resume();
}

type Cpu = Record<'worker' | 'devProxy' | 'bridge' | 'wrangler', number>;

/** CPU seconds a process has used so far (utime + stime, USER_HZ 100); 0 once it is gone. */
function processCpuSeconds(pid: string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by the service's processes, by part: the Worker's workerd (its
 * objects, local D1 and R2), wrangler's dev proxy (a second workerd every request and frame
 * passes locally, absent on Cloudflare), the bridge, and wrangler's own Node process.
 */
function serviceCpu(rootPid: number): Cpu {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
  const kids = (p: string): string[][] => rows.filter((r) => r[1] === p).flatMap((r) => [r, ...kids(r[0])]);
  const out: Cpu = { worker: 0, devProxy: 0, bridge: 0, wrangler: 0 };
  for (const r of kids(String(rootPid))) {
    const args = r.slice(2).join(' ');
    // wrangler's proxy listens on the service's own port; the Worker's workerd on a port of its own choosing (:0).
    const part = /\/workerd /.test(args + ' ') ? (/--socket-addr=entry=[^ ]*:0( |$)/.test(args) ? 'worker' : 'devProxy') : /bridge/.test(args) ? 'bridge' : /worker-process|wrangler/.test(args) ? 'wrangler' : null;
    if (part) out[part] += processCpuSeconds(r[0]);
  }
  return out;
}

/** The printer's canvas stream: resolves `next()` when its next document arrives. */
async function documentArrivals(baseUrl: string, token: string, printerId: string) {
  const res = await fetch(`${baseUrl}/api/printers/${printerId}/documents/canvas/stream`, { headers: { authorization: `Bearer ${token}` } });
  let arrived = 0;
  let taken = 0;
  let wake: (() => void) | null = null;
  const stream = readSse(res, { onEvent: (e) => { if (e.event === 'documentCanvasReady') { arrived++; wake?.(); } } });
  return {
    async next(): Promise<void> {
      while (arrived <= taken) await new Promise<void>((r) => (wake = r));
      taken++;
    },
    close: () => stream.close(),
  };
}

/** Round trip of a one-byte query answered by a server that sniffs first, or not. */
async function sniffOverhead(samples: number): Promise<{ plain: number[]; sniffed: number[] }> {
  const serve = (withSniff: boolean) => net.createServer({ pauseOnConnect: true, noDelay: true }, (s) => {
    const answer = () => {
      s.on('data', (d: Buffer) => s.write(d.subarray(0, 1)));
      s.resume();
    };
    if (!withSniff) answer();
    else void sniff(s, 250).then(({ head }) => { if (head.length) s.unshift(head); answer(); });
  });
  const servers = [serve(false), serve(true)];
  await Promise.all(servers.map((srv) => new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))));
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  const out = { plain: [] as number[], sniffed: [] as number[] };
  for (let i = 0; i < samples; i++) {
    for (const [k, port] of [['plain', ports[0]], ['sniffed', ports[1]]] as const) {
      const t = performance.now();
      await new Promise<void>((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => s.write(Buffer.of(0x10, 0x04, 0x01)));
        s.setNoDelay(true);
        s.once('data', () => { out[k].push(performance.now() - t); s.destroy(); resolve(); });
        s.on('error', reject);
      });
    }
  }
  for (const srv of servers) srv.close();
  return out;
}

export async function run(): Promise<void> {
  const overhead = await sniffOverhead(2000);
  const f = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(3)} ms, p99 ${percentile(xs, 99).toFixed(3)} ms`;
  console.log(`raw connection, connect -> first reply byte (DLE EOT), 2000 alternating samples: without sniffing ${f(overhead.plain)}; with sniffing ${f(overhead.sniffed)}`);

  const service = await startBenchService();
  try {
    const { accessToken, post } = await benchWorkspace(service.baseUrl);
    const epos = fixture('epson-epos-2.27.0.json');
    const star = fixture('star-webprnt-sdk-1.2.0.json');
    const eposBytes = (translateEposPrint(epos.body) as { bytes: Uint8Array }).bytes;
    const starBytes = (translateWebPrnt(star.body) as { bytes: Uint8Array }).bytes;
    const kinds = [
      { name: 'ePOS-Print', protocol: 'EscPos', request: epos, raw: eposBytes, rawName: 'raw ESC/POS' },
      { name: 'WebPRNT', protocol: 'StarPrnt', request: star, raw: starBytes, rawName: 'raw StarPRNT' },
    ] as const;
    for (const k of kinds) {
      const rates: Record<'http' | 'raw', number[]> = { http: [], raw: [] };
      const onStream: Record<'http' | 'raw', number[]> = { http: [], raw: [] };
      const answered: number[] = [];
      const cpu: Record<'http' | 'raw', Cpu[]> = { http: [], raw: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const mode of round % 2 === 0 ? ['http', 'raw'] as const : ['raw', 'http'] as const) {
          const tills = await Promise.all(Array.from({ length: TILLS }, async (_, i) => {
            const p = await post('/api/printers', { printer: { id: crypto.randomUUID(), displayName: `${k.name} ${mode} ${round}/${i}` }, settings: { protocol: k.protocol, widthInDots: 576 } });
            return { port: p.settings.tcpListenPort as number, docs: await documentArrivals(service.baseUrl, accessToken, p.printer.id) };
          }));
          const t0 = performance.now();
          const cpu0 = service.pid ? serviceCpu(service.pid) : null;
          await Promise.all(tills.map(async ({ port, docs }) => {
            for (let j = 0; j < JOBS; j++) {
              const sent = performance.now();
              if (mode === 'http') {
                const r = await fetch(`http://127.0.0.1:${port}${k.request.path}`, { method: 'POST', headers: k.request.headers, body: k.request.body });
                const text = await r.text();
                if (!/success(="true"|&gt;true)/.test(text)) throw new Error(`not printed: ${text.slice(0, 200)}`);
                if (round > 0) answered.push(performance.now() - sent);
              } else {
                rawJob(port, k.raw);
              }
              await docs.next();
              if (round > 0) onStream[mode].push(performance.now() - sent);
            }
          }));
          const rate = (TILLS * JOBS) / ((performance.now() - t0) / 1000);
          if (cpu0 && round > 0) {
            const cpu1 = serviceCpu(service.pid!);
            cpu[mode].push(Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, ((v - cpu0[k as keyof Cpu]) * 1000) / (TILLS * JOBS)])) as Cpu);
          }
          await Promise.all(tills.map((t) => t.docs.close()));
          if (round > 0) rates[mode].push(rate); // round 0 warms up
        }
      }
      const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
      const lat = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms`;
      console.log(`${k.name} over HTTP: ${fmt(rates.http)} receipts/s (${TILLS} tills, one receipt at a time each); sent -> on the canvas stream ${lat(onStream.http)}; sent -> answer ${lat(answered)}`);
      console.log(`${k.rawName} over TCP, the same receipt: ${fmt(rates.raw)} receipts/s (${TILLS} tills, one receipt at a time each); sent -> on the canvas stream ${lat(onStream.raw)}`);
      const perReceipt = (xs: Cpu[]) => (['worker', 'devProxy', 'bridge', 'wrangler'] as const).map((p) => `${p} ${(xs.reduce((a, c) => a + c[p], 0) / Math.max(1, xs.length)).toFixed(2)}`).join(', ');
      if (cpu.http.length) console.log(`  CPU ms per receipt, HTTP: ${perReceipt(cpu.http)}; raw: ${perReceipt(cpu.raw)}`);
    }
  } finally {
    await service.stop();
  }
}
