/**
 * ZPL II label printer engine (Zebra, 203/300/600 dpi): pure TypeScript, runs in Node,
 * workerd and the browser. session.ts frames the job, commands/ is the command table,
 * machine.ts the label machine, render.ts the canvas geometry.
 */
import type { PrinterContext, ProtocolSession } from '../canvas/printer-context.ts';
import { ZplSession, type ZplSessionOptions } from './session.ts';

export type { ZplSessionOptions } from './session.ts';
export type { ZplPrinterMemory } from './state.ts';
export { newZplPrinterMemory } from './state.ts';
export { commandIds } from './commands/index.ts';

/** A new ZPL print job session; stored formats and graphics live in `options.memory`. */
export function createZplSession(getContext: () => PrinterContext, options?: ZplSessionOptions): ProtocolSession {
  return new ZplSession(getContext, options);
}
