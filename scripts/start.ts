/**
 * `npm start`: the whole service on local defaults.
 * 1. settings from the environment over .dev.vars (created with random secrets on first run);
 *    a weak JWT_SECRET stops here with a message naming it;
 * 2. builds the web UI and Swagger UI assets;
 * 3. applies D1 migrations to the local state in STATE_DIR;
 * 4. starts the Worker (wrangler's local server, scripts/worker-process.mjs) on HOST:PORT and,
 *    once it answers, the tcp-bridge, both supervised (scripts/supervisor.ts: a crashed child is
 *    restarted with backoff, the service stays up; none outlives `npm start`, however it ends);
 *    with SLIPSTREAM_CONFIG / --config FILE, the declared workspaces and printers are applied
 *    in between (scripts/config-file.ts; a bad file stops start before anything runs); a printer
 *    port block the service could collide with stops start too (scripts/port-block.ts);
 * 5. announces its URL once GET /api/health says ready (the printers file applied, the bridge's
 *    listeners bound), so a CI job that waits for the line or for health can use it at once;
 * 6. on Ctrl-C / SIGTERM stops the bridge first (it stops accepting, finalises open jobs and
 *    writes what it could not send to STATE_DIR/recovery), then the Worker.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { jwtSecretProblem } from '../src/worker/config.ts';
import { effectiveSettings, ensureDevVars } from './dev-vars.ts';
import { buildAssets } from './build-assets.ts';
import { bridgeBundle } from './build-bridge.ts';
import { stopInOrder, Supervised, whenParentGone } from './supervisor.ts';
import { inspectorPort, portBlockProblem } from './port-block.ts';
import { applyConfigFile, assertDeclaredPortsFree, ConfigFileError, configFilePath, declaredFileDigest, describeReport, loadConfigFile, type DeclaredFile } from './config-file.ts';

const root = resolve(import.meta.dirname, '..');
const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT || 8787);
const STATE_DIR = resolve(root, process.env.STATE_DIR || '.state');
const QUIET_BUILD = process.env.SLIPSTREAM_SKIP_BUILD === '1';

const wranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  // wrangler dev's local trace collector (on by default) records the Worker's invocations in a
  // SQLite file, an fsync each, on the thread the printer objects share (docs/decisions.md).
  X_LOCAL_OBSERVABILITY: 'false',
  WRANGLER_LOG_PATH: resolve(STATE_DIR, 'logs'),
  // `gc` for the Worker's isolate: src/worker/objects/idle-collection.ts collects after heavy jobs.
  MINIFLARE_WORKERD_V8_FLAGS: [process.env.MINIFLARE_WORKERD_V8_FLAGS, '--expose-gc'].filter(Boolean).join(' '),
};

const log = (msg: string) => console.log(`[slipstream] ${msg}`);

// `slipstream serve` keeps the secrets with the state in the user's project, not in node_modules.
const devVarsPath = process.env.SLIPSTREAM_DEV_VARS ? resolve(process.env.SLIPSTREAM_DEV_VARS) : resolve(root, '.dev.vars');
const settings = effectiveSettings(ensureDevVars(devVarsPath), process.env);
const secretIssue = jwtSecretProblem(settings.JWT_SECRET);
if (secretIssue) {
  console.error(`[slipstream] refusing to start: ${secretIssue} (setting JWT_SECRET)`);
  process.exit(1);
}
if (!settings.BRIDGE_SECRET) {
  console.error('[slipstream] refusing to start: BRIDGE_SECRET is not set');
  process.exit(1);
}
const portIssue = portBlockProblem(settings, { PORT, INSPECT: process.env.INSPECT });
if (portIssue) {
  console.error(`[slipstream] refusing to start: ${portIssue}`);
  process.exit(1);
}

let declared: DeclaredFile | null = null;
try {
  const configPath = configFilePath(process.argv.slice(2), process.env);
  if (configPath) declared = loadConfigFile(configPath);
  if (declared) await assertDeclaredPortsFree(declared, process.env.BIND_HOST || '0.0.0.0');
} catch (e) {
  if (!(e instanceof ConfigFileError)) throw e;
  console.error(`[slipstream] refusing to start: the printers file is invalid\n${e.lines.map((l) => `  ${l}`).join('\n')}`);
  process.exit(1);
}

mkdirSync(STATE_DIR, { recursive: true });
// The effective settings for this run, given to wrangler as an env file so that
// environment variables win over .dev.vars.
const envFile = resolve(STATE_DIR, 'effective.vars');
const workerVars = { ...settings, PRINTERS_FILE_DIGEST: declared ? declaredFileDigest(declared) : '' };
writeFileSync(envFile, Object.entries(workerVars).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n', { mode: 0o600 });

if (!QUIET_BUILD) await buildAssets();

// Resolved like an import: in an installed package, wrangler sits in the project's node_modules.
const wrangler = resolve(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin/wrangler.js');
log(`applying D1 migrations to ${STATE_DIR}`);
const migrate = spawnSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE_DIR], {
  cwd: root, env: wranglerEnv, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8',
});
if (migrate.status !== 0) {
  console.error(migrate.stdout, migrate.stderr);
  console.error('[slipstream] D1 migrations failed');
  process.exit(1);
}

let stopping = false;

/**
 * Stopping ends within 10 s of SIGTERM: the bridge's own shutdown takes up to ~6.5 s (open jobs,
 * recoveries: tcp-bridge/bridge.ts), the Worker's up to 2 s (scripts/worker-process.mjs); these
 * graces only kill a child that overruns its own bound.
 */
