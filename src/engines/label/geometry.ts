/**
 * Label geometry shared by the label languages (EPL, ZPL): rotation of an object about its
 * start point, element bounds, clipping to the label, the 180-degree turn of a label printed
 * bottom first, the left-right mirror of a label printed mirrored (ZPL ^PM), and the layout
 * of one rendered label (content extent, clipping, mirror, turn).
 */
import type { CanvasElement, ElementSource, ImageElement, Rotation } from '../canvas/model.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { bitmapOf, decodePngToBitmap, pngOf } from '../raster/png.ts';
import type { DebugElement } from '../canvas/model.ts';
import type { RenderedLabel } from './job.ts';
import { inkOnPaper } from './ink-bounds.ts';

/** Quarter turns clockwise. */
export type Rot = 0 | 1 | 2 | 3;

/** Bounding box of a local w x h object rotated `rot` quarter turns clockwise about (x, y). */
export function rotatedBox(x: number, y: number, lx: number, ly: number, w: number, h: number, rot: Rot): { x: number; y: number; w: number; h: number } {
  switch (rot) {
    case 0:
      return { x: x + lx, y: y + ly, w, h };
    case 1: // (u, v) -> (x - v, y + u)
      return { x: x - ly - h, y: y + lx, w: h, h: w };
    case 2: // (u, v) -> (x - u, y - v)
      return { x: x - lx - w, y: y - ly - h, w, h };
    case 3: // (u, v) -> (x + v, y - u)
      return { x: x + ly, y: y - lx - w, w: h, h: w };
  }
}


/** Bounding box of an element on the canvas (for clipping and content extent). */
export function elementBounds(el: CanvasElement): { x: number; y: number; w: number; h: number } | null {
  switch (el.type) {
    case 'text':
    case 'image':
    case 'box':
      return { x: el.x, y: el.y, w: el.width, h: el.height };
    case 'line': {
      const t = el.thickness;
      return { x: Math.min(el.x1, el.x2), y: Math.min(el.y1, el.y2), w: Math.abs(el.x2 - el.x1) + t, h: Math.abs(el.y2 - el.y1) + t };
    }
    default:
      return null;
  }
}

const ROT180: Record<Rotation, Rotation> = { none: '180', '90': '270', '180': 'none', '270': '90' };

/** ZB: turn an element 180 degrees within a W x H label (in place). */
export function turn180(el: CanvasElement, W: number, H: number): void {
  switch (el.type) {
    case 'text':
    case 'image':
      el.x = W - el.x - el.width;
      el.y = H - el.y - el.height;
      el.rotation = ROT180[el.rotation];
      return;
    case 'box':
      el.x = W - el.x - el.width;
      el.y = H - el.y - el.height;
      return;
    case 'line':
      el.x1 = W - el.x1;
      el.y1 = H - el.y1;
      el.x2 = W - el.x2;
      el.y2 = H - el.y2;
      return;
  }
}

const MIRRORED_TURN: Record<Rotation, Rotation> = { none: 'none', '90': '270', '180': '180', '270': '90' };

/** Mirror images by source bitmap: label copies share one mirrored bitmap, hence one PNG. */
const mirroredBitmaps = new WeakMap<Bitmap, Bitmap>();

function mirroredImage(el: ImageElement): ImageElement['image'] {
  const src = bitmapOf(el.image) ?? decodePngToBitmap(el.image.png);
  let out = mirroredBitmaps.get(src);
  if (!out) mirroredBitmaps.set(src, (out = src.mirrorX()));
  return pngOf(out);
}

/**
 * ^PM: mirror an element left to right within a W-dot-wide label (in place). A mirror on the
 * paper of content turned by r is the content mirrored in its own coordinates and turned by
 * -r: images get their pixels mirrored, text is marked `isMirrored` (the renderer flips the
 * run), and the quarter turns 90 and 270 swap.
 */
export function mirrorX(el: CanvasElement, W: number): void {
  switch (el.type) {
    case 'text':
      el.x = W - el.x - el.width;
      el.rotation = MIRRORED_TURN[el.rotation];
      if (el.isMirrored) delete el.isMirrored;
      else el.isMirrored = true;
      return;
    case 'image':
      el.x = W - el.x - el.width;
      el.rotation = MIRRORED_TURN[el.rotation];
      el.image = mirroredImage(el);
      return;
    case 'box':
      el.x = W - el.x - el.width;
      return;
    case 'line':
      // A vertical line grows right from x by its thickness: its mirror starts a thickness left.
      if (el.x1 === el.x2) el.x1 = el.x2 = W - el.x1 - Math.max(1, el.thickness);
      else {
        el.x1 = W - el.x1;
        el.x2 = W - el.x2;
      }
      return;
  }
}

