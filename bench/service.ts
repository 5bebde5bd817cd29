/**
 * Starts the real service (scripts/start.ts: wrangler dev + tcp-bridge) for a benchmark on
 * free ports with a throwaway state directory, unless BENCH_BASE_URL points at a running one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';

const root = resolve(import.meta.dirname, '..');

export interface BenchService {
  baseUrl: string;
  /** The process of `npm start` (null for BENCH_BASE_URL): its descendants are the service. */
  pid: number | null;
  stop(): Promise<void>;
}

export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  if (process.env.BENCH_BASE_URL) return { baseUrl: process.env.BENCH_BASE_URL, pid: null, stop: async () => {} };
  const port = 31000 + Math.floor(Math.random() * 4000);
  const stateDir = mkdtempSync(join(tmpdir(), 'slipstream-bench-'));
  const child = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), resolve(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env, PORT: String(port), STATE_DIR: stateDir, SLIPSTREAM_SKIP_BUILD: '1', BIND_HOST: '127.0.0.1',
      JWT_SECRET: randomBytes(32).toString('hex'), BRIDGE_SECRET: randomBytes(16).toString('hex'),
      PRINTER_PORT_BASE: String(12000 + Math.floor(Math.random() * 80) * 100), LISTENER_IDLE_TIMEOUT_MS: '1000',
      // Benchmarks create workspaces and printers from one address far faster than a person.
      RATE_LIMIT_PER_MINUTE: '1000000', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; !out.includes('Slipstream is running'); i++) {
    if (i > 1200 || child.exitCode !== null) throw new Error(`service did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 500));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? null,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export async function benchWorkspace(baseUrl: string) {
  const id = randomUUID();
  const post = (path: string, body: unknown, token?: string) =>
    fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);
  const { token } = await post('/api/workspaces', { id, workspaceName: 'bench' });
  const { accessToken } = await post('/api/auth/login', { token });
  return { accessToken, post: (path: string, body: unknown) => post(path, body, accessToken) };
}

export { percentile } from '../test/support/latency-probe.ts';

