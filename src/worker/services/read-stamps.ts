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

type Printer = { id: string; workspace_id: string };

/** The stamp updates for these readers (one per distinct client kind of the owning workspace). */
export function readStampStatements(db: D1Database, printer: Printer, readers: readonly Reader[], at: string): D1PreparedStatement[] {
  const columns = new Set(
    readers.filter((r) => r.workspaceId === printer.workspace_id).map((r) => (r.client === 'web' ? 'last_web_read_at' : 'last_api_read_at')),
  );
  return [...columns].flatMap((column) => [
    db.prepare(`UPDATE printers SET ${column} = ? WHERE id = ?`).bind(at, printer.id),
    db.prepare(`UPDATE workspaces SET ${column} = ? WHERE id = ?`).bind(at, printer.workspace_id),
  ]);
}

export async function recordRead(env: Env, printer: Printer, reader: Reader): Promise<void> {
  const statements = readStampStatements(env.DB, printer, [reader], new Date().toISOString());
  if (statements.length) await env.DB.batch(statements);
}
