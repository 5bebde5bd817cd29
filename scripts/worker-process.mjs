// @ts-check
/**
 * The Worker under `npm start`: wrangler's local dev server (workerd, D1, R2, Durable Objects),
 * run through wrangler's `unstable_startWorker` rather than the `wrangler dev` command, because
 * the command always opens the DevTools inspector (9229 by default, inside the printer port
 * block). Plain JavaScript: it runs in the child process without a TypeScript loader.
 *
 * Usage (scripts/supervisor.ts spawns it): node scripts/worker-process.mjs, settings from
 * WORKER_HOST, WORKER_PORT, WORKER_STATE_DIR, WORKER_ENV_FILE, WORKER_INSPECTOR_PORT (unset: no
 * inspector; 0: a port the system picks, outside the printer block by the start check).
 *
 * It dies with `npm start` however that is stopped: with an IPC channel to its parent, the
 * channel closing (the parent exited, even by SIGKILL) kills its whole process group (itself and
 * the workerd processes wrangler started). SIGTERM/SIGINT stop it cleanly.
 */
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const env = process.env;
const inspectorPort = env.WORKER_INSPECTOR_PORT;

/** SIGKILL to this process group: this process and every workerd it started. */
function killGroup() {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } finally {
    process.exit(1);
  }
}
// The supervisor spawned this process detached (it leads its own group) with an IPC channel.
if (process.channel) {
  process.on('disconnect', killGroup);
  process.channel.unref();
}

// Loaded after the lifeline is in place: a parent killed while wrangler loads still takes it down.
const { unstable_startWorker } = await import('wrangler');
const worker = await unstable_startWorker({
  config: resolve(root, 'wrangler.toml'),
  envFiles: env.WORKER_ENV_FILE ? [env.WORKER_ENV_FILE] : [],
  dev: {
    remote: false,
    server: { hostname: env.WORKER_HOST || '127.0.0.1', port: Number(env.WORKER_PORT || 8787) },
    inspector: inspectorPort === undefined ? false : { hostname: '127.0.0.1', port: Number(inspectorPort) },
    persist: env.WORKER_STATE_DIR,
    // Code changes need a restart of `npm start` (the bridge's listeners and spares survive one).
    watch: false,
  },
});
await worker.ready;
if (inspectorPort !== undefined) {
  const url = await worker.inspectorUrl;
  if (url) console.log(`[slipstream] Worker inspector (DevTools) at ${url.href.replace(/^http/, 'ws')}`);
}

/** Bounded: a wrangler that does not let go is killed with its group. */
const STOP_WITHIN_MS = 2_000;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => killGroup(), STOP_WITHIN_MS).unref();
  worker.dispose().then(
    () => process.exit(0),
    () => killGroup(),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
