import type { Canvas, CanvasElement, DebugElement, ImageElement, PngImage, RenderedJob, Rotation } from '../canvas/model.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { encodeBitmapPng } from '../raster/png.ts';
import { ErrorList } from '../core/error-list.ts';
import { COST, FINISH_STEP_UNITS, JobBudget, type BudgetLimits } from '../core/budget.ts';
import { OTHER, USUAL_DEBUG, type ElementKind } from '../canvas/element-kinds.ts';
import type { ElementSink } from '../canvas/element-sink.ts';

/** Where a drawn element came from (copied into its ElementSource fields). */
export interface Source {
  commandRaw: string;
  commandDescription: string[];
  lengthInBytes: number;
}

interface PendingImage {
  element: ImageElement;
  parts: Bitmap[];
  /** Column-format strips (ESC *) that a following strip may extend downwards. */
  mergeable: boolean;
}

const NO_PARAMETERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The job being rendered: a list of canvases (one per cut), the paper position on the
 * current canvas, error messages. Images are kept as bitmaps and PNG-encoded once, at the
 * end, so that consecutive ESC * strips of one picture become a single image.
 */
export class JobDocument {
  readonly canvases: Canvas[] = [];
  /** The kinds of each canvas's elements (canvas/element-kinds.ts), by the canvas's index. */
  private readonly kinds: ElementKind[][] = [];
  private current: Canvas | null = null;
  private drawnOnCurrent = 0;
  /** Paper fed on the current canvas, in dots: the top of the next line. */
  y = 0;
  private readonly errors = new ErrorList();
  private readonly images: PendingImage[] = [];
  private lastImage: PendingImage | null = null;
  bytesReceived = 0;
  readonly budget: JobBudget;
  /** Set once a budget is spent: the summary of everything after it. */
  private elided: { element: DebugElement; canvas: Canvas; kinds: ElementKind[]; commands: number; dropped: number } | null = null;
  /** Drawn elements and cuts over the whole job (a job with neither may be a status poll). */
  private drawnInJob = 0;
  private cutsInJob = 0;
  /** Images before this index are PNG-encoded (encodeStep). */
  private encoded = 0;
  /** PNGs of small images by content: 20,000 identical tiny rasters are encoded once. */
  private readonly smallPngs = new Map<string, PngImage>();

  /** Takes elements as they become final (`streamTo`); null: they stay on the canvases. */
  private sink: ElementSink | null = null;
  /** Canvases before this index are given to the sink and closed. */
  private closedInSink = 0;
  /** Elements added since the sink was last asked to take any. */
  private unsent = 0;
  /** The sink was given something: the rest goes to it too. */
  private sinkStarted = false;

  constructor(readonly widthInDots: number, limits: BudgetLimits = {}) {
    this.budget = new JobBudget(limits);
  }

  /**
   * From now on, elements go to `sink` in batches once final, and leave the canvases, when the
   * job outgrows a batch: the finished job's canvases then hold no elements (their sizes stay).
   * A job that never does (a receipt) gives nothing; its canvases keep their elements.
   */
  streamTo(sink: ElementSink): void {
    this.sink = sink;
  }

  /**
   * Gives the sink what is final: canvases that nothing can join any more, and the open
   * canvas's elements once it has drawn content (no element after a cut joins the one before).
   * Nothing while the last drawn element is a picture (a strip may still extend it) or the
   * job is summarised (those elements change); the pictures before are PNG-encoded first.
   */
  private send(all: boolean): void {
    const sink = this.sink!;
    this.unsent = 0;
    if (!all) {
      if (this.elided || this.lastImage) return;
      // No picture can grow any more: each one's PNG is made now, the rest of the job's later.
      this.encodeStep(Infinity);
    }
    const last = this.canvases.length - 1;
    const openDrawn = this.current !== null && this.drawnOnCurrent > 0;
    // A canvas closed by a cut is joined by what follows until the next one draws.
    const closable = all ? last + 1 : this.current === null ? last : openDrawn ? last : last - 1;
    for (; this.closedInSink < closable; this.closedInSink++) {
      const c = this.canvases[this.closedInSink];
      this.sendItems(this.closedInSink, c);
      sink.closeCanvas(this.closedInSink, c.widthInDots, c.heightInDots);
      this.sinkStarted = true;
    }
    if (!all && openDrawn && this.closedInSink === last) this.sendItems(last, this.current!);
  }

  private sendItems(index: number, c: Canvas): void {
    if (c.items.length === 0) return;
    this.sink!.elements(index, c.widthInDots, c.items, this.kinds[index]);
    this.sinkStarted = true;
    c.items = [];
    this.kinds[index] = [];
  }

  private canvas(): Canvas {
    if (this.elided) return this.elided.canvas;
    if (!this.current) {
      this.current = { widthInDots: this.widthInDots, heightInDots: null, items: [] };
      this.canvases.push(this.current);
      this.kinds.push([]);
      this.drawnOnCurrent = 0;
      this.y = 0;
    }
    return this.current;
  }

