import type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
import { createEscPosSession } from './escpos/index.ts';
import { createEplSession, type EplPrinterMemory } from './epl/index.ts';

export type EngineProtocol = 'EscPos' | 'Epl';

/**
 * Version of the rendering engines, stored with each document next to its raw bytes so a
 * document can be rendered again by the same rules.
 */
export const ENGINE_VERSION = '1';

/** State a printer keeps between connections (EPL forms and graphics). */
export interface PrinterMemory {
  epl: EplPrinterMemory;
}

export { newEplPrinterMemory } from './epl/index.ts';

export function createProtocolSession(protocol: EngineProtocol, getContext: () => PrinterContext, memory?: PrinterMemory): ProtocolSession {
  return protocol === 'Epl' ? createEplSession(getContext, { memory: memory?.epl }) : createEscPosSession(getContext);
}

export type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
export type { RenderedJob, Canvas, CanvasElement } from './canvas/model.ts';
