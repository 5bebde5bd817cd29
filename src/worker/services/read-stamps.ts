import type { Env } from '../env.ts';

/**
 * Read stamps (contract "Read stamps"): a document read records the time on the printer and
 * its workspace, in lastWebReadAt for `X-Client: web` and lastApiReadAt otherwise. An admin
 * reading another workspace's printer records nothing.
 */
export interface Reader {
  workspaceId: string;
  client: 'web' | 'api';
}

export async function recordRead(env: Env, printer: { id: string; workspace_id: string }, reader: Reader): Promise<void> {
  if (reader.workspaceId !== printer.workspace_id) return;
  const column = reader.client === 'web' ? 'last_web_read_at' : 'last_api_read_at';
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(`UPDATE printers SET ${column} = ? WHERE id = ?`).bind(now, printer.id),
    env.DB.prepare(`UPDATE workspaces SET ${column} = ? WHERE id = ?`).bind(now, printer.workspace_id),
  ]);
}
