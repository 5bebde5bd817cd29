/** D1 access that only the "printers as code" file needs (services/declared-config.ts). */
import type { PrinterRow } from './rows.ts';
import { nowIso } from './rows.ts';
import { findPrinter, insertPrinterStatement, type NewPrinter } from './printers.ts';
import type { PortBlock } from '../config.ts';

/** Any printer row with this id, deleted ones included (ids are never reused). */
export async function printerByIdAnyState(db: D1Database, id: string): Promise<PrinterRow | null> {
  return db.prepare('SELECT * FROM printers WHERE id = ?').bind(id.toLowerCase()).first<PrinterRow>();
}

/** The printer that holds or held this port, deleted ones included (ports are never reused). */
export async function printerByPortAnyState(db: D1Database, port: number): Promise<PrinterRow | null> {
  return db.prepare('SELECT * FROM printers WHERE tcp_listen_port = ?').bind(port).first<PrinterRow>();
}

export async function insertWorkspaceWithTokenHash(db: D1Database, id: string, name: string, tokenHash: string): Promise<void> {
  await db.prepare('INSERT INTO workspaces (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)').bind(id, name, tokenHash, nowIso()).run();
}

export async function setWorkspaceTokenHash(db: D1Database, id: string, tokenHash: string): Promise<void> {
  await db.prepare('UPDATE workspaces SET token_hash = ? WHERE id = ?').bind(tokenHash, id).run();
}

/**
 * Inserts the printer on a declared port. The allocator's high-water mark moves up to a port
 * of the block in the same transaction, so automatic assignment continues above it and never
 * hands the port out again. Returns null when the id or the port was taken meanwhile.
 */
export async function insertPrinterOnPort(db: D1Database, p: NewPrinter, port: number, block: PortBlock): Promise<PrinterRow | null> {
  // Automatic assignment never reaches a port above the block: such a port does not move it.
  const mark = port <= block.last ? port : block.first - 1;
  try {
    await db.batch([
      db.prepare(
        `INSERT INTO port_allocator (id, highest_port) VALUES (1, MAX(?1, ?2))
         ON CONFLICT (id) DO UPDATE SET highest_port = MAX(highest_port, ?2)`,
      ).bind(block.first - 1, mark),
      insertPrinterStatement(db, p, { sql: '?', params: [port] }),
    ]);
  } catch (e) {
    if (/UNIQUE constraint failed: printers\./i.test(String((e as Error).message))) return null;
    throw e;
  }
  return findPrinter(db, p.id);
}
