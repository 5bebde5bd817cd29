import type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
import { createEscPosSession } from './escpos/index.ts';
import { createEplSession } from './epl/index.ts';

export type EngineProtocol = 'EscPos' | 'Epl';

/**
 * Version of the rendering engines, stored with each document next to its raw bytes so a
 * document can be rendered again by the same rules.
 */
export const ENGINE_VERSION = '1';

export function createProtocolSession(protocol: EngineProtocol, getContext: () => PrinterContext): ProtocolSession {
  return protocol === 'Epl' ? createEplSession(getContext) : createEscPosSession(getContext);
}

export type { PrinterContext, ProtocolSession } from './canvas/printer-context.ts';
export type { RenderedJob, Canvas, CanvasElement } from './canvas/model.ts';
