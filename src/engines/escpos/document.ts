import type { Canvas, CanvasElement, DebugElement, ImageElement, RenderedJob, Rotation } from '../canvas/model.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { encodeBitmapPng } from '../raster/png.ts';
import { ErrorList } from '../canvas/error-list.ts';

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

/**
 * Elements one job may produce. A receipt has hundreds; 16 MiB of text would make over a
 * million (hundreds of MB of JSON, more than a Durable Object may hold). Past this budget the
 * rest of the job is still parsed (status replies, drawer kicks) but summarised in one debug
 * element whose length covers the remaining bytes, so byte accounting holds.
 */
export const DEFAULT_MAX_ELEMENTS = 20_000;
const NO_PARAMETERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The job being rendered: a list of canvases (one per cut), the paper position on the
 * current canvas, error messages. Images are kept as bitmaps and PNG-encoded once, at the
 * end, so that consecutive ESC * strips of one picture become a single image.
 */
export class JobDocument {
  readonly canvases: Canvas[] = [];
  private current: Canvas | null = null;
  private drawnOnCurrent = 0;
  /** Paper fed on the current canvas, in dots: the top of the next line. */
  y = 0;
  private readonly errors = new ErrorList();
  private readonly images: PendingImage[] = [];
  private lastImage: PendingImage | null = null;
  bytesReceived = 0;
  private elementCount = 0;
  /** Set once the element budget is spent: the summary of everything after it. */
  private elided: { element: DebugElement; canvas: Canvas; commands: number; dropped: number } | null = null;

  constructor(readonly widthInDots: number, private readonly maxElements = DEFAULT_MAX_ELEMENTS) {}

  private canvas(): Canvas {
    if (this.elided) return this.elided.canvas;
    if (!this.current) {
      this.current = { widthInDots: this.widthInDots, heightInDots: null, items: [] };
      this.canvases.push(this.current);
      this.drawnOnCurrent = 0;
      this.y = 0;
    }
    return this.current;
  }

  /** True (and the element is counted into the summary) once the element budget is spent. */
  private overBudget(isDebug: boolean, length: number): boolean {
    if (!this.elided && this.elementCount >= this.maxElements) {
      const canvas = this.canvas();
      const element: DebugElement = {
        type: 'debug', debugType: 'elided', parameters: { elidedCommands: '0', elidedBytes: '0', droppedElements: '0' },
        commandRaw: '', commandDescription: [`More than ${this.maxElements} elements: the rest of the job is summarised here`], lengthInBytes: 0,
      };
      canvas.items.push(element);
      this.elided = { element, canvas, commands: 0, dropped: 0 };
    }
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
    this.elementCount++;
    const el: DebugElement = {
      type: 'debug',
      debugType,
      parameters,
      commandRaw: raw,
      commandDescription: description,
      lengthInBytes: length,
    };
    this.canvas().items.push(el);
    this.bytesReceived += length;
  }

  error(message: string): void {
    this.errors.add(message);
  }

  /** Add a drawn (non-image) element. */
  draw(el: CanvasElement): void {
    if (this.overBudget(false, 0)) return;
    this.elementCount++;
    this.canvas().items.push(el);
    this.drawnOnCurrent++;
    this.lastImage = null;
  }

  /** Add an image element for `bitmap` at (x, y) on the current canvas. */
  image(bitmap: Bitmap, x: number, y: number, src: Source, opts: { mergeable?: boolean; rotation?: Rotation } = {}): void {
    if (this.overBudget(false, 0)) return;
    const mergeable = opts.mergeable === true;
    const last = this.lastImage;
    if (
      mergeable && last && last.mergeable && last.element.x === x && last.element.width === bitmap.width &&
      last.element.y + last.element.height === y
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
    this.canvas().items.push(element);
    this.elementCount++;
    this.drawnOnCurrent++;
    const pending: PendingImage = { element, parts: [bitmap], mergeable };
    this.images.push(pending);
    this.lastImage = pending;
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
    const c = this.canvas();
    c.heightInDots = this.y;
    this.current = null;
    this.lastImage = null;
  }

  finish(): RenderedJob {
    if (this.elided) {
      const { commands, dropped, element } = this.elided;
      this.errors.setLead(
        `The job produced more than ${this.maxElements} elements; the remaining ${element.lengthInBytes} bytes (${commands} commands, ${dropped} drawn elements) were processed for status replies and drawer commands but are summarised, not drawn`,
      );
    }
    if (this.current) this.current.heightInDots = this.y;
    // Bytes after the last cut that drew nothing (status queries, ESC @, a trailing line
    // feed) belong with the receipt they followed rather than a blank canvas of their own.
    if (this.current && this.canvases.length > 1 && this.drawnOnCurrent === 0) {
      const prev = this.canvases[this.canvases.length - 2];
      prev.items.push(...this.current.items);
      this.canvases.pop();
    }
    this.current = null;
    if (this.canvases.length === 0) this.canvases.push({ widthInDots: this.widthInDots, heightInDots: 0, items: [] });
    for (const img of this.images) {
      let bmp = img.parts[0];
      if (img.parts.length > 1) {
        const h = img.parts.reduce((s, p) => s + p.height, 0);
        bmp = new Bitmap(img.element.width, h);
        let off = 0;
        for (const p of img.parts) {
          bmp.pixels.set(p.pixels, off);
          off += p.pixels.length;
        }
      }
      img.element.image = encodeBitmapPng(bmp);
    }
    return { canvases: this.canvases, errorMessages: this.errors.messages(), bytesReceived: this.bytesReceived };
  }
}