  /** Adds `el` to the canvas drawn on, `kind` what is known of its keys. */
  private add(el: CanvasElement, kind: ElementKind): void {
    const canvas = this.canvas();
    canvas.items.push(el);
    (this.elided ? this.elided.kinds : this.kinds[this.kinds.length - 1]).push(kind);
    if (this.sink && ++this.unsent >= SINK_BATCH) this.send(false);
  }

  /**
   * Spend rendering work (pixels, symbols) before doing it. False once the job's cost budget
   * is spent: the caller skips the work, and the rest of the job is summarised.
   */
  spend(units: number): boolean {
    if (this.budget.spend(units)) return true;
    this.openSummary();
    return false;
  }

  /** True once a budget is spent (the rest of the job is summarised, not drawn). */
  get isOverBudget(): boolean {
    return this.elided !== null;
  }

  private openSummary(): void {
    if (this.elided) return;
    const canvas = this.canvas();
    const why = this.budget.exceeded?.reason === 'cost' ? `More than ${this.budget.maxCost} units of rendering work` : `More than ${this.budget.maxElements} elements`;
    const element: DebugElement = {
      type: 'debug', debugType: 'elided', parameters: { elidedCommands: '0', elidedBytes: '0', droppedElements: '0' },
      commandRaw: '', commandDescription: [`${why}: the rest of the job is summarised here`], lengthInBytes: 0,
    };
    const kinds = this.kinds[this.canvases.indexOf(canvas)];
    canvas.items.push(element);
    kinds.push(OTHER);
    this.elided = { element, canvas, kinds, commands: 0, dropped: 0 };
  }

  /** True (and the element is counted into the summary) once a budget is spent. */
  private overBudget(isDebug: boolean, length: number): boolean {
    if (!this.elided && !this.budget.takeElement()) this.openSummary();
    const e = this.elided;
    if (!e) return false;
    if (isDebug) {
      e.commands++;
      e.element.lengthInBytes += length;
      this.bytesReceived += length;
    } else {
      e.dropped++;
    }
    e.element.parameters = { elidedCommands: String(e.commands), elidedBytes: String(e.element.lengthInBytes), droppedElements: String(e.dropped) };
    return true;
  }

  debug(debugType: string, raw: string, description: string[], length: number, parameters: Record<string, string> = NO_PARAMETERS): void {
    if (this.overBudget(true, length)) return;
    const el: DebugElement = {
      type: 'debug',
      debugType,
      parameters,
      commandRaw: raw,
      commandDescription: description,
      lengthInBytes: length,
    };
    this.add(el, USUAL_DEBUG);
    this.bytesReceived += length;
  }

  error(message: string): void {
    this.errors.add(message);
  }

  /** Add a drawn (non-image) element; `kind`: what is known of its keys (canvas/element-kinds.ts). */
  draw(el: CanvasElement, kind: ElementKind = OTHER): void {
    if (this.overBudget(false, 0)) return;
    this.add(el, kind);
    this.drawnOnCurrent++;
    this.drawnInJob++;
    this.lastImage = null;
  }

  /**
   * Add an image element for `bitmap` at (x, y) on the current canvas. A picture larger than
   * one finish step (`FINISH_STEP_UNITS` dots) becomes several images stacked in bands, so
   * that encoding any one of them is a bounded step; the first band carries the source.
   */
  image(bitmap: Bitmap, x: number, y: number, src: Source, opts: { mergeable?: boolean; rotation?: Rotation } = {}): void {
    const rows = Math.max(1, Math.floor(FINISH_STEP_UNITS / Math.max(1, bitmap.width)));
    if (bitmap.height <= rows) {
      this.imageBand(bitmap, x, y, src, opts);
      return;
    }
    for (let top = 0; top < bitmap.height && !this.isOverBudget; top += rows) {
      const h = Math.min(rows, bitmap.height - top);
      const band = new Bitmap(bitmap.width, h, bitmap.pixels.subarray(top * bitmap.width, (top + h) * bitmap.width));
      this.imageBand(band, x, y + top, top === 0 ? src : { ...src, lengthInBytes: 0 }, { ...opts, mergeable: false });
    }
  }

  private imageBand(bitmap: Bitmap, x: number, y: number, src: Source, opts: { mergeable?: boolean; rotation?: Rotation }): void {
    if (this.overBudget(false, 0)) return;
    if (!this.spend(bitmap.width * bitmap.height * COST.pixel)) {
      this.elided!.dropped++;
      return;
    }
    this.drawnInJob++;
    const mergeable = opts.mergeable === true;
    const last = this.lastImage;
    if (
      mergeable && last && last.mergeable && last.element.x === x && last.element.width === bitmap.width &&
      last.element.y + last.element.height === y &&
      // A merged picture stays within one finish step (see image()); the next strip starts a new one.
      (last.element.height + bitmap.height) * bitmap.width <= FINISH_STEP_UNITS
    ) {
      last.parts.push(bitmap);
      last.element.height += bitmap.height;
      last.element.lengthInBytes += src.lengthInBytes;
      return;
    }
    const element: ImageElement = {
      type: 'image',
      image: { png: new Uint8Array(0), widthInDots: bitmap.width, heightInDots: bitmap.height },
      x,
      y,
      width: bitmap.width,
      height: bitmap.height,
      rotation: opts.rotation ?? 'none',
      commandRaw: src.commandRaw,
      commandDescription: src.commandDescription,
      lengthInBytes: src.lengthInBytes,
    };
    this.add(element, OTHER);
    this.drawnOnCurrent++;
    const pending: PendingImage = { element, parts: [bitmap], mergeable };
    this.images.push(pending);
    this.lastImage = pending;
  }

