/**
 * Issues 31 and 25 ("no ghosts") against the real `npm start`, run as a terminal runs it (its own
 * process group) with the default printer port settings (PRINTER_PORT_BASE 9100, INSPECT off):
 * - 200 printers all start and print: no process of the service holds a port of the block
 *   (wrangler's inspector used to hold 9229, printer 129's port);
 * - kill -9 of the process group: within 5 s nothing it started is left and its ports are free;
 * - `npm start` again on the same state comes up, and the printers print;
 * - SIGTERM to npm itself (not its group) stops everything.
 * Its own instance: this file kills and restarts it. Only the creation rate limit is raised
 * (200 creations from one address would otherwise take over three minutes). Where another
 * program on the machine holds one of the first 200 ports of the default block (a `wrangler dev`
 * with its inspector on 9229), the printers move to a free stretch of the default block; the
 * whole default block is still checked for the service's own sockets.
 */
import { rmSync } from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../bridge-unit/support/e2e.ts';
import { login, makePrinter } from '../bridge-unit/support/stack.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { listeningPorts } from '../support/listening.ts';
import { alive, serviceConfig, startService, type RunningService, type ServiceConfig } from '../support/npm-start.ts';

const PRINTERS = 200;
const BLOCK = { first: 9101, last: 19100 }; // the defaults: PRINTER_PORT_BASE 9100, PRINTER_PORT_COUNT 10000

let config: ServiceConfig;
let service: RunningService | null = null;

afterAll(async () => {
  try {
    if (service && service.child.exitCode === null) process.kill(-service.child.pid!, 'SIGKILL');
  } catch { /* gone */ }
  if (config) rmSync(config.stateDir, { recursive: true, force: true });
});

/** PRINTER_PORT_BASE for the test: the default where its first PRINTERS ports are free, else a free stretch of the block. */
async function freeBase(): Promise<number> {
  const free = async (base: number) => (await Promise.all(Array.from({ length: PRINTERS }, (_, i) => portFree(base + 1 + i)))).every(Boolean);
  if (await free(9100)) return 9100;
  for (;;) {
    const base = 12_000 + Math.floor(Math.random() * 60) * 100;
    if (await free(base)) {
      console.log(`[lifecycle] a port of 9101–${9100 + PRINTERS} is held by another program on this machine: printers from ${base + 1}`);
      return base;
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/** One small receipt to each printer, 25 at a time; resolves once the bridge logged each one stored. */
async function printToAll(s: RunningService, printers: { id: string; port: number }[], tag: string): Promise<void> {
  for (let i = 0; i < printers.length; i += 25) {
    await Promise.all(printers.slice(i, i + 25).map((p) => printAndClose(p.port, `${tag} ${p.port}\n`)));
  }
  const ids = new Set(printers.map((p) => p.id));
  await until(() => {
    // Stored directly (the connection's log line names its document) or through recovery.
    const stored = new Set(s.bridgeLogs().filter((l) => (l.event === 'connection' || l.event === 'recovery.submitted') && ids.has(l.printerId) && l.documentId).map((l) => l.printerId));
    return stored.size === ids.size;
  }, 120_000, `a stored ${tag} document on each of ${printers.length} printers`, 250);
}

describe('npm start with the default port block', () => {
  const printers: { id: string; port: number }[] = [];
  let workspaces: Awaited<ReturnType<typeof login>>[] = [];

  it(`${PRINTERS} printers all reach Started and print; no process of the service listens in the block but the printers`, async () => {
    const base = await freeBase();
    config = await serviceConfig({ RATE_LIMIT_PER_MINUTE: '100000' });
    delete config.env.PRINTER_PORT_BASE;
    if (base !== 9100) config.env.PRINTER_PORT_BASE = String(base);
    service = await startService(config, { viaNpm: true });

    workspaces = [await login(service.baseUrl, 'block 1'), await login(service.baseUrl, 'block 2')];
    for (let i = 0; i < PRINTERS; i += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, k) => makePrinter(workspaces[(i + k) % 2].api)));
      printers.push(...made.map((p) => ({ id: p.id, port: p.port })));
    }
    expect(printers.map((p) => p.port).sort((a, b) => a - b)).toEqual(Array.from({ length: PRINTERS }, (_, i) => base + 1 + i));
    const listed = (await Promise.all(workspaces.map((w) => w.api('GET', '/api/printers')))).flatMap((r) => r.body);
    expect(listed).toHaveLength(PRINTERS);
    expect(listed.filter((p: any) => p.runtimeStatus.state !== 'Started').map((p: any) => p.settings.tcpListenPort)).toEqual([]);

    await printToAll(service, printers, 'first run');

    const bridge = service.bridgePid()!;
    const inBlock = listeningPorts(service.descendants().map((d) => d.pid)).filter((l) => l.port >= BLOCK.first && l.port <= BLOCK.last);
    expect(inBlock.filter((l) => l.pid !== bridge)).toEqual([]);
    expect(inBlock.map((l) => l.port).sort((a, b) => a - b)).toEqual(printers.map((p) => p.port).sort((a, b) => a - b));
  }, 300_000);

  it('kill -9 of its process group: within 5 s nothing it started is left and its ports are free; npm start again prints', async () => {
    expect(printers).toHaveLength(PRINTERS);
    const s = service!;
    const started = s.descendants().map((d) => d.pid);
    expect(started.length).toBeGreaterThanOrEqual(4); // npm's shell, start.ts, the Worker (+ workerd), the bridge
    const killedAt = Date.now();
    process.kill(-s.child.pid!, 'SIGKILL');
    await until(() => started.every((pid) => !alive(pid)), 5_000, `no process of npm start left (${started.filter(alive).join(', ')})`, 100);
    const ports = [config.port, ...printers.map((p) => p.port)];
    await until(async () => (await Promise.all(ports.map(portFree))).every(Boolean), 5_000 - (Date.now() - killedAt), 'its ports free', 100);
    console.log(`[lifecycle] kill -9 of npm start's group: processes gone and ${ports.length} ports free after ${Date.now() - killedAt} ms`);

    service = await startService(config, { viaNpm: true });
    await until(async () => {
      const listed = (await Promise.all(workspaces.map((w) => w.api('GET', '/api/printers')))).flatMap((r) => r.body);
      return listed.length === PRINTERS && listed.every((p: any) => p.runtimeStatus.state === 'Started');
    }, 60_000, 'every printer listening again', 250);
    await printToAll(service, printers, 'second run');
  }, 300_000);

  it('SIGTERM to npm alone (as Docker stops its first process): everything it started is gone within 10 s', async () => {
    const s = service!;
    const started = s.descendants().map((d) => d.pid);
    const stopped = await s.stop('SIGTERM', 15_000);
    await until(() => started.every((pid) => !alive(pid)), 10_000 - stopped.ms, `no process of npm start left (${started.filter(alive).join(', ')})`, 100);
    expect(stopped.code).toBe(0);
  }, 60_000);
});
