import type { Context } from 'hono';
import type { AppEnv } from '../http/app-types.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinter } from '../data/printers.ts';
import { forbidden, notFound } from '../http/problem.ts';

/**
 * The printer a caller may see: its own workspace's, or any for an admin (read only).
 * Others' printers are 404 (their existence is not revealed); an admin writing to another
 * workspace's printer gets 403.
 */
export async function visiblePrinter(c: Context<AppEnv>, id: string, access: 'read' | 'write'): Promise<PrinterRow> {
  const caller = c.get('caller');
  const row = await findPrinter(c.env.DB, id);
  if (!row) throw notFound(`Printer ${id} was not found`);
  if (row.workspace_id === caller.workspace.id) return row;
  if (caller.role !== 'Admin') throw notFound(`Printer ${id} was not found`);
  if (access === 'write') throw forbidden('Admins may read other workspaces\u2019 printers but not change them');
  return row;
}