  /**
   * PNG-encodes pending images until about `maxUnits` pixels are done; true while some are
   * left. Called in bounded steps before `finish` by hosts that share their thread.
   */
  encodeStep(maxUnits = FINISH_STEP_UNITS): boolean {
    let units = 0;
    while (this.encoded < this.images.length && units < maxUnits) {
      const img = this.images[this.encoded++];
      const bmp = joinParts(img);
      units += bmp.pixels.length + COST.pngEncode;
      img.element.image = this.pngOf(bmp);
    }
    return this.encoded < this.images.length;
  }

  private pngOf(bmp: Bitmap): PngImage {
    if (bmp.pixels.length > SMALL_IMAGE_PIXELS) return encodeBitmapPng(bmp);
    const key = `${bmp.width}x${bmp.height}:${String.fromCharCode.apply(null, bmp.pixels as unknown as number[])}`;
    let png = this.smallPngs.get(key);
    if (!png) {
      png = encodeBitmapPng(bmp);
      this.smallPngs.set(key, png);
    }
    return png;
  }

  /** A receipt is being printed (not cut off yet). */
  get hasOpenCanvas(): boolean {
    return this.current !== null;
  }

  /** Any drawn content or paper feed on the current canvas. */
  get hasContent(): boolean {
    return this.current !== null && (this.drawnOnCurrent > 0 || this.y > 0);
  }

  feed(dots: number): void {
    this.canvas();
    if (dots > 0) this.y += dots;
  }

  /** Cut: close the current canvas; the next element opens a new one. */
  cut(): void {
    if (this.elided) return;
    this.cutsInJob++;
    // A cut with nothing drawn or fed since the last one cuts no paper of its own (receiptline
    // ends a job with two): what was recorded meanwhile joins the receipt before, no empty canvas.
    const previous = this.canvases.at(this.current ? -2 : -1);
    if (previous && !this.hasContent) {
      if (this.current) {
        this.mergeIntoPrevious();
        this.current = null;
      }
      return;
    }
    const c = this.canvas();
    c.heightInDots = this.y;
    this.current = null;
    this.lastImage = null;
  }

  /** The last canvas's elements join the one before it, which it stops being. */
  private mergeIntoPrevious(): void {
    const n = this.canvases.length;
    for (const el of this.canvases[n - 1].items) this.canvases[n - 2].items.push(el);
    for (const k of this.kinds[n - 1]) this.kinds[n - 2].push(k);
    this.canvases.pop();
    this.kinds.pop();
  }

  /** Anything drawn or cut in the whole job (status polls have neither). */
  get drewOrCut(): boolean {
    return this.drawnInJob > 0 || this.cutsInJob > 0;
  }

  /**
   * The rendered job. `isStatusPoll` is the engine's verdict that the job printed nothing
   * (no drawing, no cut, no pulse, no error: only status queries and settings).
   */
  finish(extra: { pulsed: boolean }): RenderedJob {
    if (this.elided) {
      const { commands, dropped, element } = this.elided;
      this.errors.setLead(this.budget.summary(element.lengthInBytes, commands, dropped));
    }
    const errorMessages = this.errors.messages();
    const isStatusPoll = !this.drewOrCut && !extra.pulsed && !this.elided && errorMessages.length === 0 && this.bytesReceived > 0;
    if (this.current) this.current.heightInDots = this.y;
    // Bytes after the last cut that drew nothing (status queries, ESC @, a trailing line
    // feed) belong with the receipt they followed rather than a blank canvas of their own.
    if (this.current && this.canvases.length > 1 && this.drawnOnCurrent === 0) this.mergeIntoPrevious();
    this.current = null;
    if (this.canvases.length === 0) {
      this.canvases.push({ widthInDots: this.widthInDots, heightInDots: 0, items: [] });
      this.kinds.push([]);
    }
    this.encodeStep(Infinity);
    if (this.sinkStarted) this.send(true);
    return { canvases: this.canvases, errorMessages, bytesReceived: this.bytesReceived, isStatusPoll, elementKinds: this.kinds };
  }
}

/** Elements added between two looks at what the sink can be given. */
const SINK_BATCH = 2_000;

/** Images up to this many dots are encoded once per distinct content within a job. */
const SMALL_IMAGE_PIXELS = 4096;

/** One bitmap of an image's parts (consecutive ESC * strips of one picture). */
function joinParts(img: PendingImage): Bitmap {
  if (img.parts.length === 1) return img.parts[0];
  const h = img.parts.reduce((s, p) => s + p.height, 0);
  const bmp = new Bitmap(img.element.width, h);
  let off = 0;
  for (const p of img.parts) {
    bmp.pixels.set(p.pixels, off);
    off += p.pixels.length;
  }
  return bmp;
}
