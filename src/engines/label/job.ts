import type { Canvas, CanvasElement, DebugElement, RenderedJob } from '../canvas/model.ts';
import { COST, FINISH_STEP_UNITS, JobBudget } from '../core/budget.ts';
import { isPendingEncode } from '../raster/png.ts';
import { ErrorList } from '../core/error-list.ts';
import { toHex } from '../core/hex.ts';

/**
 * Budgets that keep a label job's document a sane size (a Durable Object holds it whole):
 * 16 MiB of EPL/ZPL would otherwise make hundreds of thousands of elements and messages.
 */
export const MAX_DEBUG_LINES = 20_000;
export const MAX_DRAWN_ELEMENTS = 20_000;
export const MAX_LABELS = 1000;

export interface LabelJobOptions {
  /** Most canvases (printed label copies) one job may produce. Default 1000. */
  maxCanvases?: number;
  /** Most drawn elements one job may produce. Default 20000. */
  maxElements?: number;
  /** Rendering work units (core/budget.ts) one job may spend. */
  maxCost?: number;
}

/** One rendering of the label: each command's debug element with the elements it drew. */
export interface RenderedLabel {
  byCommand: Array<{ debug: DebugElement; elements: CanvasElement[] }>;
  flat: CanvasElement[];
  widthInDots: number;
  heightInDots: number | null;
}

/**
 * The label machine's document: what every line-based label language (EPL, ZPL) does with
 * its commands' debug elements and its printed labels. Each command line gets exactly one
 * debug element (so the byte accounting holds); debug elements wait in `pending` until a label
 * prints, and go into the first canvas of that print, each right before the elements its
 * command drew; every printed copy is one canvas. Past the line budget lines are folded into
 * one `elided` element; past the label, element or cost budget printing stops with one error.
 */
export class LabelJob {
  readonly canvases: Canvas[] = [];
  readonly errors = new ErrorList();
  bytesReceived = 0;
  private pending: DebugElement[] = [];
  private readonly placed = new WeakSet<DebugElement>();
  private debugLines = 0;
  private elided: DebugElement | null = null;
  private elidedLines = 0;
  private elementBudget: number;
  private readonly maxCanvases: number;
  private readonly budget: JobBudget;
  private limitReported = false;
  /** Label copies printed (none: maybe a status poll). */
  labelsPrinted = 0;

  constructor(options: LabelJobOptions = {}) {
    this.maxCanvases = options.maxCanvases ?? MAX_LABELS;
    this.elementBudget = options.maxElements ?? MAX_DRAWN_ELEMENTS;
    this.budget = new JobBudget({ maxCost: options.maxCost });
  }

  /**
   * The debug element of one command line of `bytes`, counted in the job. Past the line
   * budget it is a detached element (still filled in by the caller, never shown) and its bytes
   * go to the one summary element.
   */
  line(bytes: Uint8Array): DebugElement {
    this.bytesReceived += bytes.length;
    const debug: DebugElement = { type: 'debug', commandRaw: '', commandDescription: [], lengthInBytes: bytes.length, debugType: 'command', parameters: {} };
    if (this.debugLines < MAX_DEBUG_LINES) {
      this.debugLines++;
      debug.commandRaw = toHex(bytes);
      this.pending.push(debug);
      return debug;
    }
    if (!this.elided) {
      this.elided = {
        type: 'debug', debugType: 'elided', commandRaw: '', lengthInBytes: 0, parameters: {},
        commandDescription: [`More than ${MAX_DEBUG_LINES} lines: the rest of the job is summarised here`],
      };
      this.pending.push(this.elided);
    }
    this.elided.lengthInBytes += bytes.length;
    this.elidedLines++;
    this.elided.parameters = { elidedLines: String(this.elidedLines), elidedBytes: String(this.elided.lengthInBytes) };
    return debug;
  }

  /** True once the command's debug element is in a canvas (its command printed). */
  isPlaced(debug: DebugElement): boolean {
    return this.placed.has(debug);
  }

