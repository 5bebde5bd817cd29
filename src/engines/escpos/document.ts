import type { Canvas, CanvasElement, DebugElement, ImageElement, RenderedJob, Rotation } from '../canvas/model.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { encodeBitmapPng } from '../raster/png.ts';

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

const MAX_ERRORS = 200;
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
  private readonly errors: string[] = [];
  private droppedErrors = 0;
  private readonly images: PendingImage[] = [];
  private lastImage: PendingImage | null = null;
  bytesReceived = 0;

  constructor(readonly widthInDots: number) {}

  private canvas(): Canvas {
    if (!this.current) {
      this.current = { widthInDots: this.widthInDots, heightInDots: null, items: [] };
      this.canvases.push(this.current);
      this.drawnOnCurrent = 0;
      this.y = 0;
    }
    return this.current;
  }

  debug(debugType: string, raw: string, description: string[], length: number, parameters: Record<string, string> = NO_PARAMETERS): void {
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
    if (this.errors.length < MAX_ERRORS) this.errors.push(message);
    else this.droppedErrors++;
  }

  /** Add a drawn (non-image) element. */
  draw(el: CanvasElement): void {
    this.canvas().items.push(el);
    this.drawnOnCurrent++;
    this.lastImage = null;
  }

  /** Add an image element for `bitmap` at (x, y) on the current canvas. */
  image(bitmap: Bitmap, x: number, y: number, src: Source, opts: { mergeable?: boolean; rotation?: Rotation } = {}): void {
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
    const c = this.canvas();
    c.heightInDots = this.y;
    this.current = null;
    this.lastImage = null;
  }

  finish(): RenderedJob {
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
    const errorMessages = [...this.errors];
    if (this.droppedErrors > 0) errorMessages.push(`${this.droppedErrors} more errors not listed`);
    return { canvases: this.canvases, errorMessages, bytesReceived: this.bytesReceived };
  }
}
