/**
 * Slipstream tcp-bridge entry point: `node tcp-bridge/main.ts [flags]` (see --help).
 */
import v8 from 'node:v8';
import { HELP, parseConfig } from './config.ts';
import { startBridge } from './bridge.ts';
import { createLogger, errorMessage } from './log.ts';

// A small young generation (2 MB semi-spaces instead of up to 16): the bridge allocates many
// short-lived frames and buffers, and a large nursery only grows its resident memory (about
// 15 MB less with 1,000 printers in `npm run bench -- bridge`), at the cost of more frequent,
// shorter scavenges. Set before anything is allocated in earnest.
v8.setFlagsFromString('--max-semi-space-size=2');
const parsed = parseConfig(process.argv.slice(2), process.env);
if (parsed.kind === 'help') {
  process.stdout.write(HELP + '\n');
  process.exit(0);
}
if (parsed.kind === 'error') {
  process.stderr.write(`tcp-bridge: ${parsed.message}\n`);
  process.exit(2);
}
const config = parsed.config;
const log = createLogger(config.logLevel);
log.info('bridge.starting', { workerUrl: config.workerUrl, bindHost: config.bindHost, pid: process.pid });

const bridge = startBridge(config, log);

let signalled = false;
const shutdown = (signal: string) => {
  if (signalled) {
    log.warn('bridge.forced_exit', { signal });
    process.exit(1);
  }
  signalled = true;
  log.info('bridge.signal', { signal });
  bridge.stop().then(
    () => process.exit(0),
    (err) => {
      log.error('bridge.stop_failed', { error: errorMessage(err) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
// Under `npm start` (scripts/supervisor.ts) an IPC channel ties the bridge to its supervisor:
// when it closes, `npm start` is gone (even by SIGKILL) and the Worker with it, so the bridge
// keeps what it holds on disk and exits rather than outliving the service with the ports held.
if (process.channel) {
  process.on('disconnect', () => {
    signalled = true;
    bridge.abandon().finally(() => process.exit(1));
    setTimeout(() => process.exit(1), 3_000).unref();
  });
  process.channel.unref();
}
let uncaught = 0;
process.on('uncaughtException', (err) => {
  // Keep serving: one bad connection must not take every printer down. A storm means a bug: exit.
  if (++uncaught > 1000) process.exit(70);
  log.error('bridge.uncaught', { error: errorMessage(err), stack: err instanceof Error ? err.stack : undefined });
});
process.on('unhandledRejection', (err) => {
  log.error('bridge.unhandled_rejection', { error: errorMessage(err) });
});
