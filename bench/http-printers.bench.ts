/**
 * HTTP printers (issue 27): Epson ePOS-Print and Star WebPRNT requests per second for a
 * typical receipt (the vendors' SDK receipt of test/fixtures/http-printers, request to answer,
 * the answer coming once the document is stored), beside the same receipt sent as raw ESC/POS /
 * StarPRNT over TCP in the same run (until its document is stored), rounds alternating; and
 * the latency the first-bytes sniffing (tcp-bridge/sniff.ts) adds to a raw connection, measured
 * side by side against a socket served without it.
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchWorkspace, percentile, startBenchService } from './service.ts';
import { sniff } from '../tcp-bridge/sniff.ts';
import { translateEposPrint } from '../src/engines/epos-print/index.ts';
import { translateWebPrnt } from '../src/engines/webprnt/index.ts';

const JOBS = Number(process.env.BENCH_HTTP_JOBS ?? 200);
const CONCURRENCY = 4;
const ROUNDS = 3;

const fixture = (name: string) => (JSON.parse(readFileSync(join(import.meta.dirname, '../test/fixtures/http-printers', name), 'utf8')) as {
  requests: { method: string; path: string; headers: Record<string, string>; body: string }[];
}).requests.find((r) => r.method === 'POST')!;

async function pool(n: number, job: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) {
      next++;
      await job();
    }
  }));
}

function rawJob(port: number, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.end(bytes));
    s.on('error', reject);
    s.on('close', () => resolve());
    s.resume();
  });
}

/** Waits until the printer holds `n` documents (raw TCP jobs are stored after their socket closes). */
async function storedCount(baseUrl: string, token: string, printerId: string, n: number): Promise<void> {
  for (;;) {
    let count = 0;
    let before = '';
    for (;;) {
      const r = await fetch(`${baseUrl}/api/printers/${printerId}/documents/canvas?Limit=100${before}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await r.json()) as { result: { items: unknown[]; hasMore: boolean; nextBeforeId?: string } };
      count += body.result.items.length;
      if (!body.result.hasMore || !body.result.nextBeforeId) break;
      before = `&BeforeId=${body.result.nextBeforeId}`;
    }
    if (count >= n) return;
    await new Promise((res) => setTimeout(res, 100));
  }
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
      const rates: Record<string, number[]> = { http: [], raw: [] };
      const latencies: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const mode of round % 2 === 0 ? ['http', 'raw'] as const : ['raw', 'http'] as const) {
          const p = await post('/api/printers', { printer: { id: crypto.randomUUID(), displayName: `${k.name} ${mode} ${round}` }, settings: { protocol: k.protocol, widthInDots: 576 } });
          const port = p.settings.tcpListenPort as number;
          const t0 = performance.now();
          if (mode === 'http') {
            await pool(JOBS, async () => {
              const s = performance.now();
              const r = await fetch(`http://127.0.0.1:${port}${k.request.path}`, { method: 'POST', headers: k.request.headers, body: k.request.body });
              const text = await r.text();
              if (!/success(="true"|&gt;true)/.test(text)) throw new Error(`not printed: ${text.slice(0, 200)}`);
              latencies.push(performance.now() - s);
            });
          } else {
            await pool(JOBS, () => rawJob(port, k.raw));
          }
          await storedCount(service.baseUrl, accessToken, p.printer.id, JOBS);
          rates[mode].push(JOBS / ((performance.now() - t0) / 1000));
        }
      }
      const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
      console.log(`${k.name}: ${fmt(rates.http)} requests/s (answered once stored; ${CONCURRENCY} clients, ${JOBS} receipts per round; request -> answer p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms)`);
      console.log(`${k.rawName} over TCP, the same receipt: ${fmt(rates.raw)} jobs/s stored (${CONCURRENCY} clients)`);
    }
  } finally {
    await service.stop();
  }
}
