/**
 * Applies a "printers as code" file (schemas/printers-config.ts): creates or updates the
 * declared workspaces (with their declared token) and printers (on their declared port).
 * Idempotent: an entry that already matches is not written at all, so a second start with
 * the same file changes nothing. Every conflict is found before the first write, so a file
 * that cannot be applied changes nothing either.
 */
import type { Env } from '../env.ts';
import type { PrinterRow, WorkspaceRow } from '../data/rows.ts';
import { findPrinter, insertPrinter, PortBlockUsedUp, replacePrinter } from '../data/printers.ts';
import type { PortBlock } from '../config.ts';
import { findWorkspace, findWorkspaceByTokenHash, updateWorkspace } from '../data/workspaces.ts';
import { insertWorkspaceWithTokenHash, printerByPortAnyState, printerByIdAnyState, insertPrinterOnPort, setWorkspaceTokenHash } from '../data/declared-config.ts';
import { hashToken } from '../auth/workspace-token.ts';
import { listenersChanged, publishPrinterChange } from './notify.ts';
import { modelChoiceOf, resolveModelChoice, resolveWidthInDots } from './printer-models.ts';
import { checkCloudPrint } from './cloud-print-settings.ts';
import type { ApplyConfigReport, DeclaredPrinter, PrintersConfig } from '../schemas/printers-config.ts';
import { defaultStoredSettings, STORED_SETTING_NAMES, storedSettingsOf, type StoredSettings } from '../schemas/printer-settings.ts';

/** A declaration that contradicts what exists; `entry` names it for the operator. */
export class ConfigConflict extends Error {
  constructor(readonly entry: string, readonly reason: string) {
    super(`${entry}: ${reason}`);
  }
}

const printerLabel = (p: DeclaredPrinter) => `printer "${p.displayName}" (${p.id})`;

/**
 * The settings a declaration asks for; what the file cannot declare stays as stored (a new
 * printer: the defaults). The model resolves as the API resolves it (omitted: the printer's
 * current model while it speaks the protocol, else the protocol's default); an unknown model,
 * or one that does not speak the protocol, throws a 400 whose detail names it.
 */
function settingsOf(p: DeclaredPrinter, row: PrinterRow | null): StoredSettings & { displayName: string } {
  const choice = resolveModelChoice({ protocol: p.protocol, model: p.model }, row ? modelChoiceOf(row) : undefined);
  // The operator's own file may name any host (ALLOW_PRIVATE_TARGETS is for what API callers give).
  checkCloudPrint(p.protocol, p.cloudPrint, { allowPrivateTargets: true, ownHosts: [] });
  return {
    ...(row ? storedSettingsOf(row) : defaultStoredSettings()),
    displayName: p.displayName,
    protocol: p.protocol,
    model: choice.model.id,
    multiByteEncoding: choice.multiByteEncoding,
    widthInDots: resolveWidthInDots(p.widthInDots, choice.model, row ?? undefined),
    heightInDots: p.heightInDots ?? null,
    ...(p.cloudPrint !== undefined && { cloudPrint: p.cloudPrint }),
  };
}

/** Whether the row already has the settings (model and encoding as resolved, so a pre-model NULL matches its default). */
function printerMatches(row: PrinterRow, s: ReturnType<typeof settingsOf>): boolean {
  const { model, multiByteEncoding } = modelChoiceOf(row);
  const stored: StoredSettings = { ...storedSettingsOf(row), model: model.id, multiByteEncoding };
  return row.display_name === s.displayName && STORED_SETTING_NAMES.every((k) => JSON.stringify(stored[k]) === JSON.stringify(s[k]));
}

type WorkspacePlan = { kind: 'create' | 'update' | 'keep'; id: string; name: string; tokenHash: string; row: WorkspaceRow | null };
type PrinterPlan = { kind: 'create' | 'update' | 'keep'; workspaceId: string; decl: DeclaredPrinter; settings: ReturnType<typeof settingsOf>; row: PrinterRow | null };

