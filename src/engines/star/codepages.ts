import type { PrinterContext } from '../canvas/printer-context.ts';
import { receiptTextCodec } from '../escpos/codepages.ts';
import { defaultModelFor, type PrinterModel } from '../models/index.ts';
import type { TextCodec } from '../receipt/text.ts';

/**
 * Text on a Star printer: the receipt text codec in Star's numbering (ESC GS t n; the models
 * module takes it from receipt-printer-encoder's Star mapping: 0 the Star standard table,
 * 1 PC437, 2 Katakana, 4 PC858, 32 WPC1252, ...), international character sets (ESC R n, the
 * same twelve ASCII positions as ESC/POS), and multi-byte text per settings.multiByteEncoding.
 */
export const starTextCodec = (ctx: PrinterContext, language: 'StarPrnt' | 'StarLine'): TextCodec => receiptTextCodec(ctx, language);

/**
 * The printer's model when the context names one that speaks the language, else the
 * language's default model (TSP100IV for StarPRNT, TSP650II for Star Line Mode).
 */
export function starModel(ctx: PrinterContext, language: 'StarPrnt' | 'StarLine'): PrinterModel {
  return ctx.model && ctx.model.protocols.includes(language) ? ctx.model : defaultModelFor(language);
}
