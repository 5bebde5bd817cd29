import type { WorkspaceRow } from '../data/rows.ts';

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const DAY = 86400_000;
/**
 * Document figures come from the per-hour counters the printers' Durable Objects flush to D1
 * (objects/counter-outbox.ts), not from the documents themselves: "last 24 h" counts whole hour
 * buckets from the one that holds the instant 24 h ago, so it may include up to an hour more.
 */
const hourAgo = (ms: number) => ago(ms).slice(0, 13);

export async function workspaceSummary(db: D1Database, ws: WorkspaceRow) {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM printers WHERE workspace_id = ?1 AND deleted_at IS NULL) AS printers,
              (SELECT COALESCE(SUM(documents), 0) FROM document_counters WHERE workspace_id = ?1) AS docs,
              (SELECT COALESCE(SUM(documents), 0) FROM document_counters WHERE workspace_id = ?1 AND hour >= ?2) AS docs24,
              (SELECT MAX(last_at) FROM document_counters WHERE workspace_id = ?1 AND documents > 0) AS last`,
    )
    .bind(ws.id, hourAgo(DAY))
    .first<{ printers: number; docs: number; docs24: number; last: string | null }>();
  return {
    totalPrinters: row?.printers ?? 0,
    totalDocuments: row?.docs ?? 0,
    documentsLast24h: row?.docs24 ?? 0,
    ...(row?.last && { lastDocumentAt: row.last }),
    createdAt: ws.created_at,
  };
}

interface StatRow {
  id: string; name: string; document_retention_days: number; last_api_read_at: string | null; last_web_read_at: string | null;
  printers: number; docs: number; docs24: number; docs7: number; last: string | null;
  media: number; media_bytes: number; media24: number; media7: number;
}

export async function adminStatistics(db: D1Database, adminIds: ReadonlySet<string>) {
  const { results } = await db
    .prepare(
      `SELECT w.id, w.name, w.document_retention_days, w.last_api_read_at, w.last_web_read_at,
         (SELECT COUNT(*) FROM printers p WHERE p.workspace_id = w.id AND p.deleted_at IS NULL) AS printers,
         (SELECT COALESCE(SUM(documents), 0) FROM document_counters d WHERE d.workspace_id = w.id) AS docs,
         (SELECT COALESCE(SUM(documents), 0) FROM document_counters d WHERE d.workspace_id = w.id AND d.hour >= ?3) AS docs24,
         (SELECT COALESCE(SUM(documents), 0) FROM document_counters d WHERE d.workspace_id = w.id AND d.hour >= ?4) AS docs7,
         (SELECT MAX(last_at) FROM document_counters d WHERE d.workspace_id = w.id AND d.documents > 0) AS last,
         (SELECT COUNT(*) FROM media m WHERE m.workspace_id = w.id) AS media,
         (SELECT COALESCE(SUM(size), 0) FROM media m WHERE m.workspace_id = w.id) AS media_bytes,
         (SELECT COUNT(*) FROM media m WHERE m.workspace_id = w.id AND m.created_at >= ?1) AS media24,
         (SELECT COUNT(*) FROM media m WHERE m.workspace_id = w.id AND m.created_at >= ?2) AS media7
       FROM workspaces w ORDER BY w.created_at`,
    )
    .bind(ago(DAY), ago(7 * DAY), hourAgo(DAY), hourAgo(7 * DAY))
    .all<StatRow>();
  const sum = (f: (r: StatRow) => number) => results.reduce((a, r) => a + f(r), 0);
  const lastOf = results.map((r) => r.last).filter((x): x is string => x !== null).sort().at(-1);
  const activeSince = (since: string) =>
    results.filter((r) => [r.last, r.last_api_read_at, r.last_web_read_at].some((t) => t !== null && t >= since)).length;
  return {
    totalWorkspaces: results.length,
    activeWorkspacesLast24h: activeSince(ago(DAY)),
    activeWorkspacesLast7d: activeSince(ago(7 * DAY)),
    totalPrinters: sum((r) => r.printers),
    totalDocuments: sum((r) => r.docs),
    totalMedia: sum((r) => r.media),
    totalMediaBytes: sum((r) => r.media_bytes),
    documentsLast24h: sum((r) => r.docs24),
    documentsLast7d: sum((r) => r.docs7),
    mediaLast24h: sum((r) => r.media24),
    mediaLast7d: sum((r) => r.media7),
    ...(lastOf && { lastDocumentAt: lastOf }),
    workspaces: results.map((r) => ({
      workspaceId: r.id,
      workspaceName: r.name,
      role: (adminIds.has(r.id) ? 'Admin' : 'Normal') as 'Admin' | 'Normal',
      printerCount: r.printers,
      documentCount: r.docs,
      mediaCount: r.media,
      mediaBytes: r.media_bytes,
      documentsLast24h: r.docs24,
      ...(r.last && { lastDocumentAt: r.last }),
      documentRetentionDays: r.document_retention_days,
      ...(r.last_api_read_at && { lastApiReadAt: r.last_api_read_at }),
      ...(r.last_web_read_at && { lastWebReadAt: r.last_web_read_at }),
    })),
  };
}