  /**
   * Room for one more label copy? When not, `onLimit` is called once (the language reports
   * the error its own way, e.g. EPL latches code 04).
   */
  canPrint(onLimit: (message: string) => void): boolean {
    if (this.canvases.length < this.maxCanvases && this.elementBudget > 0 && !this.budget.exceeded) return true;
    if (!this.limitReported) {
      this.limitReported = true;
      const why = this.budget.exceeded ? `the job's rendering budget (${this.budget.maxCost} units) is spent` : "the emulator's limit per job";
      onLimit(`print stopped after ${this.canvases.length} labels (${why})`);
    }
    return false;
  }

  /** Rendering work spent so far (core/budget.ts units). */
  get workSpent(): number {
    return this.budget.spent;
  }

  /** Account the work of rendering a label once (its pixels and elements). */
  spendRendering(label: RenderedLabel, symbols: number): void {
    // Symbols cost their encoding; graphics only their pixels (CUPS's EPL driver sends a
    // label as one 1-row graphic per row: 1,218 small images, not 1,218 symbols).
    let cost = symbols * COST.symbol;
    for (const el of label.flat) {
      cost += COST.element;
      if (el.type === 'image') cost += el.width * el.height * COST.pixel;
    }
    this.budget.spend(cost);
  }

  /** One printed copy; the first copy of a print takes the pending debug elements. */
  addLabel(label: RenderedLabel, takePending: boolean): void {
    this.elementBudget -= Math.max(1, label.flat.length);
    const items = takePending ? this.placePending(label) : label.flat.slice();
    this.canvases.push({ widthInDots: label.widthInDots, heightInDots: label.heightInDots, items });
    this.labelsPrinted++;
  }

  /**
   * Items of the first canvas of a print: the pending debug elements in byte order, each
   * drawing command's elements right after its debug element (or in buffer order when the
   * command was placed in an earlier canvas).
   */
  private placePending(label: RenderedLabel): CanvasElement[] {
    const items: CanvasElement[] = [];
    const pending = this.pending;
    const pendingSet = new Set<DebugElement>(pending);
    let pi = 0;
    for (const r of label.byCommand) {
      if (pendingSet.has(r.debug)) {
        while (pi < pending.length) {
          const d = pending[pi++];
          pendingSet.delete(d);
          items.push(d);
          if (d === r.debug) break;
        }
      }
      for (const el of r.elements) items.push(el);
    }
    while (pi < pending.length) items.push(pending[pi++]);
    for (const d of pending) this.placed.add(d);
    this.pending = [];
    return items;
  }

  /** Debug elements after the last print go to the last canvas, or to a blank one of `size`. */
  closePending(size: () => { widthInDots: number; heightInDots: number | null }): void {
    if (this.pending.length === 0) return;
    const last = this.canvases[this.canvases.length - 1];
    if (last) last.items.push(...this.pending);
    else this.canvases.push({ ...size(), items: this.pending });
    this.pending = [];
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The rendered job; a status poll printed no label and held no error. */
  /** Canvas whose images `encodeStep` looks at next. */
  private encodeCursor = 0;

  /**
   * PNG-encodes the printed labels' images (pngOf encodes on first read) until about
   * `FINISH_STEP_UNITS` dots are done; true while labels are left (ProtocolSession.finishStep).
   */
  encodeStep(): boolean {
    let units = 0;
    while (this.encodeCursor < this.canvases.length && units < FINISH_STEP_UNITS) {
      for (const el of this.canvases[this.encodeCursor++].items) {
        if (el.type !== 'image' || !isPendingEncode(el.image)) continue;
        units += el.image.widthInDots * el.image.heightInDots + COST.pngEncode;
        void el.image.png;
      }
    }
    return this.encodeCursor < this.canvases.length;
  }

  finish(): RenderedJob {
    if (this.elided) {
      this.errors.setLead(
        `The job has more than ${MAX_DEBUG_LINES} lines; the remaining ${this.elided.lengthInBytes} bytes were processed (labels, replies) but their lines are summarised in one debug element`,
      );
    }
    const errorMessages = this.errors.messages();
    const isStatusPoll = this.labelsPrinted === 0 && errorMessages.length === 0 && this.elided === null && this.bytesReceived > 0;
    return { canvases: this.canvases, errorMessages, bytesReceived: this.bytesReceived, isStatusPoll };
  }
}
