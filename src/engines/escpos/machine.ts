import type { PrinterContext, PushResult } from '../canvas/printer-context.ts';
import type { BudgetLimits } from '../core/budget.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import { ReceiptMachine } from '../receipt/machine.ts';
import { initialSymbolSettings, type SymbolSettings } from './barcodes.ts';
import type { EscZType } from './commands/esc-z-codes.ts';
import { defaultModelFor, type PrinterModel } from '../models/index.ts';
import { escPosTextCodec } from './codepages.ts';
import { ESC_POS_COMMANDS } from './table.ts';
import { asb } from './status.ts';

/**
 * The ESC/POS printer: the shared receipt machine plus what only ESC/POS has (stored 2D
 * symbol settings, download and buffer graphics, Automatic Status Back). Commands live in
 * commands/*.ts, one family per file; table.ts joins them.
 */
export class EscPosMachine extends ReceiptMachine<EscPosMachine> {
  symbols: SymbolSettings = initialSymbolSettings();
  downloadedImage: Bitmap | null = null;
  bufferGraphics: Bitmap | null = null;
  readonly downloadGraphics = new Map<string, Bitmap>();
  asbMask = 0;
  lastAsb: Uint8Array | null = null;

  constructor(getContext: () => PrinterContext, limits?: BudgetLimits) {
    super(getContext, ESC_POS_COMMANDS, { codec: escPosTextCodec(getContext()), limits });
  }

  /** GS Z: the 2D code ESC Z prints. */
  escZType: EscZType = 'QR Code';

  /** The printer model emulated (the protocol's default when the context names none). */
  get model(): PrinterModel {
    return this.getContext().model ?? defaultModelFor('EscPos');
  }

  /** ESC @: modes and stored symbol settings back to power-on. */
  initialize(): number {
    this.symbols = initialSymbolSettings();
    this.escZType = 'QR Code';
    return this.resetModes();
  }

  /** Automatic Status Back: send the status again when it changed. */
  override contextChanged(): PushResult {
    if (this.asbMask !== 0) {
      const now = asb(this.getContext());
      if (!this.lastAsb || now.some((v, i) => v !== this.lastAsb![i])) {
        this.reply(now);
        this.lastAsb = now;
      }
    }
    return this.takeOutput();
  }
}