async function plan(env: Env, config: PrintersConfig): Promise<{ workspaces: WorkspacePlan[]; printers: PrinterPlan[] }> {
  const conflicts: ConfigConflict[] = [];
  const workspaces: WorkspacePlan[] = [];
  const printers: PrinterPlan[] = [];
  for (const w of config.workspaces) {
    const id = w.id.toLowerCase();
    const tokenHash = await hashToken(w.token);
    const row = await findWorkspace(env.DB, id);
    const owner = await findWorkspaceByTokenHash(env.DB, tokenHash);
    if (owner && owner.id !== id) conflicts.push(new ConfigConflict(`workspace "${w.name}" (${w.id})`, 'its token already belongs to another workspace'));
    const kind = !row ? 'create' : row.name === w.name && row.token_hash === tokenHash ? 'keep' : 'update';
    workspaces.push({ kind, id, name: w.name, tokenHash, row });

    for (const p of w.printers) {
      const existing = await printerByIdAnyState(env.DB, p.id);
      const label = printerLabel(p);
      if (existing?.deleted_at) { conflicts.push(new ConfigConflict(label, 'this printer id was deleted, and ids are never reused; give the printer a new id')); continue; }
      let settings: ReturnType<typeof settingsOf>;
      try {
        settings = settingsOf(p, existing ?? null);
      } catch (e) {
        conflicts.push(new ConfigConflict(label, e instanceof Error ? e.message : String(e)));
        continue;
      }
      if (existing && existing.workspace_id !== id) { conflicts.push(new ConfigConflict(label, `this printer id belongs to another workspace (${existing.workspace_id})`)); continue; }
      if (existing) {
        if (p.tcpListenPort !== undefined && existing.tcp_listen_port !== p.tcpListenPort) {
          conflicts.push(new ConfigConflict(label, `it already listens on port ${existing.tcp_listen_port}; a printer's port never changes (declare ${existing.tcp_listen_port} or a new printer)`));
          continue;
        }
        printers.push({ kind: printerMatches(existing, settings) ? 'keep' : 'update', workspaceId: id, decl: p, settings, row: existing });
        continue;
      }
      if (p.tcpListenPort !== undefined) {
        const holder = await printerByPortAnyState(env.DB, p.tcpListenPort);
        if (holder) {
          conflicts.push(new ConfigConflict(label, holder.deleted_at
            ? `port ${p.tcpListenPort} was used by a deleted printer, and ports are never reused`
            : `port ${p.tcpListenPort} is taken by printer "${holder.display_name}" (${holder.id})`));
          continue;
        }
      }
      printers.push({ kind: 'create', workspaceId: id, decl: p, settings, row: null });
    }
  }
  if (conflicts.length) throw new AggregateConfigConflict(conflicts);
  return { workspaces, printers };
}

export class AggregateConfigConflict extends Error {
  constructor(readonly conflicts: ConfigConflict[]) {
    super(conflicts.map((c) => c.message).join('; '));
  }
}

export async function applyDeclaredConfig(env: Env, config: PrintersConfig, block: PortBlock): Promise<ApplyConfigReport> {
  const planned = await plan(env, config);
  const report: ApplyConfigReport = { workspaces: [], printers: [] };

  for (const w of planned.workspaces) {
    if (w.kind === 'create') await insertWorkspaceWithTokenHash(env.DB, w.id, w.name, w.tokenHash);
    else if (w.kind === 'update') {
      if (w.row!.name !== w.name) await updateWorkspace(env.DB, w.id, { name: w.name });
      if (w.row!.token_hash !== w.tokenHash) await setWorkspaceTokenHash(env.DB, w.id, w.tokenHash);
    }
    report.workspaces.push({ id: w.id, change: w.kind === 'create' ? 'created' : w.kind === 'update' ? 'updated' : 'unchanged' });
  }

  let listenersMoved = false;
  const siteBridges = new Set<string>();
  for (const p of planned.printers) {
    const d = p.decl;
    let row = p.row;
    if (p.kind === 'create') {
      const fields = { id: d.id, workspaceId: p.workspaceId, ...p.settings };
      row = d.tcpListenPort !== undefined
        ? await insertPrinterOnPort(env.DB, fields, d.tcpListenPort, block)
        : await insertPrinter(env.DB, fields, block).catch((e) => {
          throw e instanceof PortBlockUsedUp ? new AggregateConfigConflict([new ConfigConflict(printerLabel(d), e.message)]) : e;
        });
      if (!row) throw new AggregateConfigConflict([new ConfigConflict(printerLabel(d), 'the printer id or port was taken while the file was being applied')]);
      await publishPrinterChange(env, row, { printer: true, settings: true, runtime: true, flags: true });
      listenersMoved = true;
    } else if (p.kind === 'update') {
      await replacePrinter(env.DB, row!.id, p.settings);
      row = (await findPrinter(env.DB, row!.id))!;
      await publishPrinterChange(env, row, { printer: true, settings: true });
      listenersMoved = true;
      // A declared printer may have been moved to a site's bridge through the API.
      if (row.bridge_id) siteBridges.add(row.bridge_id);
    }
    report.printers.push({
      id: row!.id, displayName: row!.display_name, tcpListenPort: row!.tcp_listen_port,
      change: p.kind === 'create' ? 'created' : p.kind === 'update' ? 'updated' : 'unchanged',
    });
  }
  // The bridge learns the new listener set once; with no bridge connected yet (npm start applies
  // the file before the bridge starts) it gets the complete set when it connects.
  if (listenersMoved) await listenersChanged(env, [null, ...siteBridges]);
  return report;
}
