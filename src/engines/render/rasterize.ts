/**
 * Canvas -> 1-bit page: the print head's picture, 1 dot = 1 pixel. Elements are drawn in
 * document order, so later boxes, images and text in white or XOR mode act on what is already
 * there (EPL LW/LE, ZPL ^FR / ^LR and white graphics).
 */
import { blitPacked, PackedRaster } from './raster.ts';
import { rotatePacked, toPackedImage } from './image-source.ts';
import { drawTextElement } from './text-run.ts';
import type { ImageResolver, RenderBoxElement, RenderCanvas, RenderElement, RenderImageElement, RenderLineElement } from './types.ts';

/**
 * Largest page drawn; beyond it the page is cut, so a hostile canvas cannot exhaust memory.
 * 8192 dots is wider than any printer (8 in at 600 dpi = 4800); 64 Mdots (8 MB packed) is
 * a 576-dot receipt 116,000 dots (14 m) long.
 */
export const MAX_PAGE_WIDTH = 8192;
export const MAX_PAGE_DOTS = 64 * 1024 * 1024;

/** Image pixels per element, fetched before drawing (drawing itself is synchronous). */
export type ResolvedImages = Map<RenderImageElement, PackedRaster>;

function finite(v: unknown, fallback = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function rotationDegrees(r: string | undefined): 0 | 90 | 180 | 270 {
  return r === '90' ? 90 : r === '180' ? 180 : r === '270' ? 270 : 0;
}

/** Bottom edge of a printed element, for continuous paper's height. */
function bottomOf(el: RenderElement): number {
  switch (el.type) {
    case 'text': case 'image': case 'box': return finite(el.y) + Math.max(0, finite(el.height));
    case 'line': return Math.max(finite(el.y1), finite(el.y2)) + Math.max(1, finite(el.thickness, 1));
    default: return 0;
  }
}

/** The canvas's height on paper: its fixed height, else the extent of what was printed. */
export function canvasHeight(canvas: RenderCanvas): number {
  const fixed = canvas.heightInDots;
  const limit = Math.floor(MAX_PAGE_DOTS / canvasWidth(canvas));
  if (typeof fixed === 'number' && fixed > 0) return Math.min(limit, Math.round(fixed));
  let h = 0;
  for (const el of canvas.items) h = Math.max(h, bottomOf(el));
  return Math.min(limit, Math.max(1, Math.ceil(h)));
}

export function canvasWidth(canvas: RenderCanvas): number {
  return Math.min(MAX_PAGE_WIDTH, Math.max(1, Math.round(finite(canvas.widthInDots, 1))));
}

function drawLine(page: PackedRaster, el: RenderLineElement, offsetY: number): void {
  const x1 = Math.round(finite(el.x1)), y1 = Math.round(finite(el.y1)) + offsetY;
  const x2 = Math.round(finite(el.x2)), y2 = Math.round(finite(el.y2)) + offsetY;
  const t = Math.max(1, Math.round(finite(el.thickness, 1)));
  if (y1 === y2) { page.fillRect(Math.min(x1, x2), y1, Math.max(Math.abs(x2 - x1), t), t); return; }
  if (x1 === x2) { page.fillRect(x1, Math.min(y1, y2), t, Math.max(Math.abs(y2 - y1), t)); return; }
  // Diagonal: a run of t dots across the minor axis at every step of the major axis.
  const dx = x2 - x1, dy = y2 - y1;
  const steps = Math.min(2 * MAX_PAGE_WIDTH, Math.max(Math.abs(dx), Math.abs(dy)));
  const mostlyHorizontal = Math.abs(dx) >= Math.abs(dy);
  for (let i = 0; i <= steps; i++) {
    const x = Math.round(x1 + (dx * i) / steps), y = Math.round(y1 + (dy * i) / steps);
    if (mostlyHorizontal) page.fillRect(x, y, 1, t); else page.fillRect(x, y, t, 1);
  }
}

function drawBox(page: PackedRaster, el: RenderBoxElement, offsetY: number): void {
  const x = Math.round(finite(el.x)), y = Math.round(finite(el.y)) + offsetY;
  const w = Math.max(0, Math.round(finite(el.width))), h = Math.max(0, Math.round(finite(el.height)));
  const t = Math.max(1, Math.round(finite(el.thickness, 1)));
  const mode = el.drawMode ?? 'black';
  if (el.isFilled || 2 * t >= Math.min(w, h)) { page.fillRect(x, y, w, h, mode); return; }
  // Four bands that never overlap, so XOR mode flips each dot once.
  page.fillRect(x, y, w, t, mode);
  page.fillRect(x, y + h - t, w, t, mode);
  page.fillRect(x, y + t, t, h - 2 * t, mode);
  page.fillRect(x + w - t, y + t, t, h - 2 * t, mode);
}

function drawImage(page: PackedRaster, el: RenderImageElement, image: PackedRaster, offsetY: number): void {
  const x = Math.round(finite(el.x)), y = Math.round(finite(el.y)) + offsetY;
  if (!(x < page.width && y < page.height)) return;
  const mode = el.drawMode === 'white' || el.drawMode === 'xor' ? el.drawMode : 'black';
  blitPacked(page, rotatePacked(image, rotationDegrees(el.rotation)), x, y, mode);
}

/** Draw `canvas` onto `page` with its top at row `offsetY`. Returns how many images had no pixels. */
export function drawCanvas(page: PackedRaster, canvas: RenderCanvas, images: ResolvedImages, offsetY = 0): number {
  let missing = 0;
  for (const el of canvas.items) {
    switch (el.type) {
      case 'text': drawTextElement(page, el, offsetY); break;
      case 'line': drawLine(page, el, offsetY); break;
      case 'box': drawBox(page, el, offsetY); break;
      case 'image': {
        const bmp = images.get(el);
        if (bmp) drawImage(page, el, bmp, offsetY); else missing++;
        break;
      }
      default: break;
    }
  }
  return missing;
}

/**
 * Fetch the pixels of every image element of `canvases`: the PNG it carries (engine output) or
 * what `resolve` returns for it (stored documents). Undecodable or unresolved images are left out.
 */
export async function resolveImages(canvases: readonly RenderCanvas[], resolve?: ImageResolver): Promise<ResolvedImages> {
  const out: ResolvedImages = new Map();
  const jobs: Promise<void>[] = [];
  for (const canvas of canvases) {
    for (const el of canvas.items) {
      if (el.type !== 'image') continue;
      jobs.push((async () => {
        try {
          const source = el.image?.png ?? (resolve ? await resolve(el) : null);
          if (source) out.set(el, toPackedImage(source));
        } catch {
          // Counted as missing when drawn.
        }
      })());
    }
  }
  await Promise.all(jobs);
  return out;
}

/** One canvas as its own page. */
export function rasterizeCanvas(canvas: RenderCanvas, images: ResolvedImages): { page: PackedRaster; missingImages: number } {
  const page = new PackedRaster(canvasWidth(canvas), canvasHeight(canvas));
  const missingImages = drawCanvas(page, canvas, images);
  return { page, missingImages };
}
