/**
 * Starts a private `wrangler dev` and/or tcp-bridge process, for tests that must kill and
 * restart one of them (resilience) and for the bridge benchmark. Mirrors scripts/start.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePorts } from './tcp.ts';
import { bridgeBundle } from '../../../scripts/build-bridge.ts';

export const root = resolve(import.meta.dirname, '../../..');
const wranglerBin = resolve(root, 'node_modules/wrangler/bin/wrangler.js');

const wranglerEnv = (stateDir: string) => ({
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  // wrangler dev's local trace collector (on by default) records the Worker's invocations in a
  // SQLite file, an fsync each, on the thread the printer objects share (docs/decisions.md).
  X_LOCAL_OBSERVABILITY: 'false',
  WRANGLER_LOG_PATH: join(stateDir, 'logs'),
});

export interface ProcessHandle {
  child: ChildProcess;
  output: string[];
  /** SIGTERM to the process group; SIGKILL after `graceMs`. Resolves with the exit code. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

/** Everything started here is killed when this process exits, even on a crash: no orphans. */
const live = new Set<{ child: ChildProcess; group: boolean }>();
process.once('exit', () => {
  for (const { child, group } of live) {
    try {
      if (group && child.pid) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
});

function handle(child: ChildProcess, output: string[], group: boolean): ProcessHandle {
  const entry = { child, group };
  live.add(entry);
  child.once('exit', () => live.delete(entry));
  const onData = (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line) output.push(line);
    if (output.length > 20_000) output.splice(0, output.length - 10_000);
    if (process.env.STACK_VERBOSE) process.stderr.write(d);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    output,
    async stop(signal = 'SIGTERM', graceMs = 8000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const kill = (sig: NodeJS.Signals) => {
        try {
          if (group && child.pid) process.kill(-child.pid, sig);
          else child.kill(sig);
        } catch {
          /* gone */
        }
      };
      kill(signal);
      const t = setTimeout(() => kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}

export interface WorkerOptions {
  /** The checkout whose Worker (and bridge bundle, in startStack) runs: default this one; benchmarks run an older commit beside it. */
  root?: string;
  stateDir: string;
  port: number;
  vars: Record<string, string>;
}

export interface WorkerHandle extends ProcessHandle {
  url: string;
  /** wrangler's inspector (Chrome DevTools protocol): bench/worker-profile.ts profiles the Worker through it. */
  inspectorPort: number;
}

export async function startWrangler(o: WorkerOptions): Promise<WorkerHandle> {
  mkdirSync(o.stateDir, { recursive: true });
  const envFile = join(o.stateDir, 'bridge-stack.vars');
  writeFileSync(envFile, Object.entries(o.vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n', { mode: 0o600 });
  const cwd = o.root ?? root;
  const migrate = spawnSync(process.execPath, [wranglerBin, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', o.stateDir], {
    cwd,
    env: wranglerEnv(o.stateDir),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (migrate.status !== 0) throw new Error(`D1 migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  const [inspector] = await freePorts(1);
  const child = spawn(
    process.execPath,
    [wranglerBin, 'dev', '--local', '--ip', '127.0.0.1', '--port', String(o.port), '--persist-to', o.stateDir, '--env-file', envFile,
      '--show-interactive-dev-session=false', '--log-level', process.env.WRANGLER_LOG_LEVEL || 'warn', '--inspector-port', String(inspector)],
    { cwd, env: wranglerEnv(o.stateDir), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const h = handle(child, [], true);
  const url = `http://127.0.0.1:${o.port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${h.output.join('\n')}`);
    try {
      const r = await fetch(`${url}/api/workspaces/greeting`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await h.stop();
      throw new Error(`wrangler dev not up in 90 s:\n${h.output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...h, url, inspectorPort: inspector };
}

export interface BridgeHandle extends ProcessHandle {
  /** Parsed JSON log lines. */
  logs(): any[];
  waitForLog(pred: (l: any) => boolean, timeoutMs?: number): Promise<any>;
}

/** The bridge as `npm start` runs it: the bundle scripts/build-bridge.ts makes (built by `npm test`'s pretest, else here). */
export function startBridgeProcess(o: { workerUrl: string; secret: string; bindHost?: string; logLevel?: string; extraArgs?: string[]; env?: Record<string, string>; bundle?: string }): BridgeHandle {
  const bundle = o.bundle ?? bridgeBundle;
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build`);
  const child = spawn(process.execPath, [bundle, ...(o.extraArgs ?? [])], {
    cwd: root,
    env: { ...process.env, WORKER_URL: o.workerUrl, BRIDGE_SECRET: o.secret, BIND_HOST: o.bindHost ?? '127.0.0.1', LOG_LEVEL: o.logLevel ?? 'info', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const h = handle(child, [], false);
  const logs = () =>
    h.output.flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
  return {
    ...h,
    logs,
    async waitForLog(pred, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = logs().find(pred);
        if (hit) return hit;
        if (child.exitCode !== null) throw new Error(`bridge exited (${child.exitCode}):\n${h.output.join('\n')}`);
        if (Date.now() > deadline) throw new Error(`bridge log not seen in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

export interface Stack {
  baseUrl: string;
  secret: string;
  stateDir: string;
  worker: WorkerHandle;
  bridge: BridgeHandle;
  vars: Record<string, string>;
  stop(): Promise<void>;
}

/** A private wrangler dev + bridge on free ports with a fresh state dir. */
export async function startStack(opts: { portBase?: number; vars?: Record<string, string>; bridgeLogLevel?: string; root?: string } = {}): Promise<Stack> {
  const stateDir = mkdtempSync(join(tmpdir(), 'slipstream-bridge-'));
  const [port] = await freePorts(1);
  const secret = randomBytes(24).toString('hex');
  const vars = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    BRIDGE_SECRET: secret,
    // Below the ephemeral range (32768+ on Linux), so that client sockets never hold a printer port.
    PRINTER_PORT_BASE: String(opts.portBase ?? 10000 + Math.floor(Math.random() * 88) * 100),
    LISTENER_IDLE_TIMEOUT_MS: '1000',
    PUBLIC_HOST: '127.0.0.1',
    // Every request comes from this one address; the limits have their own tests.
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...opts.vars,
  };
  const worker = await startWrangler({ root: opts.root, stateDir, port, vars });
  const bridge = startBridgeProcess({ workerUrl: worker.url, secret, logLevel: opts.bridgeLogLevel, bundle: opts.root && resolve(opts.root, 'tcp-bridge/dist/bridge.mjs') });
  await bridge.waitForLog((l) => l.event === 'control.connected');
  const stack: Stack = {
    baseUrl: worker.url,
    secret,
    stateDir,
    worker,
    bridge,
    vars,
    // Tests replace stack.worker / stack.bridge when they restart one: stop the current ones.
    async stop() {
      await stack.bridge.stop();
      await stack.worker.stop();
    },
  };
  return stack;
}

/** Minimal API client for a stack that is not the e2e harness's. */
export function client(baseUrl: string, accessToken: string | null = null) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { ...(accessToken && { authorization: `Bearer ${accessToken}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* text */
    }
    return { status: res.status, body: parsed };
  };
}

export async function login(baseUrl: string, name = 'bridge stack') {
  const anon = client(baseUrl);
  const id = randomUUID();
  const created = await anon('POST', '/api/workspaces', { id, workspaceName: name });
  if (created.status !== 200) throw new Error(`workspace: ${created.status} ${JSON.stringify(created.body)}`);
  const token = await anon('POST', '/api/auth/login', { token: created.body.token });
  if (token.status !== 200) throw new Error(`login: ${token.status}`);
  return { workspaceId: id, accessToken: token.body.accessToken as string, api: client(baseUrl, token.body.accessToken) };
}

export async function makePrinter(api: ReturnType<typeof client>, settings: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/printers', {
    printer: { id: randomUUID(), displayName: 'bridge printer' },
    settings: { protocol: 'EscPos', widthInDots: 576, heightInDots: null, emulateBufferCapacity: false, bufferDrainRate: null, bufferMaxCapacity: null, ...settings },
  });
  if (res.status !== 200) throw new Error(`create printer: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.printer.id as string;
  // Create answers before the bind when the bridge's control channel is reconnecting (state
  // Starting); wait until the port is really listening.
  for (let i = 0; res.body.runtimeStatus?.state !== 'Started' && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await api('GET', `/api/printers/${id}`);
    if (now.body?.runtimeStatus?.state === 'Started') break;
  }
  return { id, port: res.body.settings.tcpListenPort as number, body: res.body };
}
