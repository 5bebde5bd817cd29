import type { PrinterContext, PushResult } from '../canvas/printer-context.ts';
import type { BudgetLimits } from '../core/budget.ts';
import { ReceiptMachine } from '../receipt/machine.ts';
import { starModel, starTextCodec } from './codepages.ts';
import { starFonts } from './fonts.ts';
import { STAR_LINE_SPACING } from './define.ts';
import { RasterPage } from './raster.ts';
import { starAsb, type StarStatusInput } from './status.ts';
import { STAR_LINE_COMMANDS, STAR_PRNT_COMMANDS } from './table.ts';
import { initialStarSymbols, type StarSymbolSettings } from './symbols.ts';

export type StarLanguage = 'StarPrnt' | 'StarLine';

/**
 * A Star printer (StarPRNT or Star Line Mode): the shared receipt machine plus what only Star
 * has: its status (ASB sent on change once ESC RS a enables it, the ETB counter), the stored
 * QR and PDF417 settings, and the model identity reported to ESC # *.
 */
export class StarMachine extends ReceiptMachine<StarMachine> {
  symbols: StarSymbolSettings = initialStarSymbols();
  /** ESC RS a 1: send the ASB whenever the status changes while connected. */
  asbEnabled = false;
  private lastAsb: Uint8Array | null = null;
  etbCounter = 0;
  etbExecuted = false;
  /** Between ESC * r A and ESC * r B: the session frames bytes as raster commands (raster.ts). */
  rasterMode = false;
  readonly raster = new RasterPage();

  constructor(getContext: () => PrinterContext, readonly language: StarLanguage, limits?: BudgetLimits) {
    super(getContext, language === 'StarPrnt' ? STAR_PRNT_COMMANDS : STAR_LINE_COMMANDS, {
      codec: starTextCodec(getContext(), language),
      fonts: starFonts(starModel(getContext(), language)),
      limits,
    });
    this.modes.lineSpacing = STAR_LINE_SPACING;
  }

  /** ESC @: modes and stored symbol settings back to power-on. */
  initialize(): number {
    this.symbols = initialStarSymbols();
    const discarded = this.resetModes();
    this.modes.lineSpacing = STAR_LINE_SPACING;
    return discarded;
  }

  statusInput(): StarStatusInput {
    const c = this.getContext();
    return { flags: c.flags, drawer1State: c.drawer1State, bufferFull: c.bufferFull, etbCounter: this.etbCounter, etbExecuted: this.etbExecuted };
  }

  /** Sends the ASB now (ESC ACK SOH, ESC RS a 1, ETB) and remembers it for change detection. */
  sendAsb(): void {
    const now = starAsb(this.statusInput());
    this.reply(now);
    this.lastAsb = now;
    // "ETB command executed" is cleared once the host has received it (Star's ASB table).
    this.etbExecuted = false;
  }

  /** ASB on change: flags or drawers changed while the connection is open. */
  override contextChanged(): PushResult {
    if (this.asbEnabled) {
      const now = starAsb(this.statusInput());
      // Clearing the ETB bit after it was reported is not a change worth an ASB.
      const last = this.lastAsb;
      if (!last || now.some((v, i) => (i === 2 ? (v & ~0x02) !== (last[i] & ~0x02) : v !== last[i]))) this.sendAsb();
    }
    return this.takeOutput();
  }
}
