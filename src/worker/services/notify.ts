import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { flagsDto, printerDto, runtimeDto, settingsDto, sidebarDto } from './dto.ts';
import { readSettings } from '../config.ts';

/** Which sections of a printer changed; drives the partial PrinterStatusUpdateDto. */
export interface PrinterChange {
  runtime?: boolean;
  flags?: boolean | Partial<Record<'targetState' | 'isCoverOpen' | 'isPaperOut' | 'isOffline' | 'hasError' | 'isPaperNearEnd', boolean>>;
  settings?: boolean;
  printer?: boolean;
  deleted?: boolean;
}

export const printerStub = (env: Env, printerId: string) => env.PRINTER.get(env.PRINTER.idFromName(printerId.toLowerCase()));
export const workspaceStub = (env: Env, workspaceId: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(workspaceId.toLowerCase()));
/** The workspace object that knows which workspaces have writes pending (never a workspace id). */
export const ALL_WORKSPACES = 'all-workspaces';
/** The control-channel hub of one bridge; `null`: the deployment's shared bridge. */
export const bridgeHub = (env: Env, bridgeId: string | null) =>
  env.BRIDGE_HUB.get(env.BRIDGE_HUB.idFromName(bridgeId === null ? 'bridge' : `bridge:${bridgeId.toLowerCase()}`));

/** Builds the `status` event payload carrying only the changed sections. */
export function statusUpdate(env: Env, row: PrinterRow, change: PrinterChange, buffer?: { bufferedBytes: number; bufferedBytesDeltaBps: number } | null) {
  const now = new Date().toISOString();
  const update: Record<string, unknown> = { printerId: row.id, updatedAt: now };
  if (change.runtime) {
    const { printerId: _, ...runtime } = runtimeDto(row, buffer);
    update.runtime = runtime;
  }
  if (change.flags) {
    const f = flagsDto(row);
    if (change.flags === true) update.operationalFlags = f;
    else {
      const partial: Record<string, unknown> = { printerId: f.printerId, updatedAt: f.updatedAt };
      for (const k of Object.keys(change.flags) as (keyof typeof f)[]) partial[k] = f[k];
      update.operationalFlags = partial;
    }
  }
  if (change.settings) update.settings = settingsDto(row, readSettings(env).publicHost);
  if (change.printer) update.printer = printerDto(row);
  return update;
}

/**
 * Tell the printer's Durable Object (runtime stream, engine context for open sessions) and
 * the workspace's sidebar hub that a printer changed. `row` is the printer as it is now.
 */
export async function publishPrinterChange(env: Env, row: PrinterRow, change: PrinterChange): Promise<void> {
  await Promise.all([
    printerStub(env, row.id).printerChanged(row, change),
    workspaceStub(env, row.workspace_id).publishSidebar({ ...sidebarDto(row), ...(change.deleted && { deleted: true }) }),
  ]);
}

/**
 * The set of printers that should listen changed for these bridges (null: the shared one;
 * by default only it): each one's hub pushes its new set to its bridge.
 */
export async function listenersChanged(env: Env, bridgeIds: readonly (string | null)[] = [null]): Promise<void> {
  await Promise.all([...new Set(bridgeIds)].map((id) => bridgeHub(env, id).listenersChanged()));
}

/** Every bridge that may serve a printer of the workspace: the shared one and its own. */
export async function workspaceBridgeIds(env: Env, workspaceId: string): Promise<(string | null)[]> {
  const { results } = await env.DB.prepare('SELECT id FROM bridges WHERE workspace_id = ?').bind(workspaceId).all<{ id: string }>();
  return [null, ...results.map((r) => r.id)];
}
