/**
 * The environment wrangler runs with under `npm start` (scripts/start.ts) and in the test and
 * benchmark stacks that mirror it: no metrics or error reports sent, no fetch of Cloudflare's
 * request metadata, no banner, wrangler's log files under `logPath`, and no local
 * observability. Wrangler's local observability (the local explorer's traces) streams every
 * invocation of the Worker (each WebSocket message, each RPC call) to a collector Worker that
 * stores it in a SQLite Durable Object of its own, in the same workerd thread as the printers'
 * objects: about 15 % of the Worker's CPU per printed document, and a disk commit per batch of
 * traces (docs/decisions.md "Wrangler's local observability is off"). Nothing of Slipstream uses
 * those traces; `X_LOCAL_OBSERVABILITY=true` in the environment turns them back on.
 */
export function wranglerEnvironment(logPath: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    WRANGLER_LOG_PATH: logPath,
    X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? 'false',
  };
}
