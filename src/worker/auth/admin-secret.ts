import type { Settings } from '../config.ts';
import { timingSafeEqual } from './workspace-token.ts';

/**
 * A workspace id listed in ADMIN_WORKSPACE_IDS is created only with `X-Admin-Secret` equal to
 * ADMIN_SECRET (docs/contract/extensions.md "Limits"); without ADMIN_SECRET set, such ids cannot be created
 * over HTTP at all. Other ids need nothing.
 */
export function mayCreateAdminWorkspace(settings: Settings, id: string, secretHeader: string | undefined): boolean {
  if (!settings.adminWorkspaceIds.has(id.toLowerCase())) return true;
  return settings.adminSecret !== null && secretHeader !== undefined && timingSafeEqual(secretHeader, settings.adminSecret);
}
