/**
 * The canvas model shared by every protocol engine (ESC/POS, EPL) and the web UI.
 *
 * Engines are pure: they never know about media URLs or storage. An image element carries
 * its PNG bytes; the storage layer (printer Durable Object) uploads them and turns the
 * element into the contract's `CanvasImageElementDto` with a `media` reference.
 * Coordinates and sizes are in printer dots, origin top-left of the canvas.
 */
import type { ElementKind } from './element-kinds.ts';

export type Rotation = 'none' | '90' | '180' | '270';

/** Fields every element carries (contract section 2, CanvasElementDto). */
export interface ElementSource {
  /** Uppercase hex of the bytes of the command that produced the element, no spaces. */
  commandRaw: string;
  /** Human-readable description lines, e.g. ["ESC E", "Bold on"]. */
  commandDescription: string[];
  /**
   * Bytes consumed. Only `debug` elements are counted in the byte-accounting invariant
   * (sum over debug elements == bytesReceived); drawn elements repeat their source's length
   * for information.
   */
  lengthInBytes: number;
}

export interface TextElement extends ElementSource {
  type: 'text';
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** e.g. "FontA" (12x24), "FontB" (9x17), "EplFont1".."EplFont5". */
  fontName: string;
  charSpacing: number;
  isBold: boolean;
  isUnderline: boolean;
  isReverse: boolean;
  charScaleX: number;
  charScaleY: number;
  rotation: Rotation;
  isItalic?: boolean;
  isUpsideDown?: boolean;
  isDoubleStrike?: boolean;
  /** Underline thickness in dots when underlined (ESC - 1 / 2). */
  underlineThickness?: number;
  /** How the glyph dots act on what is drawn before them (ZPL ^FR: xor); black when absent. */
  drawMode?: DrawMode;
  /**
   * The run is mirrored end to end in its own direction before `rotation` turns it (ZPL ^PM
   * mirrors a whole label: a left-right mirror on the paper is this with the turn reversed).
   */
  isMirrored?: boolean;
}

/**
 * How an element's dots act on the label drawn before it: black prints, white erases, xor
 * flips (EPL LW / LE, ZPL line colour W and ^FR / ^LR).
 */
export const DRAW_MODES = ['black', 'white', 'xor'] as const;
export type DrawMode = (typeof DRAW_MODES)[number];

/** A rendered raster: PNG bytes (1-bit, black opaque, white transparent). */
export interface PngImage {
  png: Uint8Array;
  widthInDots: number;
  heightInDots: number;
}

export interface ImageElement extends ElementSource {
  type: 'image';
  image: PngImage;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: Rotation;
  /** How the image's black dots act on what is drawn before them; black when absent. */
  drawMode?: DrawMode;
}

export interface LineElement extends ElementSource {
  type: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  thickness: number;
}

export interface BoxElement extends ElementSource {
  type: 'box';
  x: number;
  y: number;
  width: number;
  height: number;
  thickness: number;
  isFilled: boolean;
  /** EPL LW (white/erase) and LE (XOR) draw modes, ZPL W and ^FR; black when absent. */
  drawMode?: DrawMode;
}

export interface DebugElement extends ElementSource {
  type: 'debug';
  /** e.g. "command", "text", "unknown", "malformed", "truncated", "notPrinted". */
  debugType: string;
  parameters: Record<string, string>;
}

export type CanvasElement = TextElement | ImageElement | LineElement | BoxElement | DebugElement;

export interface Canvas {
  widthInDots: number;
  /** Null for continuous receipt paper; the renderer uses the content's extent. */
  heightInDots: number | null;
  items: CanvasElement[];
}

/** What an engine produces when a job ends. */
export interface RenderedJob {
  canvases: Canvas[];
  errorMessages: string[];
  /** Total bytes the engine consumed; equals the sum of debug `lengthInBytes`. */
  bytesReceived: number;
  /**
   * True when the job draws nothing and holds only status queries and settings: no text,
   * image, line, box, cut, pulse or label, and no error. Lists and streams leave such
   * documents out by default (a POS polls DLE EOT every few seconds).
   */
  isStatusPoll: boolean;
  /**
   * What the engine knows of its elements' keys, canvas by canvas and element by element
   * (element-kinds.ts), when it says: a document builder then need not ask each element.
   */
  elementKinds?: ElementKind[][];
}
