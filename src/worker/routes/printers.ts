import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, jsonBody, PrinterIdParam, problems } from '../schemas/common.ts';
import {
  DrawersRequest, FlagsRequest, OperationalFlagsDto, PinRequest, PrinterRequest, PrinterResponseDto, RuntimeStatusDto, SidebarSnapshotDto,
} from '../schemas/printer.ts';
import { requireAuth } from '../auth/middleware.ts';
import { findPrinter, insertPrinter, listPrinters, PortBlockUsedUp, printerIdExists, replacePrinter, setDrawers, setPinned, setPrinterBridge, softDeletePrinter, updateFlags } from '../data/printers.ts';
import { badRequest, conflict } from '../http/problem.ts';
import { findWorkspaceBridge } from '../data/bridges.ts';
import { flagsDto, printerResponseDto, runtimeDto, sidebarDto } from '../services/dto.ts';
import { visiblePrinter } from '../services/printer-access.ts';
import { startListener, stopListener } from '../services/listener-control.ts';
import { listenersChanged, printerStub, publishPrinterChange } from '../services/notify.ts';
import { registerRequestKeys } from '../http/normalize-request.ts';
import { modelChoiceOf, resolveModelChoice, resolveWidthInDots } from '../services/printer-models.ts';
import type { PrinterRow } from '../data/rows.ts';
import { printerPortBlock } from '../config.ts';
import { rateLimited } from '../http/rate-limit.ts';
import { settledPrinter, settleWorkspace } from '../services/settle.ts';
import { SETTING_NAMES, STORED_SETTING_NAMES, type StoredSettings } from '../schemas/printer-settings.ts';
import { checkCloudPrint } from '../services/cloud-print-settings.ts';

registerRequestKeys(
  'printer', 'settings', 'id', 'displayName', ...SETTING_NAMES, 'isPinned', 'isCoverOpen', 'isPaperOut', 'isOffline', 'hasError', 'isPaperNearEnd', 'targetState',
  'drawer1State', 'drawer2State',
);

export const printerRoutes = new OpenAPIHono<AppEnv>();
const tags = ['Printers'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };
const params = PrinterIdParam;

/**
 * The stored settings a request asks for; `current`: the printer's row on update. Model, its
 * encoding and the width resolve against the model; every other setting is the request's
 * (schema defaults applied), absent ones null.
 */
const fromRequest = (body: z.infer<typeof PrinterRequest>, current?: PrinterRow): StoredSettings & { displayName: string } => {
  const { model, multiByteEncoding } = resolveModelChoice(body.settings, current && modelChoiceOf(current));
  const requested = Object.fromEntries(STORED_SETTING_NAMES.map((k) => [k, body.settings[k] ?? null])) as StoredSettings;
  return {
    ...requested,
    displayName: body.printer.displayName,
    model: model.id,
    multiByteEncoding,
    widthInDots: resolveWidthInDots(body.settings.widthInDots, model, current),
  };
};

/**
 * The bridge a request assigns (undefined: not given). A bridge id must name one of the
 * caller's workspace's bridges: another workspace's bridge is refused like an unknown one.
 */
async function requestedBridge(db: D1Database, workspaceId: string, bridgeId: string | null | undefined): Promise<string | null | undefined> {
  if (bridgeId === undefined || bridgeId === null) return bridgeId;
  const bridge = await findWorkspaceBridge(db, workspaceId, bridgeId);
  if (!bridge) {
    throw badRequest(`Bridge ${bridgeId} is not a bridge of this workspace`, { 'settings.bridgeId': ['Not a bridge of this workspace (GET /api/workspaces/bridges)'] });
  }
  return bridge.id;
}

printerRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/printers', operationId: 'createPrinter', tags, ...authed, middleware: [requireAuth, rateLimited('createPrinter')],
    summary: 'Create a printer; the server assigns its TCP port and starts its listener',
    request: { body: jsonBody(PrinterRequest) },
    responses: { 200: json(PrinterResponseDto, 'The new printer'), ...problems(400, 401, 409, 429, 500) },
  }),
  async (c) => {
    const body = c.req.valid('json');
    const { workspace } = c.get('caller');
    const settings = c.get('settings');
    if ((await listPrinters(c.env.DB, workspace.id)).length >= settings.maxPrintersPerWorkspace) {
      throw conflict(`The workspace already has the maximum of ${settings.maxPrintersPerWorkspace} printers (MAX_PRINTERS_PER_WORKSPACE)`);
    }
    checkCloudPrint(body.settings.protocol, body.settings.cloudPrint, { allowPrivateTargets: settings.allowPrivateTargets, ownHosts: [settings.publicHost, new URL(c.req.url).hostname] });
    const bridgeId = (await requestedBridge(c.env.DB, workspace.id, body.settings.bridgeId)) ?? null;
    if (await printerIdExists(c.env.DB, body.printer.id)) throw conflict(`A printer with id ${body.printer.id} already exists`);
    const row = await insertPrinter(c.env.DB, { id: body.printer.id, workspaceId: workspace.id, ...fromRequest(body), bridgeId }, printerPortBlock(settings))
      .catch((e) => { throw e instanceof PortBlockUsedUp ? conflict(e.message) : e; });
    if (!row) throw conflict(`A printer with id ${body.printer.id} already exists`);
    await publishPrinterChange(c.env, row, { printer: true, settings: true, runtime: true, flags: true });
    const started = await startListener(c.env, row);
    return c.json(printerResponseDto(started, settings.publicHost), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers', operationId: 'listPrinters', tags, ...authed, summary: 'The workspace\u2019s printers (not a read of documents)',
    responses: { 200: json(z.array(PrinterResponseDto), 'Printers, pinned first'), ...problems(401) },
  }),
  async (c) => {
    await settleWorkspace(c.env, c.get('caller').workspace.id);
    const rows = await listPrinters(c.env.DB, c.get('caller').workspace.id);
    return c.json(rows.map((r) => printerResponseDto(r, c.get('settings').publicHost)), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/sidebar', operationId: 'listSidebarPrinters', tags, ...authed, summary: 'Sidebar snapshots of the workspace\u2019s printers',
    responses: { 200: json(z.array(SidebarSnapshotDto), 'Snapshots, pinned first'), ...problems(401) },
  }),
  async (c) => {
    await settleWorkspace(c.env, c.get('caller').workspace.id);
    return c.json((await listPrinters(c.env.DB, c.get('caller').workspace.id)).map(sidebarDto), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}', operationId: 'getPrinter', tags, ...authed, summary: 'One printer (not a read of documents)',
    request: { params },
    responses: { 200: json(PrinterResponseDto, 'Printer'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await settledPrinter(c, c.req.valid('param').id);
    const buffer = await printerStub(c.env, row.id).liveBuffer();
    return c.json(printerResponseDto(row, c.get('settings').publicHost, buffer), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'put', path: '/api/printers/{id}', operationId: 'updatePrinter', tags, ...authed, summary: 'Replace the printer\u2019s name and settings (the port is kept)',
    request: { params, body: jsonBody(PrinterRequest) },
    responses: { 200: json(PrinterResponseDto, 'Updated printer'), ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    const body = c.req.valid('json');
    const { allowPrivateTargets, publicHost } = c.get('settings');
    checkCloudPrint(body.settings.protocol, body.settings.cloudPrint, { allowPrivateTargets, ownHosts: [publicHost, new URL(c.req.url).hostname] });
    const bridgeId = await requestedBridge(c.env.DB, row.workspace_id, body.settings.bridgeId);
    await replacePrinter(c.env.DB, row.id, fromRequest(body, row));
    if (bridgeId !== undefined && bridgeId !== row.bridge_id) await setPrinterBridge(c.env.DB, row.id, bridgeId);
    const fresh = (await findPrinter(c.env.DB, row.id))!;
    await publishPrinterChange(c.env, fresh, { printer: true, settings: true });
    // A printer moved between bridges: the old one closes its port, the new one binds it.
    await listenersChanged(c.env, [row.bridge_id, fresh.bridge_id]);
    return c.json(printerResponseDto(fresh, c.get('settings').publicHost), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'delete', path: '/api/printers/{id}', operationId: 'deletePrinter', tags, ...authed, summary: 'Soft delete: the printer disappears, its port stays taken',
    request: { params },
    responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    await softDeletePrinter(c.env.DB, row.id);
    await listenersChanged(c.env, [row.bridge_id]);
    // Its sessions end, and its documents, media, counters and connection attempts go, before this answers.
    await printerStub(c.env, row.id).retire(row.id, 'printer');
    const deleted = { ...row, runtime_state: 'Stopped' as const, target_state: 'Stopped' as const, deleted_at: new Date().toISOString() };
    await publishPrinterChange(c.env, deleted, { runtime: true, deleted: true });
    return c.body(null, 204);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'post', path: '/api/printers/{id}/pin', operationId: 'pinPrinter', tags, ...authed, summary: 'Pin or unpin the printer in the sidebar',
    request: { params, body: jsonBody(PinRequest) },
    responses: { 200: json(PrinterResponseDto, 'Printer'), ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    await setPinned(c.env.DB, row.id, c.req.valid('json').isPinned);
    const fresh = (await findPrinter(c.env.DB, row.id))!;
    await publishPrinterChange(c.env, fresh, { printer: true });
    return c.json(printerResponseDto(fresh, c.get('settings').publicHost), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'patch', path: '/api/printers/{id}/operational-flags', operationId: 'setOperationalFlags', tags, ...authed,
    summary: 'Change emulated hardware conditions; only supplied fields change; targetState starts or stops the listener',
    request: { params, body: jsonBody(FlagsRequest) },
    responses: { 200: json(OperationalFlagsDto, 'Flags now'), ...problems(400, 401, 403, 404, 500) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    const patch = c.req.valid('json');
    await updateFlags(c.env.DB, row.id, patch);
    let fresh = (await findPrinter(c.env.DB, row.id))!;
    const changed = Object.fromEntries(Object.keys(patch).map((k) => [k, true]));
    await publishPrinterChange(c.env, fresh, { flags: changed });
    if (patch.targetState === 'Stopped' && row.runtime_state !== 'Stopped') {
      await stopListener(c.env, fresh);
      fresh = (await findPrinter(c.env.DB, row.id))!;
      await publishPrinterChange(c.env, fresh, { runtime: true });
    } else if (patch.targetState === 'Started' && row.target_state !== 'Started') {
      fresh = await startListener(c.env, fresh);
    }
    return c.json(flagsDto(fresh), 200);
  },
);

printerRoutes.openapi(
  createRoute({
    method: 'patch', path: '/api/printers/{id}/drawers', operationId: 'setDrawers', tags, ...authed,
    summary: 'Close or manually open cash drawers (OpenedByCommand only comes from the POS)',
    request: { params, body: jsonBody(DrawersRequest) },
    responses: { 200: json(RuntimeStatusDto, 'Runtime status'), ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'write');
    const { drawer1State, drawer2State } = c.req.valid('json');
    await setDrawers(c.env.DB, row.id, drawer1State, drawer2State);
    const fresh = (await findPrinter(c.env.DB, row.id))!;
    await publishPrinterChange(c.env, fresh, { runtime: true });
    return c.json(runtimeDto(fresh, await printerStub(c.env, row.id).liveBuffer()), 200);
  },
);
