import type { Env } from '../env.ts';
import { deleteDocumentsWhere, type DeletionResult } from './document-deletion.ts';

/**
 * Retention: documents older than their workspace's `documentRetentionDays` (or an override)
 * are deleted with the media only they used. `workspaceId` null means every workspace
 * (admins, and the hourly cron). An override of 0 selects every document in scope.
 */
export interface RetentionScope {
  workspaceId: string | null;
  retentionDaysOverride: number | null;
}

function expiredWhere(scope: RetentionScope, now: Date): { where: string; binds: unknown[] } {
  const parts: string[] = [];
  const binds: unknown[] = [];
  if (scope.workspaceId) { parts.push('workspace_id = ?'); binds.push(scope.workspaceId); }
  if (scope.retentionDaysOverride !== null) {
    if (scope.retentionDaysOverride > 0) {
      parts.push('created_at < ?');
      binds.push(new Date(now.getTime() - scope.retentionDaysOverride * 86400_000).toISOString());
    }
  } else {
    // ISO 8601 UTC strings compare correctly as text; strftime keeps the same format.
    parts.push(`created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?, '-' || (SELECT document_retention_days FROM workspaces w WHERE w.id = documents.workspace_id) || ' days')`);
    binds.push(now.toISOString());
  }
  return { where: parts.length ? parts.join(' AND ') : '1 = 1', binds };
}

export async function retentionPreview(env: Env, scope: RetentionScope): Promise<{ expiredDocuments: number; retentionMediaFiles: number }> {
  const { where, binds } = expiredWhere(scope, new Date());
  const row = await env.DB
    .prepare(
      `SELECT (SELECT COUNT(*) FROM documents WHERE ${where}) AS docs,
              (SELECT COUNT(*) FROM media WHERE document_id IN (SELECT id FROM documents WHERE ${where})) AS media`,
    )
    .bind(...binds, ...binds)
    .first<{ docs: number; media: number }>();
  return { expiredDocuments: row?.docs ?? 0, retentionMediaFiles: row?.media ?? 0 };
}

export async function runRetention(env: Env, scope: RetentionScope, maxDocuments?: number): Promise<DeletionResult> {
  const { where, binds } = expiredWhere(scope, new Date());
  return deleteDocumentsWhere(env, where, binds, maxDocuments);
}
