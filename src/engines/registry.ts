/**
 * The engine of every protocol of src/engines/protocols.ts. `satisfies Record<Protocol, ...>`
 * makes a protocol without an engine (or an engine for no protocol) a compile error.
 */
import type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
import { createEplSession, newEplPrinterMemory, type EplPrinterMemory } from './epl/index.ts';
import { createEscPosSession } from './escpos/index.ts';
import type { Protocol } from './protocols.ts';
import { createStarSession } from './star/index.ts';
import { createZplSession, newZplPrinterMemory, type ZplPrinterMemory } from './zpl/index.ts';

/** State a printer keeps between connections (EPL forms and graphics, ...), one field per engine that needs it. */
export interface PrinterMemory {
  epl: EplPrinterMemory;
  zpl: ZplPrinterMemory;
}

/** A printer's memory as it is after power-on: nothing stored. */
export function newPrinterMemory(): PrinterMemory {
  return { epl: newEplPrinterMemory(), zpl: newZplPrinterMemory() };
}

/** Opens a session (one job) of a protocol's engine. */
export type EngineFactory = (getContext: () => PrinterContext, memory: PrinterMemory | undefined) => ProtocolSession;

export const ENGINES = {
  EscPos: (getContext) => createEscPosSession(getContext),
  Epl: (getContext, memory) => createEplSession(getContext, { memory: memory?.epl }),
  StarPrnt: (getContext) => createStarSession('StarPrnt', getContext),
  StarLine: (getContext) => createStarSession('StarLine', getContext),
  Zpl: (getContext, memory) => createZplSession(getContext, { memory: memory?.zpl }),
} as const satisfies Record<Protocol, EngineFactory>;
