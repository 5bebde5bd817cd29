/**
 * `npm start`'s children under supervision (issue 17): a child that exits while the service is
 * running (a crash, kill -9, out of memory) is started again after a backoff (250 ms doubling to
 * 10 s, reset once it has run for a minute); it never takes the rest of the service down. Each
 * child runs in its own process group, so stopping it stops its grandchildren too (workerd).
 * Shutdown stops the children one at a time, in the order given: the bridge before the Worker,
 * so the bridge can finalise its open jobs while the Worker is still there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Backoff } from '../tcp-bridge/backoff.ts';

export interface ChildSpec {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** How long it may take to stop after SIGTERM before it is killed. */
  stopGraceMs: number;
}

/** A child that ran this long is considered healthy: its next crash restarts it at once. */
const HEALTHY_AFTER_MS = 60_000;

export class Supervised {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly backoff = new Backoff({ initialMs: 250, maxMs: 10_000, jitter: 0.2 });
  private startedAt = 0;
  restarts = 0;

  constructor(
    readonly spec: ChildSpec,
    private readonly log: (msg: string) => void,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    if (this.stopping) return;
    this.startedAt = Date.now();
    const child = spawn(process.execPath, this.spec.args, { cwd: this.spec.cwd, env: this.spec.env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
    this.child = child;
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // The rest of its group (workerd under wrangler) goes with it, so a restart finds the ports free.
      killGroup(child, 'SIGKILL');
      if (this.stopping) return;
      if (Date.now() - this.startedAt > HEALTHY_AFTER_MS) this.backoff.reset();
      const delay = this.backoff.next();
      this.restarts++;
      this.log(`${this.spec.name} exited (${signal ?? code}); restarting in ${delay} ms`);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        this.start();
      }, delay);
    });
  }

  /** SIGTERM to its group; SIGKILL after the grace period. Resolves once it is gone. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), this.spec.stopGraceMs);
    await exited;
    clearTimeout(timer);
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* gone */
  }
}

/**
 * Calls `onGone` once this process's parent has exited (it was re-parented): `npm start`'s npm
 * was killed without passing the signal on. Runs the same ordered stop as a SIGTERM would.
 */
export function whenParentGone(onGone: () => void, everyMs = 500): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
}

/** Stops the children in order, each fully before the next. */
export async function stopInOrder(children: readonly Supervised[]): Promise<void> {
  for (const c of children) await c.stop();
}
