/**
 * Readers of what printers batch for D1 (printer stamps, read stamps, document counters) settle
 * first: every printer with pending writes flushes them, then the reader reads D1 and sees every
 * document that was listable when it began (objects/dirty-set.ts, docs/decisions.md).
 */
import type { Context } from 'hono';
import type { Env } from '../env.ts';
import type { AppEnv } from '../http/app-types.ts';
import type { PrinterRow } from '../data/rows.ts';
import { ALL_WORKSPACES, workspaceStub } from './notify.ts';
import { visiblePrinter } from './printer-access.ts';

/** The workspace's printers' pending writes are in D1 when this resolves. */
export async function settleWorkspace(env: Env, workspaceId: string): Promise<void> {
  await workspaceStub(env, workspaceId).settle();
}

/** Every workspace's (admin statistics). */
export async function settleAllWorkspaces(env: Env): Promise<void> {
  await workspaceStub(env, ALL_WORKSPACES).settle();
}

/** The printer a caller may read, as D1 has it once its workspace's pending writes are in. */
export async function settledPrinter(c: Context<AppEnv>, id: string): Promise<PrinterRow> {
  const own = c.get('caller').workspace.id;
  await settleWorkspace(c.env, own);
  const row = await visiblePrinter(c, id, 'read');
  if (row.workspace_id === own) return row;
  // An admin reading another workspace's printer.
  await settleWorkspace(c.env, row.workspace_id);
  return visiblePrinter(c, id, 'read');
}
