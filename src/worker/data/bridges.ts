import { nowIso } from './rows.ts';

/** A row of `bridges` (migrations/0006_bridges.sql). */
export interface BridgeRow {
  id: string;
  workspace_id: string;
  name: string;
  public_host: string;
  token_hash: string;
  created_at: string;
  last_seen_at: string | null;
  remote_address: string | null;
  version: string | null;
}

export async function insertBridge(db: D1Database, b: { id: string; workspaceId: string; name: string; publicHost: string; tokenHash: string }): Promise<BridgeRow> {
  const row: BridgeRow = {
    id: b.id, workspace_id: b.workspaceId, name: b.name, public_host: b.publicHost, token_hash: b.tokenHash,
    created_at: nowIso(), last_seen_at: null, remote_address: null, version: null,
  };
  await db
    .prepare('INSERT INTO bridges (id, workspace_id, name, public_host, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(row.id, row.workspace_id, row.name, row.public_host, row.token_hash, row.created_at)
    .run();
  return row;
}

export async function listBridges(db: D1Database, workspaceId: string): Promise<BridgeRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM bridges WHERE workspace_id = ? ORDER BY created_at, id').bind(workspaceId).all<BridgeRow>();
  return results;
}

/** The workspace's bridge with this id; null for an unknown id or another workspace's bridge. */
export async function findWorkspaceBridge(db: D1Database, workspaceId: string, id: string): Promise<BridgeRow | null> {
  return db.prepare('SELECT * FROM bridges WHERE id = ? AND workspace_id = ?').bind(id.toLowerCase(), workspaceId).first<BridgeRow>();
}

export async function findBridgeByTokenHash(db: D1Database, hash: string): Promise<BridgeRow | null> {
  return db.prepare('SELECT * FROM bridges WHERE token_hash = ?').bind(hash).first<BridgeRow>();
}

/** Revokes: the row goes, so its token is refused from now on. Its printers keep `bridge_id`. */
export async function deleteBridge(db: D1Database, id: string): Promise<void> {
  await db.prepare('DELETE FROM bridges WHERE id = ?').bind(id).run();
}

/** Connect / disconnect bookkeeping by the bridge's hub (not per ping or document). */
export async function recordBridgeSeen(db: D1Database, id: string, seen: { remoteAddress?: string | null; version?: string | null }): Promise<void> {
  await db
    .prepare('UPDATE bridges SET last_seen_at = ?, remote_address = COALESCE(?, remote_address), version = COALESCE(?, version) WHERE id = ?')
    .bind(nowIso(), seen.remoteAddress ?? null, seen.version ?? null, id)
    .run();
}
