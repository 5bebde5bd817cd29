import { defaultModelFor, getModel, modelSpeaks, PRINTER_MODELS, type ModelProtocol, type MultiByteEncoding, type PrinterModel } from '../../engines/models/index.ts';
import type { PrinterRow } from '../data/rows.ts';
import { badRequest } from '../http/problem.ts';

/**
 * Which model a printer emulates and how its multi-byte text decodes: resolving requests
 * against the model registry (src/engines/models) and reading the stored choice back.
 */

export interface ModelChoice {
  model: PrinterModel;
  multiByteEncoding: MultiByteEncoding;
}

function encodingAllowed(model: PrinterModel, encoding: MultiByteEncoding): boolean {
  return encoding === 'None' || (model.multiByteEncodings as readonly string[]).includes(encoding);
}

/**
 * The stored choice of a printer. NULL columns (printers from before models existed) and a
 * model id no longer in the registry read as the protocol's default model.
 */
export function modelChoiceOf(row: Pick<PrinterRow, 'protocol' | 'model' | 'multi_byte_encoding'>): ModelChoice {
  const protocol = row.protocol as ModelProtocol;
  const stored = row.model ? getModel(row.model) : undefined;
  const model = stored && modelSpeaks(stored, protocol) ? stored : defaultModelFor(protocol);
  const encoding = row.multi_byte_encoding as MultiByteEncoding | null;
  return { model, multiByteEncoding: encoding && encodingAllowed(model, encoding) ? encoding : model.defaultMultiByteEncoding };
}

/**
 * The choice a create or update request makes. Omitted fields: on create, the protocol's
 * default model and that model's default encoding; on update (PUT replaces the settings, but
 * clients written against the seed contract never send a model), the printer's current model
 * while it still speaks the protocol, and its current encoding while the model is unchanged.
 * A model that does not exist or does not speak the protocol, or an encoding the model lacks,
 * is a 400 naming both.
 */
export function resolveModelChoice(
  request: { protocol: string; model?: string; multiByteEncoding?: MultiByteEncoding },
  current?: ModelChoice,
): ModelChoice {
  const protocol = request.protocol as ModelProtocol;
  let model: PrinterModel;
  if (request.model !== undefined) {
    const found = getModel(request.model);
    if (!found) {
      throw badRequest(`Unknown printer model "${request.model}" (GET /api/printer-models lists them)`, {
        'settings.model': [`Unknown printer model "${request.model}"`],
      });
    }
    if (!modelSpeaks(found, protocol)) {
      const message = `Printer model "${found.id}" does not speak ${protocol} (it speaks ${found.protocols.join(', ')})`;
      throw badRequest(message, { 'settings.model': [message] });
    }
    model = found;
  } else {
    model = current && modelSpeaks(current.model, protocol) ? current.model : defaultModelFor(protocol);
  }
  let multiByteEncoding: MultiByteEncoding;
  if (request.multiByteEncoding !== undefined) {
    if (!encodingAllowed(model, request.multiByteEncoding)) {
      const message = `Printer model "${model.id}" has no ${request.multiByteEncoding} unit (it has ${['None', ...model.multiByteEncodings].join(', ')})`;
      throw badRequest(message, { 'settings.multiByteEncoding': [message] });
    }
    multiByteEncoding = request.multiByteEncoding;
  } else {
    multiByteEncoding = current && current.model === model ? current.multiByteEncoding : model.defaultMultiByteEncoding;
  }
  return { model, multiByteEncoding };
}

/**
 * The paper width a create or update request sets. Omitted: the model's printable width
 * (`defaultWidthInDots`, what the model's roll or label stock prints) on create; on update the
 * printer's current width while its model is unchanged, else the new model's.
 */
export function resolveWidthInDots(requested: number | undefined, model: PrinterModel, current?: PrinterRow): number {
  if (requested !== undefined) return requested;
  return current && modelChoiceOf(current).model.id === model.id ? current.width_in_dots : model.defaultWidthInDots;
}

/** The models as GET /api/printer-models lists them. */
export function printerModelDtos() {
  return PRINTER_MODELS.map((m) => ({
    id: m.id,
    vendor: m.vendor,
    name: m.name,
    protocols: [...m.protocols],
    dpi: m.dpi,
    defaultWidthInDots: m.defaultWidthInDots,
    fonts: m.fonts.map((f) => ({ name: f.name, widthInDots: f.widthInDots, heightInDots: f.heightInDots })),
    codeTables: { ...(m.codeTables[m.protocols[0]] ?? {}) },
    codeTablesByProtocol: Object.fromEntries(Object.entries(m.codeTables).map(([p, t]) => [p, { ...t }])),
    multiByteEncodings: [...m.multiByteEncodings],
    defaultMultiByteEncoding: m.defaultMultiByteEncoding,
  }));
}
