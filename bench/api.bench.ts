/**
 * Printer API figures (issue: printers): listing 20 documents of a printer that holds
 * 10,000, and import-to-documentCanvasReady latency at a stream subscriber. Through a real
 * `wrangler dev` on this machine.
 */
import { randomUUID } from 'node:crypto';
import { benchWorkspace, percentile, startBenchService } from './service.ts';
import { readSse } from '../test/support/sse.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);

export async function run(): Promise<void> {
  const service = await startBenchService();
  try {
    const { accessToken, post } = await benchWorkspace(service.baseUrl);
    const auth = { authorization: `Bearer ${accessToken}` };
    const printerId = randomUUID();
    await post('/api/printers', { printer: { id: printerId, displayName: 'bench' }, settings: { protocol: 'EscPos', widthInDots: 576 } });
    // A short receipt: text, bold, a cut.
    const receipt = Buffer.from('\x1b@Slipstream bench\n\x1bE\x01TOTAL     12.34\x1bE\x00\n\n\x1dV\x00', 'latin1').toString('base64');

    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < DOCUMENTS) {
        next++;
        const r = await fetch(`${service.baseUrl}/api/printers/${printerId}/documents/import`, {
          method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ data: receipt, format: 'Base64' }),
        });
        if (r.status === 503) {
          // wrangler dev restarts the Worker when sources change; count the import again.
          next--;
          continue;
        }
        if (r.status !== 204) throw new Error(`import failed: ${r.status} ${await r.text()}`);
      }
    }));
    const fillSeconds = (performance.now() - t0) / 1000;
    console.log(`filled ${DOCUMENTS} documents by import in ${fillSeconds.toFixed(1)} s (${(DOCUMENTS / fillSeconds).toFixed(0)} imports/s, 16 concurrent)`);

    const listTimes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const s = performance.now();
      const r = await fetch(`${service.baseUrl}/api/printers/${printerId}/documents/canvas?Limit=20`, { headers: auth });
      const body = (await r.json()) as { result: { items: unknown[] } };
      if (body.result.items.length !== 20) throw new Error('expected 20 documents');
      listTimes.push(performance.now() - s);
    }
    console.log(`list 20 of ${DOCUMENTS}: p50 ${percentile(listTimes, 50).toFixed(1)} ms, p99 ${percentile(listTimes, 99).toFixed(1)} ms (target p50 < 50 ms)`);

    const stream = await fetch(`${service.baseUrl}/api/printers/${printerId}/documents/canvas/stream`, { headers: auth });
    const sse = readSse(stream);
    const afterResponse: number[] = [];
    const fromRequest: number[] = [];
    for (let i = 0; i < 200; i++) {
      const s = performance.now();
      const eventAt = sse.next('documentCanvasReady').then(() => performance.now());
      const r = await fetch(`${service.baseUrl}/api/printers/${printerId}/documents/import`, {
        method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ data: receipt, format: 'Base64' }),
      });
      await r.arrayBuffer();
      const responseEnd = performance.now();
      const at = await eventAt;
      afterResponse.push(Math.max(0, at - responseEnd));
      fromRequest.push(at - s);
    }
    await sse.close();
    console.log(`import end -> documentCanvasReady: p50 ${percentile(afterResponse, 50).toFixed(1)} ms, p99 ${percentile(afterResponse, 99).toFixed(1)} ms (target p50 < 30 ms; the event is announced before the import answers)`);
    console.log(`import start -> documentCanvasReady: p50 ${percentile(fromRequest, 50).toFixed(1)} ms, p99 ${percentile(fromRequest, 99).toFixed(1)} ms`);
  } finally {
    await service.stop();
  }
}
