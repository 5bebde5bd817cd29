/** The `webhooks` table (migration 0005): one row per workspace that set a webhook. */
export interface WebhookRow {
  workspace_id: string;
  url: string;
  signing_secret: string;
  is_enabled: number;
  created_at: string;
  last_delivery_at: string | null;
  last_delivery_status: number | null;
}

export function findWebhook(db: D1Database, workspaceId: string): Promise<WebhookRow | null> {
  return db.prepare('SELECT * FROM webhooks WHERE workspace_id = ?').bind(workspaceId).first<WebhookRow>();
}

/** Sets the workspace's webhook (a new URL gets a new secret; delivery figures start over). */
export async function putWebhook(db: D1Database, workspaceId: string, url: string, signingSecret: string, now: string): Promise<WebhookRow> {
  await db
    .prepare(
      `INSERT INTO webhooks (workspace_id, url, signing_secret, is_enabled, created_at) VALUES (?, ?, ?, 1, ?)
       ON CONFLICT (workspace_id) DO UPDATE SET url = excluded.url, signing_secret = excluded.signing_secret, is_enabled = 1,
         created_at = excluded.created_at, last_delivery_at = NULL, last_delivery_status = NULL`,
    )
    .bind(workspaceId, url, signingSecret, now)
    .run();
  return (await findWebhook(db, workspaceId))!;
}

export async function deleteWebhook(db: D1Database, workspaceId: string): Promise<boolean> {
  const r = await db.prepare('DELETE FROM webhooks WHERE workspace_id = ?').bind(workspaceId).run();
  return (r.meta.changes ?? 0) > 0;
}

/** Records one delivery attempt's outcome, unless the webhook was replaced since (other secret). */
export async function recordDelivery(db: D1Database, workspaceId: string, url: string, at: string, status: number): Promise<void> {
  await db
    .prepare('UPDATE webhooks SET last_delivery_at = ?, last_delivery_status = ? WHERE workspace_id = ? AND url = ?')
    .bind(at, status, workspaceId, url)
    .run();
}

/** Whether the workspace has a webhook that is switched on. */
export async function hasEnabledWebhook(db: D1Database, workspaceId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS on_ FROM webhooks WHERE workspace_id = ? AND is_enabled = 1').bind(workspaceId).first()) !== null;
}
