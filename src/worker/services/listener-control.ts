import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinter, setRuntimeState } from '../data/printers.ts';
import { bridgeHub, listenersChanged, publishPrinterChange } from './notify.ts';
import { serverError } from '../http/problem.ts';

/** At most this long a create or start waits for the bridge to confirm the bind. */
const BIND_WAIT_MS = 5000;

/**
 * Start the printer's listener: state `Starting`, push the new listener set to the bridge,
 * and wait for its bind report. Without a bridge the printer stays `Starting` (it starts
 * listening when a bridge connects). A failed bind leaves state `Error` and throws 500.
 */
export async function startListener(env: Env, row: PrinterRow): Promise<PrinterRow> {
  if (await setRuntimeState(env.DB, row.id, 'Starting')) {
    await publishPrinterChange(env, (await findPrinter(env.DB, row.id))!, { runtime: true });
  }
  await listenersChanged(env, [row.bridge_id]);
  const outcome = await bridgeHub(env, row.bridge_id).awaitBind(row.id, row.tcp_listen_port, BIND_WAIT_MS);
  const fresh = (await findPrinter(env.DB, row.id))!;
  if (outcome.kind === 'failed') throw serverError(bindFailure(row.tcp_listen_port, outcome.error));
  return fresh;
}

/** The 500's detail: what failed and, for a port another program holds, how to free it. */
export function bindFailure(port: number, error: string): string {
  const failed = `The TCP listener on port ${port} failed to start: ${error}.`;
  if (!/EADDRINUSE/.test(error)) return failed;
  return `${failed} Another program on the bridge's machine holds port ${port}: find it with \`ss -ltnp 'sport = :${port}'\` (or \`lsof -i :${port}\`) and stop it, or move it off the printer port block. The bridge keeps retrying: the printer starts listening once the port is free.`;
}

export async function stopListener(env: Env, row: PrinterRow): Promise<void> {
  await setRuntimeState(env.DB, row.id, 'Stopped');
  await listenersChanged(env, [row.bridge_id]);
}
