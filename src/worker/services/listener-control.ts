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
  if (outcome.kind === 'failed') {
    throw serverError(`The TCP listener on port ${row.tcp_listen_port} failed to start: ${outcome.error}`);
  }
  return fresh;
}

export async function stopListener(env: Env, row: PrinterRow): Promise<void> {
  await setRuntimeState(env.DB, row.id, 'Stopped');
  await listenersChanged(env, [row.bridge_id]);
}
