/** Row shapes of the D1 tables (migrations/0001_init.sql). */
import type { Protocol } from '../../engines/protocols.ts';
import type { SettingColumns } from '../schemas/printer-settings.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  token_hash: string;
  created_at: string;
  document_retention_days: number;
  tcp_whitelist_enabled: number;
  tcp_whitelist_entries: string;
  last_api_read_at: string | null;
  last_web_read_at: string | null;
  light_color_scheme: string | null;
  dark_color_scheme: string | null;
}

/** Stored as the registry's protocol name (src/engines/protocols.ts). */
export type ProtocolName = Protocol;
export type TargetStateName = 'Started' | 'Stopped';
export type RuntimeStateName = 'Starting' | 'Started' | 'Stopped' | 'Error';
export type DrawerStateName = 'Closed' | 'OpenedManually' | 'OpenedByCommand';

/** A printers row: the columns below and the settings' columns (schemas/printer-settings.ts). */
export interface PrinterRow extends SettingColumns {
  id: string;
  workspace_id: string;
  display_name: string;
  is_pinned: number;
  last_viewed_document_id: string | null;
  last_document_received_at: string | null;
  last_api_read_at: string | null;
  last_web_read_at: string | null;
  target_state: TargetStateName;
  is_cover_open: number;
  is_paper_out: number;
  is_offline: number;
  has_error: number;
  is_paper_near_end: number;
  flags_updated_at: string;
  runtime_state: RuntimeStateName;
  runtime_updated_at: string;
  drawer1_state: DrawerStateName;
  drawer2_state: DrawerStateName;
  /** The cloud poller's last poll and its error (migration 0007; objects/cloud-poller.ts). */
  cloud_print_last_poll_at?: string | null;
  cloud_print_last_error?: string | null;
  created_at: string;
  deleted_at: string | null;
  /** Joined from workspaces where the query asks for it. */
  workspace_name?: string;
  /** The workspace's instance (its `created_at`): media ids are keyed on it (services/media-store.ts). */
  workspace_created_at?: string | null;
  /** Joined from bridges: the printer's bridge's public host, where the query asks for it. */
  bridge_public_host?: string | null;
}

export interface DocumentRow {
  seq: number;
  id: string;
  print_job_id: string;
  printer_id: string;
  workspace_id: string;
  created_at: string;
  protocol: ProtocolName;
  client_address: string | null;
  bytes_received: number;
  bytes_sent: number;
  body: string | null;
  body_key: string | null;
  raw_key: string;
  engine_version: string;
}

export interface MediaRow {
  id: string;
  workspace_id: string;
  printer_id: string;
  document_id: string | null;
  content_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: string;
}

export const nowIso = () => new Date().toISOString();
