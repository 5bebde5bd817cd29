import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Env } from '../src/worker/env.ts';

/**
 * `.dev.vars` holds local secrets. On first run it is created with random JWT and bridge
 * secrets so `npm start` works with no hand-made config. Environment variables win over it.
 */
export const WORKER_SETTINGS = [
  'JWT_SECRET', 'JWT_EXPIRES_IN_SECONDS', 'ADMIN_WORKSPACE_IDS', 'PUBLIC_HOST', 'PRINTER_PORT_BASE', 'PRINTER_PORT_COUNT',
  'LISTENER_IDLE_TIMEOUT_MS', 'MEDIA_KEEP_RECENT_MS', 'MAX_JOB_BYTES', 'COUNT_D1_STATEMENTS', 'BRIDGE_SECRET',
  'WEBHOOK_RETRY_BASE_SECONDS', 'MAX_PRINTERS_PER_WORKSPACE', 'MAX_CONNECTIONS_PER_PRINTER', 'MAX_JOB_SECONDS',
  'MAX_JOBS_IN_FLIGHT', 'ADMIN_SECRET', 'TRUST_PROXY', 'RATE_LIMIT_PER_MINUTE', 'ALLOW_PRIVATE_TARGETS',
] as const satisfies readonly (keyof Env)[];

/** Every text variable of the Worker's `Env` that a user sets: `npm start` passes each on. */
type UserSetting = Exclude<{ [K in keyof Env]-?: string extends NonNullable<Env[K]> ? K : never }[keyof Env], 'PRINTERS_FILE_DIGEST'>;
type NotPassedOn = Exclude<UserSetting, (typeof WORKER_SETTINGS)[number]>;
/** Fails to compile naming the setting when the Worker reads one that `npm start` would not pass on. */
export const everySettingPassedOn: [NotPassedOn] extends [never] ? true : NotPassedOn = true;

/**
 * What `npm start` sets unless .dev.vars or the environment say otherwise: local development,
 * where webhook receivers run on the same machine (a deployment leaves it off).
 */
const LOCAL_DEFAULTS: Record<string, string> = { ALLOW_PRIVATE_TARGETS: 'true' };

export function parseDevVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    out[m[1]] = m[2].replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  return out;
}

export function ensureDevVars(path: string): Record<string, string> {
  if (!existsSync(path)) {
    writeFileSync(
      path,
      [
        '# Local secrets for `npm start`, generated on first run. Environment variables win over these.',
        `JWT_SECRET=${randomBytes(32).toString('hex')}`,
        `BRIDGE_SECRET=${randomBytes(32).toString('hex')}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    console.log(`[slipstream] created ${path} with fresh random JWT_SECRET and BRIDGE_SECRET`);
  }
  return parseDevVars(readFileSync(path, 'utf8'));
}

/** .dev.vars merged with the environment (environment wins). */
export function effectiveSettings(devVars: Record<string, string>, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = { ...LOCAL_DEFAULTS, ...devVars };
  for (const key of WORKER_SETTINGS) {
    const v = env[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}
