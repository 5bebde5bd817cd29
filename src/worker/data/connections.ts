export interface ConnectionAttempt { workspaceId: string; printerId: string; clientIp: string; allowed: boolean; at: string }

/** D1 binds at most 100 parameters per statement: 20 rows of 5. */
const ROWS_PER_INSERT = 20;

/** One multi-row INSERT per 20 attempts (not one statement per connection: the printing path's D1 budget). */
export async function recordConnections(db: D1Database, attempts: ConnectionAttempt[]): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < attempts.length; i += ROWS_PER_INSERT) {
    const rows = attempts.slice(i, i + ROWS_PER_INSERT);
    statements.push(
      db
        .prepare(`INSERT INTO tcp_connections (workspace_id, printer_id, client_ip, connected_at, allowed) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`)
        .bind(...rows.flatMap((a) => [a.workspaceId, a.printerId, a.clientIp, a.at, a.allowed ? 1 : 0])),
    );
  }
  if (statements.length) await db.batch(statements);
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
