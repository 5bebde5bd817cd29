import { RECEIPT_PRINTER_MODELS } from './receipt-models.ts';
import { ZEBRA_MODELS } from './zebra-models.ts';
import { DEFAULT_MODEL_IDS } from './defaults.ts';
import type { ModelProtocol } from './protocol.ts';
import type { CodeTableNumbering, PrinterModel } from './types.ts';

/**
 * The printer model registry: which printer Slipstream pretends to be. One list, looked up by
 * id; the Worker's API, the web UI's picker and the engines read it from here.
 */

export { MODEL_PROTOCOLS, type ModelProtocol } from './protocol.ts';
export type { CodeTableNumbering, ModelContext, MultiByteEncoding, PrinterFont, PrinterIdentity, PrinterModel } from './types.ts';
export { MULTI_BYTE_ENCODINGS } from './types.ts';
export { modelContext } from './context.ts';

export const PRINTER_MODELS: readonly PrinterModel[] = [...RECEIPT_PRINTER_MODELS, ...ZEBRA_MODELS];

const BY_ID: ReadonlyMap<string, PrinterModel> = new Map(PRINTER_MODELS.map((m) => [m.id, m]));

export { DEFAULT_MODEL_IDS };

export function getModel(id: string): PrinterModel | undefined {
  return BY_ID.get(id);
}

export function defaultModelFor(protocol: ModelProtocol): PrinterModel {
  return BY_ID.get(DEFAULT_MODEL_IDS[protocol])!;
}

export function modelSpeaks(model: PrinterModel, protocol: ModelProtocol): boolean {
  return model.protocols.includes(protocol);
}

/** The model's numbering of code tables in one protocol (empty when it does not speak it). */
export function codeTablesFor(model: PrinterModel, protocol: ModelProtocol): CodeTableNumbering {
  return model.codeTables[protocol] ?? {};
}
