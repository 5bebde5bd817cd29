export interface ConnectionAttempt { workspaceId: string; printerId: string; clientIp: string; allowed: boolean; at: string }

/**
 * One INSERT per flush, whatever the number of attempts (the printing path's D1 budget): the
 * rows travel as one JSON parameter (D1 binds at most 100 parameters per statement), unpacked
 * by SQLite's json_each. Attempts on a printer deleted meanwhile (with its workspace, perhaps)
 * are not written: a delete leaves no connection row behind, even one flushed after it.
 */
export async function recordConnections(db: D1Database, attempts: ConnectionAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const rows = JSON.stringify(attempts.map((a) => [a.workspaceId, a.printerId, a.clientIp, a.at, a.allowed ? 1 : 0]));
  await db
    .prepare(
      `INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed)
       SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4 FROM json_each(?) j
       JOIN printers p ON p.id = j.value ->> 1 AND p.workspace_id = j.value ->> 0 AND p.deleted_at IS NULL`,
    )
    .bind(rows)
    .run();
}

export async function listConnections(db: D1Database, workspaceId: string, minutes: number) {
  const since = new Date(Date.now() - minutes * 60_000).toISOString();
  const { results } = await db
    .prepare(
      `SELECT client_ip, connected_at, allowed, connection_type FROM tcp_connections
       WHERE workspace_id = ? AND connected_at >= ? ORDER BY connected_at DESC, id DESC LIMIT 1000`,
    )
    .bind(workspaceId, since)
    .all<{ client_ip: string; connected_at: string; allowed: number; connection_type: 'Tcp' }>();
  return results.map((r) => ({ clientIp: r.client_ip, connectedAt: r.connected_at, allowed: r.allowed === 1, connectionType: r.connection_type }));
}

/** Connection attempts are kept at least 24 hours (decisions.md); older ones are pruned hourly. */
export async function pruneConnections(db: D1Database): Promise<void> {
  await db.prepare('DELETE FROM tcp_connections WHERE connected_at < ?').bind(new Date(Date.now() - 48 * 3600_000).toISOString()).run();
}