const BRIDGE_STOP_GRACE_MS = 7_500;
const WORKER_STOP_GRACE_MS = 2_500;

const inspector = inspectorPort(process.env.INSPECT);
const worker = new Supervised({
  name: 'Worker',
  cwd: root,
  env: {
    ...wranglerEnv, WRANGLER_LOG: process.env.WRANGLER_LOG_LEVEL || 'warn',
    WORKER_HOST: HOST, WORKER_PORT: String(PORT), WORKER_STATE_DIR: STATE_DIR, WORKER_ENV_FILE: envFile,
    ...(inspector != null ? { WORKER_INSPECTOR_PORT: String(inspector) } : {}),
  },
  stopGraceMs: WORKER_STOP_GRACE_MS,
  args: [resolve(root, 'scripts/worker-process.mjs')],
}, log);
let bridge: Supervised | null = null;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log('stopping: the bridge finalises open jobs first, then the Worker stops');
    await stopInOrder(bridge ? [bridge, worker] : [worker]);
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
whenParentGone(() => void stop(0));

worker.start();

const base = `http://${HOST.includes(':') ? `[${HOST}]` : HOST}:${PORT}`;
const localBase = `http://${HOST === '0.0.0.0' ? '127.0.0.1' : HOST.includes(':') ? `[${HOST}]` : HOST}:${PORT}`;
for (let i = 0; ; i++) {
  try {
    const r = await fetch(`${localBase}/api/workspaces/greeting`);
    if (r.ok) break;
  } catch { /* not up yet */ }
  if (i > 600) { console.error('[slipstream] the Worker did not come up within 60 s'); await stop(1); }
  if (stopping) break;
  await new Promise((r) => setTimeout(r, 100));
}

if (declared && !stopping) {
  try {
    log(`printers file ${declared.path}: ${describeReport(await applyConfigFile(localBase, settings.BRIDGE_SECRET, declared))}`);
  } catch (e) {
    console.error(`[slipstream] stopping: the printers file cannot be applied\n${(e instanceof ConfigFileError ? e.lines : [String(e)]).map((l) => `  ${l}`).join('\n')}`);
    await stop(1);
  }
}

bridge = new Supervised({
  name: 'tcp-bridge',
  cwd: root,
  stopGraceMs: BRIDGE_STOP_GRACE_MS,
  args: [bridgeBundle],
  // Recovered jobs wait in STATE_DIR/recovery across restarts and crashes, and the HTTPS
  // certificate (named for PUBLIC_HOST) in STATE_DIR.
  env: { ...process.env, WORKER_URL: localBase, BRIDGE_SECRET: settings.BRIDGE_SECRET, STATE_DIR, PUBLIC_HOST: settings.PUBLIC_HOST || 'localhost' },
}, log);
if (!stopping) bridge.start();

/** The Worker, the printers file and the bridge's listeners all in place (routes/health.ts). */
const READY_TIMEOUT_MS = 120_000;
for (const giveUpAt = Date.now() + READY_TIMEOUT_MS; !stopping;) {
  try {
    if ((await fetch(`${localBase}/api/health`)).status === 200) break;
  } catch { /* the Worker is being restarted */ }
  if (Date.now() > giveUpAt) {
    console.error(`[slipstream] not ready within ${READY_TIMEOUT_MS / 1000} s: GET ${localBase}/api/health still answers "starting"`);
    await stop(1);
  }
  await new Promise((r) => setTimeout(r, 100));
}
if (!stopping) {
  log(`Slipstream is running at ${base}  (API ${base}/api, Swagger ${base}/swagger)`);
  log('press Ctrl-C to stop');
}
