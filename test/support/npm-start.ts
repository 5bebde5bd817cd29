/**
 * `npm start` (scripts/start.ts) as a test or benchmark drives it: its own HTTP port, printer
 * port block and state directory, restartable on the same state (SIGTERM, then start again),
 * with its children's pids (to kill -9 the bridge) and their resident memory. `viaNpm` runs the
 * real `npm start` in a process group of its own, as a terminal does (kill -9 of that group).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePorts } from '../bridge-unit/support/tcp.ts';

const root = resolve(import.meta.dirname, '../..');

export interface ServiceConfig {
  stateDir: string;
  port: number;
  env: Record<string, string>;
}

export interface RunningService {
  config: ServiceConfig;
  baseUrl: string;
  child: ChildProcess;
  output: string[];
  /** Bridge JSON log lines seen so far. */
  bridgeLogs(): any[];
  /** SIGTERM (or another signal) to `npm start`; resolves with its exit code and how long it took. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; ms: number }>;
  bridgePid(): number | null;
  workerdPids(): number[];
  /** Every process it started, and theirs (from ps). */
  descendants(): { pid: number; ppid: number; args: string }[];
}

/** A fresh configuration: new state directory, free HTTP port, a printer port block of its own. */
export async function serviceConfig(env: Record<string, string> = {}): Promise<ServiceConfig> {
  const [port] = await freePorts(1);
  return {
    stateDir: mkdtempSync(join(tmpdir(), 'slipstream-robust-')),
    port,
    env: {
      JWT_SECRET: randomBytes(32).toString('hex'),
      BRIDGE_SECRET: randomBytes(24).toString('hex'),
      PRINTER_PORT_BASE: String(14000 + Math.floor(Math.random() * 60) * 100),
      BIND_HOST: '127.0.0.1',
      PUBLIC_HOST: '127.0.0.1',
      SLIPSTREAM_SKIP_BUILD: '1',
      ...env,
    },
  };
}

/** `root`: the checkout to start (default this one; a benchmark runs an earlier commit's beside it). */
export async function startService(config: ServiceConfig, opts: { viaNpm?: boolean; root?: string } = {}): Promise<RunningService> {
  const cwd = opts.root ?? root;
  const [command, args] = opts.viaNpm ? ['npm', ['start']] : [process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), resolve(cwd, 'scripts/start.ts')]];
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, PORT: String(config.port), HOST: '127.0.0.1', STATE_DIR: config.stateDir, ...config.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.viaNpm,
  });
  const output: string[] = [];
  const onData = (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line) output.push(line);
    if (output.length > 200_000) output.splice(0, 100_000);
    if (process.env.STACK_VERBOSE) process.stderr.write(d);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  for (let i = 0; !output.some((l) => l.includes('Slipstream is running')); i++) {
    if (i > 1500 || child.exitCode !== null) throw new Error(`npm start did not come up:\n${output.slice(-50).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const bridgeLogs = () => output.flatMap((l) => {
    if (!l.startsWith('{')) return [];
    try { return [JSON.parse(l)]; } catch { return []; }
  });
  // The bridge's control channel is up once it logs so; printers bind after that.
  for (let i = 0; !bridgeLogs().some((l) => l.event === 'control.connected'); i++) {
    if (i > 300) throw new Error('bridge did not connect');
    await new Promise((r) => setTimeout(r, 100));
  }
  const descendants = () => {
    const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).trim().split('\n').map((l) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l)!;
      return { pid: Number(m[1]), ppid: Number(m[2]), args: m[3] };
    });
    const out: typeof rows = [];
    const walk = (p: number) => { for (const r of rows) if (r.ppid === p) { out.push(r); walk(r.pid); } };
    walk(child.pid!);
    return out;
  };
  return {
    config,
    baseUrl: `http://127.0.0.1:${config.port}`,
    child,
    output,
    bridgeLogs,
    async stop(signal = 'SIGTERM', timeoutMs = 60_000) {
      const started = Date.now();
      if (child.exitCode !== null) return { code: child.exitCode, ms: 0 };
      child.kill(signal);
      const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(t);
      return { code, ms: Date.now() - started };
    },
    bridgePid: () => descendants().find((d) => d.args.includes('bridge.mjs'))?.pid ?? null,
    workerdPids: () => descendants().filter((d) => /workerd/.test(d.args)).map((d) => d.pid),
    descendants,
  };
}

/** Running, not a zombie (this sandbox's init does not always reap orphans promptly). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
