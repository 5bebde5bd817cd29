/**
 * What the renderer reads. Structural subsets of the canvas model (src/engines/canvas/model.ts)
 * so that both an engine's `RenderedJob.canvases` and a stored `RenderedDocumentDto`'s canvases
 * (whose images are media references) can be passed as they are.
 */
import type { Bitmap } from '../raster/bitmap.ts';

export type RotationName = 'none' | '90' | '180' | '270';

export interface RenderTextElement {
  type: 'text';
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontName: string;
  charSpacing: number;
  isBold: boolean;
  isUnderline: boolean;
  isReverse: boolean;
  charScaleX: number;
  charScaleY: number;
  rotation: RotationName;
  isItalic?: boolean;
  isUpsideDown?: boolean;
  isDoubleStrike?: boolean;
  underlineThickness?: number;
}

export interface RenderImageElement {
  type: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: RotationName;
  /** Engine output: the PNG itself. */
  image?: { png: Uint8Array };
  /** Stored documents: a media reference the caller's resolver turns into pixels. */
  media?: { url: string; storageKey: string; contentType?: string; size?: number };
}

export interface RenderLineElement {
  type: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  thickness: number;
}

export interface RenderBoxElement {
  type: 'box';
  x: number;
  y: number;
  width: number;
  height: number;
  thickness: number;
  isFilled: boolean;
  drawMode?: 'black' | 'white' | 'xor';
}

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
