/**
 * Per-job budgets. Engines share one workerd thread per printer object and a document is held
 * whole, so a single job may neither make millions of elements nor rasterise without bound.
 * Past a budget the rest of the job is still parsed (status queries answered, drawer kicks
 * fired, bytes accounted) but summarised in one `elided` debug element with one error message.
 */

/**
 * Elements one job may produce. A receipt has hundreds; a 1 MB end-of-day report of text lines
 * about 70,000 (a debug element per command and a text element per run), and it is drawn whole.
 * Work is bounded by the cost budget below; this bounds the document's size (about 250 bytes
 * of JSON per element), and so the printer object's memory while it builds it.
 */
export const DEFAULT_MAX_ELEMENTS = 100_000;

/**
 * Work units one job may spend. Units are pixels rasterised; a barcode or 2D symbol encoding
 * and an element also cost their weight below. 32 M units is a 576-dot receipt 55,000 dots
 * (7 m) long of pure graphics, or 30 full 4x6" labels at 203 dpi drawn as one graphic each:
 * beyond any real receipt or label job, and small enough that rendering, encoding and storing
 * a job that spends it all stays a few seconds of sliced work (issue 17: a single GS v 0 of
 * 35 M dots or 4,000 ESC * strips held other printers for 2 s under the earlier 256 M).
 */
export const DEFAULT_MAX_COST = 32_000_000;

/**
 * Rendering work one `finishStep` of an engine does at most (pixels PNG-encoded): about 10 ms,
 * so a job's closing work interleaves with other printers like its bytes do.
 */
export const FINISH_STEP_UNITS = 1_000_000;

export const COST = {
  /** One dot rasterised (images, symbols, PNG encoding). */
  pixel: 1,
  /** One barcode or 2D symbol encoded (bwip-js work beyond its pixels). */
  symbol: 50_000,
  /**
   * Each byte of a symbol's data: encoding grows with it (a 1,500-byte QR Code takes bwip-js
   * about 60 ms, some 6 M units), whether or not the symbol then fits the paper.
   */
  symbolByte: 4_000,
  /** One element placed. */
  element: 50,
  /**
   * One PNG encoded, beyond its dots (buffers, deflate set-up, CRCs): 20,000 distinct tiny
   * rasters are a second of encoding though they have few dots. Counts in finish steps only.
   */
  pngEncode: 5_000,
} as const;

/** What encoding a symbol of `dataBytes` bytes costs. */
export function symbolCost(dataBytes: number): number {
  return COST.symbol + dataBytes * COST.symbolByte;
}

export interface BudgetLimits {
  maxElements?: number;
  maxCost?: number;
}

export type BudgetExceeded = { reason: 'elements'; limit: number } | { reason: 'cost'; limit: number };

/** Counts elements and cost for one job; says once which budget ran out first. */
export class JobBudget {
  readonly maxElements: number;
  readonly maxCost: number;
  private elements = 0;
  private cost = 0;
  /** Set once a budget is spent; never cleared. */
  exceeded: BudgetExceeded | null = null;

  constructor(limits: BudgetLimits = {}) {
    this.maxElements = limits.maxElements ?? DEFAULT_MAX_ELEMENTS;
    this.maxCost = limits.maxCost ?? DEFAULT_MAX_COST;
  }

  /** Room for one more element? Counts it when there is. */
  takeElement(): boolean {
    if (this.exceeded) return false;
    if (this.elements >= this.maxElements) {
      this.exceeded = { reason: 'elements', limit: this.maxElements };
      return false;
    }
    this.elements++;
    return this.spend(COST.element);
  }

  /** Spend work units before doing the work; false (and the job is over budget) when they do not fit. */
  spend(units: number): boolean {
    if (this.exceeded) return false;
    if (this.cost + units > this.maxCost) {
      this.exceeded = { reason: 'cost', limit: this.maxCost };
      return false;
    }
    this.cost += units;
    return true;
  }

  /** Would `units` still fit? (Checked before costly decoding; spending is still `spend`.) */
  fits(units: number): boolean {
    return !this.exceeded && this.cost + units <= this.maxCost;
  }

  get spent(): number {
    return this.cost;
  }

  /** The document's lead error message once over budget. */
  summary(remainingBytes: number, commands: number, dropped: number): string {
    const e = this.exceeded;
    const what = e?.reason === 'cost'
      ? `The job needed more than ${e.limit} units of rendering work (pixels and symbols)`
      : `The job produced more than ${e?.limit ?? this.maxElements} elements`;
    return `${what}; the remaining ${remainingBytes} bytes (${commands} commands, ${dropped} drawn elements) were processed for status replies and drawer commands but are summarised, not drawn`;
  }
}
