/**
 * EPL2 label printer engine (Zebra 203 dpi): pure TypeScript, runs in Node, workerd and the
 * browser. See session.ts for the job model and render.ts for the canvas geometry.
 */
import type { PrinterContext, ProtocolSession } from '../canvas/printer-context.ts';
import { EplSession, type EplSessionOptions } from './session.ts';

export type { EplSessionOptions, EplPrinterMemory } from './session.ts';
export { newEplPrinterMemory } from './session.ts';
export { COMMAND_NAMES, commandInfo } from './commands.ts';

/** A new EPL2 print job session. State (forms, graphics, variables) lives for the session. */
export function createEplSession(getContext: () => PrinterContext, options?: EplSessionOptions): ProtocolSession {
  return new EplSession(getContext, options);
}
