/**
 * Document renderer: canvases (engine output or stored `RenderedDocumentDto` canvases) to the
 * printout as PNG, PDF or text. Pure TypeScript: runs in the Worker, Node and the browser.
 *
 * ```ts
 * import { renderPng, renderPdf, renderText } from '../engines/render/index.ts';
 * const { png } = await renderPng(doc.canvases, { resolveImage: (el) => mediaBytes(el.media!.storageKey) });
 * const { pdf } = await renderPdf(doc.canvases, { dpi: 203, resolveImage });
 * const text = renderText(doc.canvases);
 * ```
 *
 * - PNG: 1 dot = 1 pixel, black on opaque white, canvases stacked top to bottom with a
 *   `TEAR_OFF_GAP_DOTS` white gap (as wide as the widest canvas), or only `canvasIndex`.
 * - PDF: one page per canvas at its physical size (`dpi`, default 203).
 * - Text: see text-output.ts.
 * Image elements carrying `image.png` are drawn from it; others (stored documents: `media`) are
 * asked of `resolveImage`; those that yield nothing are left blank and counted in `missingImages`.
 *
 * For the HTTP routes (`?format=png|pdf|text`): pass the stored document's `canvases` as they
 * are; resolve media from storage by `element.media.storageKey`; `?canvas=N` is `canvasIndex`
 * (a `CanvasIndexError` is the caller's 400/404); `dpi` is the printer model's. Content types:
 * `image/png`, `application/pdf`, `text/plain; charset=utf-8`. Renders are bounded
 * (`MAX_PAGE_DOTS`); `isTruncated` says canvases were left out. Nothing here throws on
 * malformed elements: they are clipped or skipped.
 */
import { PackedRaster } from './raster.ts';
import { canvasHeight, canvasWidth, rasterizeCanvas, resolveImages, MAX_PAGE_DOTS } from './rasterize.ts';
import { encodePagePng } from './png-output.ts';
import { DEFAULT_DPI, encodePagesPdf } from './pdf-output.ts';
import { documentText } from './text-output.ts';
import type { ImageResolver, RenderCanvas } from './types.ts';

export const TEAR_OFF_GAP_DOTS = 24;

export interface RenderOptions {
  /** Supplies pixels for image elements that carry a media reference instead of their PNG. */
  resolveImage?: ImageResolver;
}

export interface PngRenderOptions extends RenderOptions {
  /** 0-based index of the only canvas to draw; all canvases when absent. */
  canvasIndex?: number;
}

export interface PdfRenderOptions extends RenderOptions {
  /** Printer resolution in dots per inch; the model's, 203 when unknown. */
  dpi?: number;
}

export interface PngRendering {
  png: Uint8Array;
  widthInDots: number;
  heightInDots: number;
  missingImages: number;
  /** True when canvases past the dot budget (MAX_PAGE_DOTS) were left out. */
  isTruncated: boolean;
}

export interface PdfRendering {
  pdf: Uint8Array;
  pageCount: number;
  missingImages: number;
  /** True when canvases past the dot budget (MAX_PAGE_DOTS) were left out. */
  isTruncated: boolean;
}

export class CanvasIndexError extends RangeError {
  constructor(index: number, count: number) {
    super(`canvas ${index} does not exist: the document has ${count} canvas${count === 1 ? '' : 'es'} (0-based)`);
    this.name = 'CanvasIndexError';
  }
}

/**
 * The canvases that fit in one render's dot budget (MAX_PAGE_DOTS in all), in order; the rest
 * are left out and reported as `isTruncated` so a hostile document cannot exhaust memory.
 */
function withinBudget(canvases: readonly RenderCanvas[], gap: number): { fitting: RenderCanvas[]; isTruncated: boolean } {
  const fitting: RenderCanvas[] = [];
  let used = 0;
  for (const c of canvases) {
    const dots = canvasWidth(c) * (canvasHeight(c) + gap);
    if (fitting.length > 0 && used + dots > MAX_PAGE_DOTS) return { fitting, isTruncated: true };
    fitting.push(c);
    used += dots;
  }
  return { fitting, isTruncated: false };
}

