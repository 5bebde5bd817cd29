import type { WorkspaceRow } from './rows.ts';
import { nowIso } from './rows.ts';

export async function findWorkspace(db: D1Database, id: string): Promise<WorkspaceRow | null> {
  return db.prepare('SELECT * FROM workspaces WHERE id = ?').bind(id.toLowerCase()).first<WorkspaceRow>();
}

export async function findWorkspaceByTokenHash(db: D1Database, hash: string): Promise<WorkspaceRow | null> {
  return db.prepare('SELECT * FROM workspaces WHERE token_hash = ?').bind(hash).first<WorkspaceRow>();
}

/** Returns false when the id is already taken (the caller answers 409). */
export async function insertWorkspace(db: D1Database, id: string, name: string, tokenHash: string): Promise<boolean> {
  const result = await db
    .prepare('INSERT INTO workspaces (id, name, token_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
    .bind(id.toLowerCase(), name, tokenHash, nowIso())
    .run();
  return result.meta.changes === 1;
}

export interface WorkspacePatch {
  name?: string;
  documentRetentionDays?: number;
  tcpWhitelistEnabled?: boolean;
  tcpWhitelistEntries?: string;
  lightColorScheme?: string;
  darkColorScheme?: string;
}

export async function updateWorkspace(db: D1Database, id: string, patch: WorkspacePatch): Promise<void> {
  const columns: [string, unknown][] = [];
  if (patch.name !== undefined) columns.push(['name', patch.name]);
  if (patch.documentRetentionDays !== undefined) columns.push(['document_retention_days', patch.documentRetentionDays]);
  if (patch.tcpWhitelistEnabled !== undefined) columns.push(['tcp_whitelist_enabled', patch.tcpWhitelistEnabled ? 1 : 0]);
  if (patch.tcpWhitelistEntries !== undefined) columns.push(['tcp_whitelist_entries', patch.tcpWhitelistEntries]);
  if (patch.lightColorScheme !== undefined) columns.push(['light_color_scheme', patch.lightColorScheme]);
  if (patch.darkColorScheme !== undefined) columns.push(['dark_color_scheme', patch.darkColorScheme]);
  if (columns.length === 0) return;
  await db
    .prepare(`UPDATE workspaces SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`)
    .bind(...columns.map(([, v]) => v), id)
    .run();
}

/**
 * The first step of deleting a workspace: its printers are deleted (their objects refuse new
 * sessions, listeners close) and its bridges' tokens stop authenticating.
 */
export function retireWorkspacePrintersStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    db.prepare('UPDATE printers SET deleted_at = ?, target_state = \'Stopped\' WHERE workspace_id = ? AND deleted_at IS NULL').bind(nowIso(), id),
    db.prepare('DELETE FROM bridges WHERE workspace_id = ?').bind(id),
  ];
}

/** Deletes the workspace row and everything it owns in D1 (R2 objects are removed by the caller). */
export function deleteWorkspaceStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM nv_images WHERE printer_id IN (SELECT id FROM printers WHERE workspace_id = ?)').bind(id),
    db.prepare('DELETE FROM media WHERE workspace_id = ?').bind(id),
    // Documents are in the printers' Durable Objects (deleted first, by the caller); the legacy
    // table holds only rows a printer has not imported yet (migration 0003).
    db.prepare('DELETE FROM documents WHERE workspace_id = ?').bind(id),
    db.prepare('DELETE FROM document_counters WHERE workspace_id = ?').bind(id),
    db.prepare('DELETE FROM tcp_connections WHERE workspace_id = ?').bind(id),
    db.prepare('DELETE FROM webhooks WHERE workspace_id = ?').bind(id),
    // Printers are soft-deleted so their ports stay taken (ports are never reused).
    db.prepare('UPDATE printers SET deleted_at = ?, target_state = \'Stopped\' WHERE workspace_id = ? AND deleted_at IS NULL').bind(nowIso(), id),
    db.prepare('DELETE FROM bridges WHERE workspace_id = ?').bind(id),
    db.prepare('DELETE FROM workspaces WHERE id = ?').bind(id),
  ];
}
