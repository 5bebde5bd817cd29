import type { PrinterRow, RuntimeStateName, DrawerStateName } from './rows.ts';
import { nowIso } from './rows.ts';
import type { PortBlock } from '../config.ts';

/** Every port of the printer block has been assigned (ports are never reused). */
export class PortBlockUsedUp extends Error {
  constructor(readonly block: PortBlock) {
    super(`Every port of the printer port block (${block.first}–${block.last}) has been assigned; ports are never reused. Raise PRINTER_PORT_COUNT (or move PRINTER_PORT_BASE) to create more printers`);
  }
}
import { settingColumns, type StoredSettings } from '../schemas/printer-settings.ts';

// The bridge's public host is the printer's (extensions.md "Sites"); NULL for the shared bridge.
const SELECT = `SELECT p.*, w.name AS workspace_name, w.created_at AS workspace_created_at, b.public_host AS bridge_public_host FROM printers p
  LEFT JOIN workspaces w ON w.id = p.workspace_id
  LEFT JOIN bridges b ON b.id = p.bridge_id AND b.workspace_id = p.workspace_id`;

export const findPrinterStatement = (db: D1Database, id: string) =>
  db.prepare(`${SELECT} WHERE p.id = ? AND p.deleted_at IS NULL`).bind(id.toLowerCase());

/** A printer row, deleted or not (a deleted printer's object clearing up after it). */
export async function findPrinterEvenDeleted(db: D1Database, id: string): Promise<PrinterRow | null> {
  return db.prepare(`${SELECT} WHERE p.id = ?`).bind(id.toLowerCase()).first<PrinterRow>();
}

/** A live (not deleted) printer, regardless of workspace. */
export async function findPrinter(db: D1Database, id: string): Promise<PrinterRow | null> {
  return findPrinterStatement(db, id).first<PrinterRow>();
}

export async function listPrinters(db: D1Database, workspaceId: string): Promise<PrinterRow[]> {
  const { results } = await db
    .prepare(`${SELECT} WHERE p.workspace_id = ? AND p.deleted_at IS NULL ORDER BY p.is_pinned DESC, p.display_name COLLATE NOCASE, p.created_at`)
    .bind(workspaceId)
    .all<PrinterRow>();
  return results;
}

export type NewPrinter = StoredSettings & {
  id: string;
  workspaceId: string;
  displayName: string;
  /** The bridge serving the port; null or absent: the shared bridge. */
  bridgeId?: string | null;
};

/**
 * The INSERT of a new printer; `port` is the SQL expression (with its parameters) that gives
 * its port. Shared by automatic and declared ports, so both write every setting.
 */
export function insertPrinterStatement(db: D1Database, p: NewPrinter, port: { sql: string; params: unknown[] }): D1PreparedStatement {
  const now = nowIso();
  const { columns, values } = settingColumns(p);
  return db.prepare(
    `INSERT INTO printers (id, workspace_id, display_name, ${columns.join(', ')}, tcp_listen_port, flags_updated_at, runtime_updated_at, created_at, bridge_id)
     VALUES (?, ?, ?, ${columns.map(() => '?').join(', ')}, ${port.sql}, ?, ?, ?, ?)`,
  ).bind(p.id.toLowerCase(), p.workspaceId, p.displayName, ...values, ...port.params, now, now, now, p.bridgeId ?? null);
}

/**
 * Inserts the printer with the next port, atomically: the allocator row is bumped and the
 * printer inserted in one D1 batch (a single transaction), so concurrent creates never
 * share a port and a failed insert (duplicate id) does not burn one.
 * Returns null when the id already exists; throws PortBlockUsedUp beyond the block's last port.
 */
export async function insertPrinter(db: D1Database, p: NewPrinter, block: PortBlock): Promise<PrinterRow | null> {
  try {
    await db.batch([
      db.prepare(
        `INSERT INTO port_allocator (id, highest_port) VALUES (1, ?1 + 1)
         ON CONFLICT (id) DO UPDATE SET highest_port = MAX(highest_port, ?1) + 1`,
      ).bind(block.first - 1),
      // NULL past the block's last port: the NOT NULL port column fails the batch (rolled back).
      insertPrinterStatement(db, p, { sql: '(SELECT highest_port FROM port_allocator WHERE id = 1 AND highest_port <= ?)', params: [block.last] }),
    ]);
  } catch (e) {
    if (/UNIQUE constraint failed: printers\.id/i.test(String((e as Error).message))) return null;
    if (/NOT NULL constraint failed: printers\.tcp_listen_port/i.test(String((e as Error).message))) throw new PortBlockUsedUp(block);
    throw e;
  }
  return findPrinter(db, p.id);
}

