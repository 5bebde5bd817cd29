import type { PrinterObject } from './objects/printer-object.ts';
import type { WorkspaceObject } from './objects/workspace-object.ts';
import type { WebhookMessage } from './services/webhooks.ts';
import type { BridgeHub } from './objects/bridge-hub.ts';

/** Bindings and variables of the Worker (wrangler.toml, .dev.vars, deployed secrets). */
export interface Env {
  DB: D1Database;
  MEDIA: R2Bucket;
  ASSETS: Fetcher;
  PRINTER: DurableObjectNamespace<PrinterObject>;
  WORKSPACE: DurableObjectNamespace<WorkspaceObject>;
  BRIDGE_HUB: DurableObjectNamespace<BridgeHub>;
  JWT_SECRET?: string;
  JWT_EXPIRES_IN_SECONDS?: string;
  ADMIN_WORKSPACE_IDS?: string;
  PUBLIC_HOST?: string;
  PRINTER_PORT_BASE?: string;
  PRINTER_PORT_COUNT?: string;
  LISTENER_IDLE_TIMEOUT_MS?: string;
  MEDIA_KEEP_RECENT_MS?: string;
  MAX_JOB_BYTES?: string;
  /** "1": count D1 statements for the storage benchmark (data/d1-statement-count.ts). */
  COUNT_D1_STATEMENTS?: string;
  BRIDGE_SECRET?: string;
  /** Set by `npm start` with a printers file: its digest; /api/health waits until it is applied. */
  PRINTERS_FILE_DIGEST?: string;
  /** Webhook deliveries (services/webhooks.ts); producer and consumer in wrangler.toml. */
  WEBHOOKS: Queue<WebhookMessage>;
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  MAX_PRINTERS_PER_WORKSPACE?: string;
  MAX_CONNECTIONS_PER_PRINTER?: string;
  MAX_JOB_SECONDS?: string;
  MAX_JOBS_IN_FLIGHT?: string;
  ADMIN_SECRET?: string;
  TRUST_PROXY?: string;
  RATE_LIMIT_PER_MINUTE?: string;
  /** "true" (npm start's default): outbound URLs may be loopback/private (services/outbound-url.ts). */
  ALLOW_PRIVATE_TARGETS?: string;
  /** Per-client-address rate limit buckets (login, anonymous creation). */
  RATE_LIMITER: DurableObjectNamespace<import('./objects/rate-limiter.ts').RateLimiter>;
}
