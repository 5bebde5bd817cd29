/**
 * `slipstream serve` and `slipstream stop`: the whole service, as `npm start` runs it
 * (scripts/start.ts: the Worker under wrangler with its storage, and the tcp-bridge), from
 * wherever Slipstream is installed — a checkout or a project's node_modules — with its state
 * (storage, secrets, log) in the caller's directory, `./.slipstream` by default.
 *
 * `--detach` starts a foreground `serve` in the background and returns once `GET /api/health`
 * says ready; the run file `STATE/service.json` then lets `slipstream stop` find it.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve, sep } from 'node:path';
import { CliError, EXIT } from './client.ts';
import type { Io } from './commands.ts';

const packageRoot = resolve(import.meta.dirname, '../..');
const startScript = resolve(packageRoot, 'scripts/start.ts');
/** Installed as a package: the web UI and the bridge come built (`npm pack` builds them). */
const installed = packageRoot.split(sep).includes('node_modules');

export const DEFAULT_STATE_DIR = '.slipstream';

export interface ServeOptions {
  config?: string;
  host: string;
  port: number;
  stateDir: string;
  detach: boolean;
  readyTimeoutSeconds: number;
}

/** What `serve --detach` leaves for `stop`. */
interface RunFile {
  pid: number;
  url: string;
  log: string;
}

const runFilePath = (stateDir: string) => resolve(stateDir, 'service.json');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRunFile(stateDir: string): RunFile | null {
  try {
    return JSON.parse(readFileSync(runFilePath(stateDir), 'utf8')) as RunFile;
  } catch {
    return null;
  }
}

function assertNode22(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) throw new CliError(`serve needs Node.js 22 or newer (wrangler does); this is Node.js ${process.versions.node}`);
}

function serviceProcess(o: ServeOptions, stateDir: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: o.host,
    PORT: String(o.port),
    STATE_DIR: stateDir,
    SLIPSTREAM_DEV_VARS: resolve(stateDir, '.dev.vars'),
  };
  if (o.config) env.SLIPSTREAM_CONFIG = resolve(o.config);
  if (installed) env.SLIPSTREAM_SKIP_BUILD = '1';
  return { args: ['--import', import.meta.resolve('tsx'), startScript], env };
}

const serviceUrl = (o: ServeOptions) => `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host.includes(':') ? `[${o.host}]` : o.host}:${o.port}`;

/** Ready: `GET /api/health` answers 200 (the printers file applied, the bridge's listeners bound). */
async function isReady(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/health`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Another program on the port would answer the health check in this service's place. */
async function assertPortFree(host: string, port: number): Promise<void> {
  const problem = await new Promise<string | null>((done) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => done(null)));
  });
  if (problem) throw new CliError(`port ${port} on ${host} cannot be used (${problem}): another program (or Slipstream) holds it; stop it or give --port`);
}

export async function serveCommand(io: Io, o: ServeOptions): Promise<number> {
  assertNode22();
  if (o.config && !existsSync(o.config)) throw new CliError(`--config ${o.config}: no such file`);
  const stateDir = resolve(o.stateDir);
  mkdirSync(stateDir, { recursive: true });
  const running = readRunFile(stateDir);
  // (The background service started by `--detach` finds its own pid there.)
  if (running && running.pid !== process.pid && alive(running.pid)) throw new CliError(`Slipstream already runs from ${stateDir} at ${running.url} (pid ${running.pid}); slipstream stop --state ${o.stateDir} first`);
  await assertPortFree(o.host, o.port);
  const url = serviceUrl(o);

  if (!o.detach) {
    const { args, env } = serviceProcess(o, stateDir);
    const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('exit', (c, s) => r([c, s])));
    return code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : EXIT.error);
  }

  // In the background runs this same command in the foreground, so the service keeps a parent
  // (start.ts stops when its parent goes) and `stop`'s SIGTERM takes the foreground path.
  const log = resolve(stateDir, 'slipstream.log');
  const fd = openSync(log, 'w');
  const foreground = ['serve', '--host', o.host, '--port', String(o.port), '--state', stateDir, ...(o.config ? ['--config', resolve(o.config)] : [])];
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...foreground], { env: process.env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  child.unref();
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  writeFileSync(runFilePath(stateDir), `${JSON.stringify({ pid: child.pid!, url, log } satisfies RunFile)}\n`);

  const deadline = Date.now() + o.readyTimeoutSeconds * 1000;
  while (exited === undefined && Date.now() < deadline) {
    if (await isReady(url)) {
      io.stderr(`Slipstream is ready at ${url} (pid ${child.pid}, log ${log}); stop it with: slipstream stop${o.stateDir === DEFAULT_STATE_DIR ? '' : ` --state ${o.stateDir}`}\n`);
      io.stdout(`${url}\n`);
      return EXIT.found;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const tail = readFileSync(log, 'utf8').split('\n').slice(-30).join('\n');
  if (exited === undefined) await stopProcess(child.pid!, 20_000);
  rmSync(runFilePath(stateDir), { force: true });
  io.stderr(`${tail}\n`);
  throw new CliError(exited === undefined ? `not ready within ${o.readyTimeoutSeconds} s (log: ${log})` : `the service exited (${exited}) before it was ready (log: ${log})`);
}

/** SIGTERM (start.ts then stops the bridge, then the Worker); SIGKILL to its group after `graceMs`. */
async function stopProcess(pid: number, graceMs: number): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return true;
  }
  const deadline = Date.now() + graceMs;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch { /* gone */ }
      return false;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

export async function stopCommand(io: Io, o: { stateDir: string }): Promise<number> {
  const stateDir = resolve(o.stateDir);
  const running = readRunFile(stateDir);
  if (!running || !alive(running.pid)) {
    rmSync(runFilePath(stateDir), { force: true });
    io.stderr(`No Slipstream running from ${stateDir}\n`);
    return EXIT.found;
  }
  const clean = await stopProcess(running.pid, 30_000);
  rmSync(runFilePath(stateDir), { force: true });
  io.stderr(clean ? `Stopped Slipstream at ${running.url} (pid ${running.pid})\n` : `Slipstream at ${running.url} did not stop within 30 s: killed (pid ${running.pid})\n`);
  return clean ? EXIT.found : EXIT.error;
}
