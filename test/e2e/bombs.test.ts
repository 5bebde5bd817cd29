/**
 * Issue 17's bomb classes against a private `npm start`, each with another printer asking for
 * its status every 250 ms: that printer's p99 round trip stays under 250 ms, the bomb's
 * document is stored with an error saying what was cut, and workerd's memory stays bounded.
 *
 * The error on the document comes from the engines' per-job cost budget (issue 13a); until that
 * is merged, the "carries its error" assertions of the ESC/POS and EPL bombs fail by design.
 * Latency is asserted here because the issue asks for it; its figures are in
 * `npm run bench -- robustness`.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, makePrinter } from '../bridge-unit/support/stack.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { until } from '../bridge-unit/support/e2e.ts';
import { BOMBS, bmpBomb, pngBomb } from '../support/bombs.ts';
import { percentile, startProbe } from '../support/latency-probe.ts';
import { rssMb, serviceConfig, startService, type RunningService, type ServiceConfig } from '../support/npm-start.ts';

const BOUND_MS = 250;
const MEMORY_BOUND_MB = 2048;

let config: ServiceConfig;
let service: RunningService;
let session: Awaited<ReturnType<typeof login>>;
let other: { id: string; port: number };

beforeAll(async () => {
  config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000' });
  service = await startService(config);
  session = await login(service.baseUrl, 'bombs');
  other = await makePrinter(session.api);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  if (config) rmSync(config.stateDir, { recursive: true, force: true });
});

/** Runs `attack` while the other printer is probed; returns the probe's samples and workerd's peak memory. */
async function underProbe(attack: () => Promise<void>): Promise<{ p99: number; failures: number; peakMb: number }> {
  let peakMb = 0;
  const sampler = setInterval(() => { peakMb = Math.max(peakMb, service.workerdPids().reduce((s, p) => s + rssMb(p), 0)); }, 200);
  const probe = startProbe(other.port);
  try {
    await new Promise((r) => setTimeout(r, 500));
    await attack();
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    await probe.stop();
    clearInterval(sampler);
  }
  return { p99: percentile(probe.samples, 99), failures: probe.failures, peakMb };
}

describe('print bombs', () => {
  for (const bomb of BOMBS) {
    it(`${bomb.name}: the other printer is answered within ${BOUND_MS} ms, the document carries its error`, async () => {
      const victim = await makePrinter(session.api, { protocol: bomb.protocol });
      let doc: any;
      const figures = await underProbe(async () => {
        await printAndClose(victim.port, bomb.bytes()).catch(() => {});
        doc = await until(async () => (await session.api('GET', `/api/printers/${victim.id}/documents/canvas?Limit=1`)).body.result.items[0], 300_000, `${bomb.name} document`);
      });
      console.log(`[bombs] ${bomb.name}: other printer p99 ${figures.p99.toFixed(0)} ms, workerd peak ${figures.peakMb.toFixed(0)} MB`);
      expect(figures.failures).toBe(0);
      expect(figures.p99).toBeLessThan(BOUND_MS);
      expect(figures.peakMb).toBeLessThan(MEMORY_BOUND_MB);
      expect((doc.errorMessages ?? []).length).toBeGreaterThan(0);
    }, 400_000);
  }

  for (const [name, image, file] of [['PNG bomb', pngBomb(64, 64, 64 << 20), 'bomb.png'], ['BMP bomb', bmpBomb(), 'bomb.bmp']] as const) {
    it(`${name}: the NV upload answers 400 problem+json, the other printer is not held up`, async () => {
      const victim = await makePrinter(session.api);
      let res!: Response;
      const figures = await underProbe(async () => {
        const form = new FormData();
        form.append('file', new Blob([image as BlobPart]), file);
        res = await fetch(`${service.baseUrl}/api/printers/${victim.id}/nv-images/1`, { method: 'PUT', headers: { authorization: `Bearer ${session.accessToken}` }, body: form });
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(figures.p99).toBeLessThan(BOUND_MS);
      expect(figures.peakMb).toBeLessThan(MEMORY_BOUND_MB);
    }, 120_000);
  }

  it('48 MiB import: stored cut at MAX_JOB_BYTES with its error, the other printer is not held up', async () => {
    const victim = await makePrinter(session.api);
    let status = 0;
    const figures = await underProbe(async () => {
      const data = Buffer.alloc(24 * 1024 * 1024, 0x41).toString('hex');
      status = (await session.api('POST', `/api/printers/${victim.id}/documents/import`, { data, format: 'Hex' })).status;
    });
    expect(status).toBe(204);
    const doc = (await session.api('GET', `/api/printers/${victim.id}/documents/canvas?Limit=1`)).body.result.items[0];
    expect((doc.errorMessages ?? []).join(' ')).toMatch(/maximum job size/);
    expect(figures.p99).toBeLessThan(BOUND_MS);
    expect(figures.peakMb).toBeLessThan(MEMORY_BOUND_MB);
  }, 400_000);
});