export async function printerIdExists(db: D1Database, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM printers WHERE id = ?').bind(id.toLowerCase()).first()) !== null;
}

export async function replacePrinter(db: D1Database, id: string, p: Omit<NewPrinter, 'id' | 'workspaceId'>): Promise<void> {
  const { columns, values } = settingColumns(p);
  await db
    .prepare(`UPDATE printers SET display_name = ?, ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`)
    .bind(p.displayName, ...values, id)
    .run();
}

export async function softDeletePrinter(db: D1Database, id: string): Promise<void> {
  await db.prepare("UPDATE printers SET deleted_at = ?, target_state = 'Stopped' WHERE id = ?").bind(nowIso(), id).run();
}

export async function setPinned(db: D1Database, id: string, pinned: boolean): Promise<void> {
  await db.prepare('UPDATE printers SET is_pinned = ? WHERE id = ?').bind(pinned ? 1 : 0, id).run();
}

export interface FlagsPatch {
  isCoverOpen?: boolean;
  isPaperOut?: boolean;
  isOffline?: boolean;
  hasError?: boolean;
  isPaperNearEnd?: boolean;
  targetState?: 'Started' | 'Stopped';
}

const FLAG_COLUMNS: Record<Exclude<keyof FlagsPatch, 'targetState'>, string> = {
  isCoverOpen: 'is_cover_open',
  isPaperOut: 'is_paper_out',
  isOffline: 'is_offline',
  hasError: 'has_error',
  isPaperNearEnd: 'is_paper_near_end',
};

export async function updateFlags(db: D1Database, id: string, patch: FlagsPatch): Promise<void> {
  const sets: string[] = ['flags_updated_at = ?'];
  const values: unknown[] = [nowIso()];
  for (const [key, column] of Object.entries(FLAG_COLUMNS)) {
    const v = patch[key as keyof typeof FLAG_COLUMNS];
    if (v !== undefined) { sets.push(`${column} = ?`); values.push(v ? 1 : 0); }
  }
  if (patch.targetState !== undefined) { sets.push('target_state = ?'); values.push(patch.targetState); }
  await db.prepare(`UPDATE printers SET ${sets.join(', ')} WHERE id = ?`).bind(...values, id).run();
}

export async function setRuntimeState(db: D1Database, id: string, state: RuntimeStateName): Promise<boolean> {
  const r = await db
    .prepare('UPDATE printers SET runtime_state = ?, runtime_updated_at = ? WHERE id = ? AND runtime_state <> ?')
    .bind(state, nowIso(), id, state)
    .run();
  return r.meta.changes > 0;
}

export async function setDrawers(db: D1Database, id: string, d1?: DrawerStateName, d2?: DrawerStateName): Promise<void> {
  const sets: string[] = ['runtime_updated_at = ?'];
  const values: unknown[] = [nowIso()];
  if (d1) { sets.push('drawer1_state = ?'); values.push(d1); }
  if (d2) { sets.push('drawer2_state = ?'); values.push(d2); }
  await db.prepare(`UPDATE printers SET ${sets.join(', ')} WHERE id = ?`).bind(...values, id).run();
}

/**
 * Printers that should have a TCP listener on this bridge: live, target Started, assigned to
 * it (`bridgeId` null: the shared bridge's printers). A bridge serves only its own
 * workspace's printers, whatever a row says.
 */
export async function listListeningPrinters(db: D1Database, bridgeId: string | null) {
  const where = bridgeId === null
    ? 'p.bridge_id IS NULL'
    : 'p.bridge_id = ?1 AND p.workspace_id = (SELECT workspace_id FROM bridges WHERE id = ?1)';
  const statement = db.prepare(
    `SELECT p.*, w.tcp_whitelist_enabled AS ws_whitelist_enabled, w.tcp_whitelist_entries AS ws_whitelist_entries
     FROM printers p JOIN workspaces w ON w.id = p.workspace_id
     WHERE p.deleted_at IS NULL AND p.target_state = 'Started' AND ${where} ORDER BY p.tcp_listen_port`,
  );
  const { results } = await (bridgeId === null ? statement : statement.bind(bridgeId))
    .all<PrinterRow & { ws_whitelist_enabled: number; ws_whitelist_entries: string }>();
  return results;
}

/** Assigns the printer to a bridge (null: the shared bridge). */
export async function setPrinterBridge(db: D1Database, id: string, bridgeId: string | null): Promise<void> {
  await db.prepare('UPDATE printers SET bridge_id = ? WHERE id = ?').bind(bridgeId, id).run();
}