/** The pixels of the printout (all canvases stacked, or one), before encoding. */
export async function renderRaster(canvases: readonly RenderCanvas[], options: PngRenderOptions = {}): Promise<{ page: PackedRaster; missingImages: number; isTruncated: boolean }> {
  const { canvasIndex } = options;
  if (canvasIndex !== undefined && (!Number.isInteger(canvasIndex) || canvasIndex < 0 || canvasIndex >= canvases.length)) {
    throw new CanvasIndexError(canvasIndex, canvases.length);
  }
  const { fitting: chosen, isTruncated } = withinBudget(canvasIndex === undefined ? canvases : [canvases[canvasIndex]], TEAR_OFF_GAP_DOTS);
  const images = await resolveImages(chosen, options.resolveImage);
  if (chosen.length === 0) return { page: new PackedRaster(1, 1), missingImages: 0, isTruncated };
  if (chosen.length === 1) return { ...rasterizeCanvas(chosen[0], images), isTruncated };
  // Each canvas is drawn on its own page first, so whatever it prints past its own edges is
  // cut there and never lands in the gap or on its neighbour.
  const parts = chosen.map((c) => rasterizeCanvas(c, images));
  const width = Math.max(1, ...parts.map((p) => p.page.width));
  const total = parts.reduce((a, p) => a + p.page.height, 0) + TEAR_OFF_GAP_DOTS * (parts.length - 1);
  const page = new PackedRaster(width, Math.max(1, Math.min(total, Math.floor(MAX_PAGE_DOTS / width))));
  let y = 0, missingImages = 0;
  for (const part of parts) {
    page.copyRowsFrom(part.page, y);
    missingImages += part.missingImages;
    y += part.page.height + TEAR_OFF_GAP_DOTS;
  }
  return { page, missingImages, isTruncated };
}

export async function renderPng(canvases: readonly RenderCanvas[], options: PngRenderOptions = {}): Promise<PngRendering> {
  const { page, missingImages, isTruncated } = await renderRaster(canvases, options);
  return { png: await encodePagePng(page), widthInDots: page.width, heightInDots: page.height, missingImages, isTruncated };
}

export async function renderPdf(canvases: readonly RenderCanvas[], options: PdfRenderOptions = {}): Promise<PdfRendering> {
  const dpi = options.dpi !== undefined && Number.isFinite(options.dpi) && options.dpi > 0 ? options.dpi : DEFAULT_DPI;
  const { fitting, isTruncated } = withinBudget(canvases, 0);
  const images = await resolveImages(fitting, options.resolveImage);
  let missingImages = 0;
  const pages = fitting.map((c) => {
    const r = rasterizeCanvas(c, images);
    missingImages += r.missingImages;
    return r.page;
  });
  if (pages.length === 0) pages.push(new PackedRaster(1, 1));
  return { pdf: await encodePagesPdf(pages, dpi), pageCount: pages.length, missingImages, isTruncated };
}

export function renderText(canvases: readonly RenderCanvas[]): string {
  return documentText(canvases);
}

export { PackedRaster } from './raster.ts';
export { encodePagePng, encodePagePngSync } from './png-output.ts';
export { DEFAULT_DPI, dotsToPoints } from './pdf-output.ts';
export { CANVAS_SEPARATOR, CanvasTextLines, joinCanvasTexts } from './text-output.ts';
export { drawTextElement } from './text-run.ts';
export { rasterizeCanvas, resolveImages, canvasHeight, canvasWidth, MAX_PAGE_DOTS, MAX_PAGE_WIDTH } from './rasterize.ts';
export type { ImageResolver, ImageSource, RenderCanvas, RenderElement, RenderImageElement, RenderTextElement } from './types.ts';
