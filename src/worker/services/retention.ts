import type { Env } from '../env.ts';
import type { DeletionResult } from './document-deletion.ts';
import { printerStub } from './notify.ts';

/**
 * Retention: documents older than their workspace's `documentRetentionDays` (or an override)
 * are deleted with the media only they used. `workspaceId` null means every workspace
 * (admins, and the hourly cron). An override of 0 selects every document in scope.
 *
 * Documents live in their printers' Durable Objects, which also apply retention on their own
 * (alarms). Here the per-hour counters in D1 name the printers that can hold expired documents
 * (a bucket older than the cutoff); each of those printers counts or deletes exactly.
 */
export interface RetentionScope {
  workspaceId: string | null;
  retentionDaysOverride: number | null;
}

const DAY = 86400_000;

interface Candidate {
  printer_id: string;
  /** Documents created before this are expired. */
  cutoff: string;
}

/** Printers with documents older than their cutoff, by the counters (a bucket starting before it). */
async function candidates(env: Env, scope: RetentionScope, now: Date): Promise<Candidate[]> {
  const cutoffSql = scope.retentionDaysOverride !== null
    ? '?1'
    : `strftime('%Y-%m-%dT%H:%M:%fZ', ?1, '-' || w.document_retention_days || ' days')`;
  const at = scope.retentionDaysOverride !== null
    ? (scope.retentionDaysOverride > 0 ? new Date(now.getTime() - scope.retentionDaysOverride * DAY).toISOString() : '\uffff')
    : now.toISOString();
  const { results } = await env.DB
    .prepare(
      `SELECT c.printer_id, ${cutoffSql} AS cutoff FROM document_counters c JOIN workspaces w ON w.id = c.workspace_id
       WHERE (?2 IS NULL OR c.workspace_id = ?2) AND c.documents > 0
       GROUP BY c.printer_id HAVING MIN(c.hour) < ${cutoffSql}`,
    )
    .bind(at, scope.workspaceId)
    .all<Candidate>();
  // Printers of the workspace that have not flushed their first counters yet hold only fresh
  // documents; override 0 must reach them too.
  if (scope.workspaceId && scope.retentionDaysOverride === 0) {
    const { results: all } = await env.DB.prepare('SELECT id AS printer_id FROM printers WHERE workspace_id = ?').bind(scope.workspaceId).all<{ printer_id: string }>();
    const known = new Set(results.map((r) => r.printer_id));
    for (const p of all) if (!known.has(p.printer_id)) results.push({ printer_id: p.printer_id, cutoff: '\uffff' });
  }
  return results;
}

const cutoffArg = (c: Candidate) => (c.cutoff === '\uffff' ? null : c.cutoff);

export async function retentionPreview(env: Env, scope: RetentionScope): Promise<{ expiredDocuments: number; retentionMediaFiles: number }> {
  const counts = await Promise.all(
    (await candidates(env, scope, new Date())).map((c) => printerStub(env, c.printer_id).countDocuments(c.printer_id, cutoffArg(c))),
  );
  return {
    expiredDocuments: counts.reduce((a, c) => a + c.documents, 0),
    retentionMediaFiles: counts.reduce((a, c) => a + c.media, 0),
  };
}

export async function runRetention(env: Env, scope: RetentionScope, maxDocuments?: number): Promise<DeletionResult> {
  const total: DeletionResult = { deletedDocuments: 0, deletedMedia: 0 };
  for (const c of await candidates(env, scope, new Date())) {
    const left = maxDocuments === undefined ? undefined : maxDocuments - total.deletedDocuments;
    if (left !== undefined && left <= 0) break;
    const r = await printerStub(env, c.printer_id).deleteDocuments(c.printer_id, cutoffArg(c), left);
    total.deletedDocuments += r.deletedDocuments;
    total.deletedMedia += r.deletedMedia;
  }
  return total;
}
