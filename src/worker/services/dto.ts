import type { PrinterRow, WorkspaceRow } from '../data/rows.ts';
import type { Role } from '../auth/jwt.ts';
import { modelChoiceOf } from './printer-models.ts';
import { settingsDtoOf } from '../schemas/printer-settings.ts';

/**
 * Row -> response DTO mapping. Nulls are omitted (contract: null omission) except for the
 * always-present nullable timestamps, which are always emitted.
 */

export function workspaceDto(row: WorkspaceRow, role: Role) {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    role,
    documentRetentionDays: row.document_retention_days,
    tcpWhitelistEnabled: row.tcp_whitelist_enabled === 1,
    tcpWhitelistEntries: row.tcp_whitelist_entries,
    lastApiReadAt: row.last_api_read_at,
    lastWebReadAt: row.last_web_read_at,
    ...(row.light_color_scheme != null && { lightColorScheme: row.light_color_scheme }),
    ...(row.dark_color_scheme != null && { darkColorScheme: row.dark_color_scheme }),
  };
}

export function printerDto(row: PrinterRow) {
  return {
    id: row.id,
    displayName: row.display_name,
    ownerWorkspaceId: row.workspace_id,
    ...(row.workspace_name != null && { ownerWorkspaceName: row.workspace_name }),
    isPinned: row.is_pinned === 1,
    ...(row.last_viewed_document_id != null && { lastViewedDocumentId: row.last_viewed_document_id }),
    lastDocumentReceivedAt: row.last_document_received_at,
    lastApiReadAt: row.last_api_read_at,
    lastWebReadAt: row.last_web_read_at,
  };
}

/** `publicHost`: the deployment's; a printer on a site's bridge has that bridge's instead. */
export function settingsDto(row: PrinterRow, publicHost: string) {
  const { model, multiByteEncoding } = modelChoiceOf(row);
  return {
    ...settingsDtoOf(row, { model: model.id, multiByteEncoding }),
    publicHost: row.bridge_public_host ?? publicHost,
  };
}

export function flagsDto(row: PrinterRow) {
  return {
    printerId: row.id,
    targetState: row.target_state,
    updatedAt: row.flags_updated_at,
    isCoverOpen: row.is_cover_open === 1,
    isPaperOut: row.is_paper_out === 1,
    isOffline: row.is_offline === 1,
    hasError: row.has_error === 1,
    isPaperNearEnd: row.is_paper_near_end === 1,
  };
}

export interface LiveBuffer {
  bufferedBytes: number;
  bufferedBytesDeltaBps: number;
}

export function runtimeDto(row: PrinterRow, buffer?: LiveBuffer | null) {
  return {
    printerId: row.id,
    state: row.runtime_state,
    updatedAt: row.runtime_updated_at,
    ...(buffer && { bufferedBytes: buffer.bufferedBytes, bufferedBytesDeltaBps: buffer.bufferedBytesDeltaBps }),
    drawer1State: row.drawer1_state,
    drawer2State: row.drawer2_state,
    ...(row.cloud_print_last_poll_at && { cloudPrintLastPollAt: row.cloud_print_last_poll_at }),
    ...(row.cloud_print_last_error && { cloudPrintLastError: row.cloud_print_last_error }),
  };
}

export function printerResponseDto(row: PrinterRow, publicHost: string, buffer?: LiveBuffer | null) {
  return {
    printer: printerDto(row),
    settings: settingsDto(row, publicHost),
    operationalFlags: flagsDto(row),
    runtimeStatus: runtimeDto(row, buffer),
  };
}

export function sidebarDto(row: PrinterRow) {
  return {
    printer: printerDto(row),
    runtimeStatus: { printerId: row.id, state: row.runtime_state, updatedAt: row.runtime_updated_at },
  };
}
