import type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
import type { Protocol } from './protocols.ts';
import { ENGINES, type PrinterMemory } from './registry.ts';

/** A protocol with an engine (the registry's list). */
export type EngineProtocol = Protocol;
export { PROTOCOLS, PROTOCOL_NAMES, protocolInfo, type Protocol, type ProtocolInfo, type ProtocolKind } from './protocols.ts';
export { ENGINES, newPrinterMemory, type EngineFactory, type PrinterMemory } from './registry.ts';

/**
 * Version of the rendering engines, stored with each document next to its raw bytes so a
 * document can be rendered again by the same rules.
 */
export const ENGINE_VERSION = '1';

export { newEplPrinterMemory } from './epl/index.ts';
export { newZplPrinterMemory } from './zpl/index.ts';

export function createProtocolSession(protocol: EngineProtocol, getContext: () => PrinterContext, memory?: PrinterMemory): ProtocolSession {
  return ENGINES[protocol](getContext, memory);
}

export type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
export type { RenderedJob, Canvas, CanvasElement } from './canvas/model.ts';