/**
 * Clip an element to the W x H label. Boxes and lines are cut to the label; images are
 * cropped (unrotated images only; rotated ones are kept whole); text is kept when any part of
 * it is on the label. Returns null when nothing of the element is on the label, and whether
 * it overflowed.
 */
export function clip(el: CanvasElement, W: number, H: number): { element: CanvasElement | null; overflowed: boolean } {
  const b = elementBounds(el);
  if (!b) return { element: el, overflowed: false };
  const inside = b.x >= 0 && b.y >= 0 && b.x + b.w <= W && b.y + b.h <= H;
  if (inside) return { element: el, overflowed: false };
  const visible = b.x < W && b.y < H && b.x + b.w > 0 && b.y + b.h > 0 && b.w > 0 && b.h > 0;
  if (!visible) return { element: null, overflowed: true };
  switch (el.type) {
    case 'box': {
      const x0 = Math.max(0, el.x), y0 = Math.max(0, el.y);
      const x1 = Math.min(W, el.x + el.width), y1 = Math.min(H, el.y + el.height);
      return { element: { ...el, x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, overflowed: true };
    }
    case 'image': {
      const src = decodeForCrop(el);
      // Only black dots beyond the label are cut; white padding past it is not reported.
      const ink = src ? inkOnPaper(el, src) : b;
      const inkCut = ink !== null && !(ink.x >= 0 && ink.y >= 0 && ink.x + ink.w <= W && ink.y + ink.h <= H);
      if (el.rotation !== 'none' || !src) return { element: el, overflowed: inkCut };
      const x0 = Math.max(0, el.x), y0 = Math.max(0, el.y);
      const x1 = Math.min(W, el.x + el.width), y1 = Math.min(H, el.y + el.height);
      const crop = new Bitmap(x1 - x0, y1 - y0);
      crop.blit(src, el.x - x0, el.y - y0, 'copy');
      return { element: { ...el, image: pngOf(crop), x: x0, y: y0, width: crop.width, height: crop.height }, overflowed: inkCut };
    }
    case 'line': {
      const c = (v: number, max: number): number => Math.max(0, Math.min(max, v));
      return { element: { ...el, x1: c(el.x1, W), y1: c(el.y1, H), x2: c(el.x2, W), y2: c(el.y2, H) }, overflowed: true };
    }
    default:
      return { element: el, overflowed: true };
  }
}

function decodeForCrop(el: ImageElement): Bitmap | undefined {
  return bitmapOf(el.image);
}

/** What a label language rendered for one command: its debug element and its elements. */
export interface CommandElements {
  debug: DebugElement;
  elements: CanvasElement[];
}

/**
 * Lay one rendering of a label out on a W x H label (H null: as tall as the content):
 * clip every element to the label (reporting overflow through `overflowed`), mirror it left
 * to right when it prints mirrored, and turn the label 180 degrees when it prints bottom
 * first (the two commute).
 */
export function layoutLabel(
  rendered: readonly CommandElements[],
  W: number,
  fixedH: number | null,
  bottomFirst: boolean,
  overflowed: (debug: DebugElement, entirelyOutside: boolean) => void,
  mirrored = false,
): RenderedLabel {
  let H = fixedH;
  if (H === null) {
    let extent = 0;
    for (const r of rendered) for (const el of r.elements) {
      const b = elementBounds(el);
      if (b) extent = Math.max(extent, b.y + b.h);
    }
    H = extent > 0 ? Math.ceil(extent) : null;
  }
  const byCommand: CommandElements[] = [];
  const flat: CanvasElement[] = [];
  for (const r of rendered) {
    const kept: CanvasElement[] = [];
    for (const el of r.elements) {
      const c = clip(el, W, H ?? Number.MAX_SAFE_INTEGER);
      if (c.overflowed) overflowed(r.debug, c.element === null);
      if (!c.element) continue;
      if (mirrored) mirrorX(c.element, W);
      if (bottomFirst && H !== null) turn180(c.element, W, H);
      kept.push(c.element);
      flat.push(c.element);
    }
    byCommand.push({ debug: r.debug, elements: kept });
  }
  return { byCommand, flat, widthInDots: W, heightInDots: H };
}

/** A drawn label element's source: the command's own debug record (its bytes, description, length). */
export function commandSource(src: { debug: ElementSource }): ElementSource {
  return { commandRaw: src.debug.commandRaw, commandDescription: src.debug.commandDescription, lengthInBytes: src.debug.lengthInBytes };
}
