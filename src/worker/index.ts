import { createApp } from './app.ts';
import type { Env } from './env.ts';
import { runRetention } from './services/retention.ts';
import { pruneConnections } from './data/connections.ts';
import { countD1Statements } from './data/d1-statement-count.ts';
import { consumeWebhookBatch, type WebhookMessage } from './services/webhooks.ts';

export { PrinterObject } from './objects/printer-object.ts';
export { WorkspaceObject } from './objects/workspace-object.ts';
export { BridgeHub } from './objects/bridge-hub.ts';
export { RateLimiter } from './objects/rate-limiter.ts';

const app = createApp();

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    countD1Statements(env);
    return app.fetch(request, env, ctx);
  },
  /** Hourly Cron Trigger: apply every workspace's retention, prune old connection records. */
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(
      Promise.all([runRetention(env, { workspaceId: null, retentionDaysOverride: null }), pruneConnections(env.DB)]).then(() => undefined),
    );
  },
  /** The WEBHOOKS queue: signed deliveries with retries (services/webhooks.ts). */
  async queue(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
    countD1Statements(env);
    await consumeWebhookBatch(batch, env);
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
