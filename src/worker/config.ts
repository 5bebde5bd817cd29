import type { Env } from './env.ts';
import { RECENTLY_UPLOADED_MS } from './services/media-store.ts';

/** Settings parsed once per request from the environment, with the documented defaults. */
export interface Settings {
  jwtExpiresInSeconds: number;
  adminWorkspaceIds: ReadonlySet<string>;
  publicHost: string;
  printerPortBase: number;
  /** Ports of the printer block: PRINTER_PORT_BASE+1 … PRINTER_PORT_BASE+this (printerPortBlock). */
  printerPortCount: number;
  listenerIdleTimeoutMs: number;
  maxJobBytes: number;
  /** First webhook retry delay; later ones double (services/webhooks.ts). */
  webhookRetryBaseSeconds: number;
  /** Limits of extensions.md "Limits"; the connection/job ones are enforced by the bridge. */
  maxPrintersPerWorkspace: number;
  maxConnectionsPerPrinter: number;
  maxJobSeconds: number;
  maxJobsInFlight: number;
  /** Required in `X-Admin-Secret` to create a workspace listed in ADMIN_WORKSPACE_IDS; unset: never. */
  adminSecret: string | null;
  /** A TLS-terminating proxy in front sets X-Forwarded-Proto/For, and they are believed. */
  trustProxy: boolean;
  /** Logins and anonymous creations one client address may make per minute (and in a burst). */
  rateLimitPerMinute: number;
  /** R2 images uploaded within this are never deleted as unreferenced (services/media-store.ts). */
  mediaKeepRecentMs: number;
  /** Webhook and cloud-print URLs may point at loopback, private or link-local hosts (services/outbound-url.ts). */
  allowPrivateTargets: boolean;
}

/**
 * Ports a deployment may assign to printers (issue 31): with the default base, 9101–19100, below
 * Linux's ephemeral range (32768+), so no outgoing connection and no port the system picks for
 * a listener (workerd's loopback sockets) lands in the block. `npm start` checks the same block.
 */
export const DEFAULT_PRINTER_PORT_COUNT = 10_000;

/** The printer port block: the first and the last port the deployment may assign. */
export interface PortBlock {
  first: number;
  last: number;
}

export function printerPortBlock(s: Pick<Settings, 'printerPortBase' | 'printerPortCount'>): PortBlock {
  return { first: s.printerPortBase + 1, last: Math.min(65535, s.printerPortBase + s.printerPortCount) };
}

function intSetting(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function readSettings(env: Env): Settings {
  return {
    jwtExpiresInSeconds: intSetting(env.JWT_EXPIRES_IN_SECONDS, 86400),
    adminWorkspaceIds: new Set(
      (env.ADMIN_WORKSPACE_IDS ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    ),
    publicHost: env.PUBLIC_HOST?.trim() || 'localhost',
    printerPortBase: intSetting(env.PRINTER_PORT_BASE, 9100),
    printerPortCount: intSetting(env.PRINTER_PORT_COUNT, DEFAULT_PRINTER_PORT_COUNT),
    listenerIdleTimeoutMs: intSetting(env.LISTENER_IDLE_TIMEOUT_MS, 2000),
    maxJobBytes: intSetting(env.MAX_JOB_BYTES, 16 * 1024 * 1024),
    webhookRetryBaseSeconds: intSetting(env.WEBHOOK_RETRY_BASE_SECONDS, 30),
    maxPrintersPerWorkspace: intSetting(env.MAX_PRINTERS_PER_WORKSPACE, 100),
    maxConnectionsPerPrinter: intSetting(env.MAX_CONNECTIONS_PER_PRINTER, 32),
    maxJobSeconds: intSetting(env.MAX_JOB_SECONDS, 300),
    maxJobsInFlight: intSetting(env.MAX_JOBS_IN_FLIGHT, 8),
    adminSecret: env.ADMIN_SECRET?.trim() || null,
    rateLimitPerMinute: intSetting(env.RATE_LIMIT_PER_MINUTE, 30),
    trustProxy: ['1', 'true', 'yes'].includes((env.TRUST_PROXY ?? '').trim().toLowerCase()),
    mediaKeepRecentMs: intSetting(env.MEDIA_KEEP_RECENT_MS, RECENTLY_UPLOADED_MS),
    allowPrivateTargets: ['1', 'true', 'yes'].includes((env.ALLOW_PRIVATE_TARGETS ?? '').trim().toLowerCase()),
  };
}

/**
 * The JWT secret guard (decisions.md): missing, shorter than 32 characters, or a placeholder.
 * Shared with scripts/start.ts so `npm start` and the Worker refuse the same values.
 */
export function jwtSecretProblem(secret: string | undefined): string | null {
  if (!secret) return 'JWT_SECRET is not set';
  if (secret.length < 32) return 'JWT_SECRET must be at least 32 characters long';
  const lower = secret.toLowerCase();
  if (['change-me', 'changeme', 'your-secret', 'secret'].some((p) => lower.startsWith(p))) {
    return 'JWT_SECRET is still a placeholder value';
  }
  return null;
}
