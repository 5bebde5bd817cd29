/**
 * What the renderer reads. Structural subsets of the canvas model (src/engines/canvas/model.ts)
 * so that both an engine's `RenderedJob.canvases` and a stored `RenderedDocumentDto`'s canvases
 * (whose images are media references) can be passed as they are.
 */
import type { BoxElement, DrawMode, ElementSource, LineElement, Rotation, TextElement } from '../canvas/model.ts';
import type { Bitmap } from '../raster/bitmap.ts';

export type RotationName = Rotation;

/** A drawn element as the renderer reads it: the canvas model's, without its command source. */
type Drawn<E> = Omit<E, keyof ElementSource>;

export type RenderTextElement = Drawn<TextElement>;

export interface RenderImageElement {
  type: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: RotationName;
  /** How the image's black dots act on what is drawn before them; black when absent. */
  drawMode?: DrawMode;
  /** Engine output: the PNG itself. */
  image?: { png: Uint8Array };
  /** Stored documents: a media reference the caller's resolver turns into pixels. */
  media?: { url: string; storageKey: string; contentType?: string; size?: number };
}

export type RenderLineElement = Drawn<LineElement>;

export type RenderBoxElement = Drawn<BoxElement>;

/** Debug elements (unknown commands etc.) are never printed. */
export interface RenderDebugElement {
  type: 'debug';
}

export type RenderElement = RenderTextElement | RenderImageElement | RenderLineElement | RenderBoxElement | RenderDebugElement;

export interface RenderCanvas {
  widthInDots: number;
  /** Null or absent: continuous paper, as tall as its content. */
  heightInDots?: number | null;
  items: readonly RenderElement[];
}

/** Pixels of an image element: PNG bytes (any PNG; dark opaque pixels print) or a 1-bit Bitmap. */
export type ImageSource = Uint8Array | Bitmap;

/**
 * Supplies the pixels of image elements that do not carry their PNG (stored documents keep
 * images as media). Null (or a rejection) leaves the image out and counts it as missing.
 */
export type ImageResolver = (element: RenderImageElement) => Promise<ImageSource | null> | ImageSource | null;
