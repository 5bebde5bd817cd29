/**
 * Bridge settings from environment variables and command-line flags (flags win).
 * Per-listener settings (idle timeout, max job bytes, whitelist, buffer) come from the
 * Worker's `listeners` message, not from here.
 */
import { isLogLevel, type LogLevel } from './log.ts';

export interface BridgeConfig {
  workerUrl: string;
  /** What the bridge authenticates with: its site's BRIDGE_TOKEN, else the shared BRIDGE_SECRET. */
  secret: string;
  bindHost: string;
  logLevel: LogLevel;
  /** Recovered jobs wait here on disk (beyond the memory bound, and at shutdown); empty: memory only. */
  stateDir: string;
  /** Jobs running at once in the whole bridge; more connections wait unread. */
  maxJobsTotal: number;
  /** The host name clients reach the printers by: a name of the HTTPS certificate (besides localhost, 127.0.0.1). */
  publicHost?: string;
  /** LPD (RFC 1179) for every printer of this bridge, queue = printer; 0: off. */
  lpdPort?: number;
}

interface Setting {
  flag: string;
  env: string;
  key: keyof BridgeConfig | 'token';
  help: string;
  default?: string;
}

const SETTINGS: Setting[] = [
  { flag: '--worker-url', env: 'WORKER_URL', key: 'workerUrl', default: 'http://127.0.0.1:8787', help: 'Base URL of the Slipstream Worker.' },
  { flag: '--token', env: 'BRIDGE_TOKEN', key: 'token', help: 'This site\'s bridge token (POST /api/workspaces/bridges): serves only that bridge\'s printers. Prefer the env var: flags are visible in ps.' },
  { flag: '--secret', env: 'BRIDGE_SECRET', key: 'secret', help: 'The deployment\'s shared bridge secret (the bridge npm start runs), when no BRIDGE_TOKEN is given.' },
  { flag: '--bind-host', env: 'BIND_HOST', key: 'bindHost', default: '0.0.0.0', help: 'Address the printer ports listen on.' },
  { flag: '--log-level', env: 'LOG_LEVEL', key: 'logLevel', default: 'info', help: 'debug | info | warn | error | silent.' },
  { flag: '--state-dir', env: 'STATE_DIR', key: 'stateDir', default: '', help: 'Directory for recovered jobs kept on disk (<dir>/recovery). Empty: memory only.' },
  { flag: '--public-host', env: 'PUBLIC_HOST', key: 'publicHost', default: '', help: 'Host name clients use for the printers: named in the HTTPS certificate (kept in STATE_DIR) with localhost and 127.0.0.1.' },
  { flag: '--lpd-port', env: 'LPD_PORT', key: 'lpdPort', default: '8515', help: 'Port of the LPD server (RFC 1179; the queue name is a printer id, port or name); 0 turns it off.' },
  { flag: '--max-jobs-total', env: 'MAX_JOBS_TOTAL', key: 'maxJobsTotal', default: '64', help: 'Jobs running at once in the whole bridge; further connections wait.' },
];

export const HELP = [
  'Usage: node tcp-bridge/main.ts [flags]',
  '',
  'Slipstream tcp-bridge: owns the printers\' raw TCP ports and forwards each connection to the',
  'printer\'s Durable Object. Every flag can also be given as an environment variable; flags win.',
  '',
  ...SETTINGS.map((s) => {
    const left = `  ${s.flag} <value>`.padEnd(26) + `${s.env}`.padEnd(16);
    return `${left}${s.help}${s.default !== undefined ? ` Default: ${s.default}` : ''}`;
  }),
  `  --help`.padEnd(42) + 'Show this help.',
  '',
  'Idle timeout, maximum job size, whitelist and buffer emulation are set per printer by the Worker.',
].join('\n');

export type ParseResult = { kind: 'help' } | { kind: 'error'; message: string } | { kind: 'ok'; config: BridgeConfig };

export function parseConfig(argv: readonly string[], env: Record<string, string | undefined>): ParseResult {
  const values: Record<string, string | undefined> = {};
  for (const s of SETTINGS) {
    const v = env[s.env];
    if (v !== undefined && v !== '') values[s.key] = v;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const setting = SETTINGS.find((s) => s.flag === name);
    if (!setting) return { kind: 'error', message: `Unknown argument ${arg}. Run with --help for the list of settings.` };
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === '') return { kind: 'error', message: `${setting.flag} needs a value.` };
    values[setting.key] = value;
  }
  for (const s of SETTINGS) if (values[s.key] === undefined && s.default !== undefined) values[s.key] = s.default;

  const secret = values.token ?? values.secret;
  if (!secret) {
    return { kind: 'error', message: 'BRIDGE_TOKEN is not set: pass this site\'s bridge token as the BRIDGE_TOKEN environment variable (or the deployment\'s shared BRIDGE_SECRET).' };
  }
  let url: URL;
  try {
    url = new URL(values.workerUrl!);
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw new Error('scheme');
  } catch {
    return { kind: 'error', message: `WORKER_URL is not a valid http(s) URL: ${values.workerUrl}` };
  }
  if (!/^[1-9][0-9]*$/.test(values.maxJobsTotal!)) return { kind: 'error', message: `MAX_JOBS_TOTAL must be a positive integer (got ${values.maxJobsTotal}).` };
  if (!/^\d+$/.test(values.lpdPort!) || Number(values.lpdPort) > 65535) return { kind: 'error', message: `LPD_PORT must be a port number, or 0 to turn LPD off (got ${values.lpdPort}).` };
  if (!isLogLevel(values.logLevel!)) return { kind: 'error', message: `LOG_LEVEL must be one of debug, info, warn, error, silent (got ${values.logLevel}).` };
  return {
    kind: 'ok',
    config: {
      workerUrl: url.toString().replace(/\/+$/, ''),
      secret,
      bindHost: values.bindHost!,
      logLevel: values.logLevel as LogLevel,
      stateDir: values.stateDir ?? '',
      maxJobsTotal: Number(values.maxJobsTotal),
      publicHost: values.publicHost ?? '',
      lpdPort: Number(values.lpdPort),
    },
  };
}

/** http(s)://host -> ws(s)://host, keeping any path prefix. */
export function toWebSocketUrl(base: string, path: string): string {
  const u = new URL(base);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  return u.toString().replace(/\/+$/, '') + path;
}

export function toHttpUrl(base: string, path: string): string {
  const u = new URL(base);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  else if (u.protocol === 'wss:') u.protocol = 'https:';
  return u.toString().replace(/\/+$/, '') + path;
}
