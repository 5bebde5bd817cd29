/**
 * Starts the real service once for the e2e project: `scripts/start.ts` (wrangler dev + the
 * tcp-bridge) on a free HTTP port, a fresh state directory and a private printer port block,
 * exactly as `npm start` runs it. Tests get `baseUrl`, `bridgeSecret`, `stateDir` and
 * `portBase` through vitest's inject().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    bridgeSecret: string;
    stateDir: string;
    portBase: number;
    adminWorkspaceId: string;
    lpdPort: number;
    adminSecret: string;
  }
}

const root = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

let child: ChildProcess | null = null;
let stateDir = '';

export async function setup(project: TestProject): Promise<void> {
  const port = await freePort();
  stateDir = mkdtempSync(join(tmpdir(), 'slipstream-e2e-'));
  const bridgeSecret = randomBytes(24).toString('hex');
  // A port block of its own per run, away from a developer's `npm start` (9101+) and below
  // Linux's ephemeral range (32768+), where outgoing connections could hold a printer's port
  // (npm start refuses a block reaching into it: PRINTER_PORT_COUNT keeps this one below).
  const portBase = 20000 + Math.floor(Math.random() * 100) * 100;
  const adminWorkspaceId = '00000000-0000-4000-8000-00000000ad01';
  // LPD of its own, so parallel runs (and a developer's `npm start` on 8515) do not meet.
  const lpdPort = await freePort();
  const adminSecret = randomBytes(24).toString('hex');
  child = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), resolve(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATE_DIR: stateDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      BRIDGE_SECRET: bridgeSecret,
      PRINTER_PORT_BASE: String(portBase),
      PRINTER_PORT_COUNT: '2700',
      LISTENER_IDLE_TIMEOUT_MS: '1000',
      // Webhook retries a second apart (then 2, 4 …) so the retry test is quick.
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      ADMIN_WORKSPACE_IDS: adminWorkspaceId,
      ADMIN_SECRET: adminSecret,
      // One address runs every e2e file; the limits have their own service in robustness.test.ts.
      RATE_LIMIT_PER_MINUTE: '1000000',
      BIND_HOST: '127.0.0.1',
      LPD_PORT: String(lpdPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((res, rej) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (process.env.E2E_VERBOSE) process.stderr.write(d);
      if (output.includes('Slipstream is running')) res();
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.on('exit', (code) => rej(new Error(`npm start exited early (${code}):\n${output}`)));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`service not ready in 120 s:\n${output}`)), 120_000); });
  try {
    await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
  // The line comes once GET /api/health is ready: the bridge's control channel is up.
  const baseUrl = `http://127.0.0.1:${port}`;
  project.provide('baseUrl', baseUrl);
  project.provide('bridgeSecret', bridgeSecret);
  project.provide('stateDir', stateDir);
  project.provide('portBase', portBase);
  project.provide('adminWorkspaceId', adminWorkspaceId);
  project.provide('lpdPort', lpdPort);
  project.provide('adminSecret', adminSecret);
}

export async function teardown(): Promise<void> {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
  }
  // Grandchildren may still hold the output pipes for a moment; do not let them keep vitest alive.
  child?.stdout?.destroy();
  child?.stderr?.destroy();
  child?.unref();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}
