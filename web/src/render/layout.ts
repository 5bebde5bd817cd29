/**
 * Canvas-to-page layout: a pure function from a document canvas (printer dots) to positioned
 * boxes and their CSS declarations. 1 dot = 1 CSS pixel; the paper is scaled to fit as a whole
 * elsewhere. No DOM access here, so it runs (and is tested) in plain Node.
 *
 * Geometry conventions (canvas model, src/engines/canvas/model.ts):
 * - `x`, `y`, `width`, `height` of text and image elements are the element's bounding box on
 *   the paper. For rotations of 90 and 270 degrees the run of text (or the image's own width)
 *   lies along the box's height.
 * - Text: the character cell height (before vertical scaling) is `height / charScaleY`; that is
 *   the CSS font size. `charSpacing` (dots on paper, already multiplied by `charScaleX` as the
 *   engines emit it) becomes letter-spacing of `charSpacing / charScaleX` in the unscaled font
 *   space, so that it measures `charSpacing` on the paper again. The horizontal scale is
 *   chosen so the run covers exactly the element's width, whatever the advance of the local
 *   monospace face (`monoAdvance`, em units; measured in the browser, 0.6 by default).
 * - Lines: axis-aligned lines become rectangles starting at (x1, y1) growing right/down by their
 *   thickness; other lines become a rotated bar from (x1, y1) to (x2, y2).
 */
import type { ApiCanvasElement, CanvasDto, Rotation } from '../types.ts';
import type { DrawMode } from '../../../src/engines/canvas/model.ts';

export interface LayoutOptions {
  /** Advance width of one character of the monospace face, in em. */
  monoAdvance?: number;
  /** Height (dots) given to a canvas that has no height and no content. */
  minHeight?: number;
  /** Render as a label (EPL) rather than a receipt; default: when the canvas has a height. */
  isLabel?: boolean;
}

export type Degrees = 0 | 90 | 180 | 270;

interface BoxBase {
  /** Bounding box on the paper, CSS pixels (= dots). */
  left: number;
  top: number;
  width: number;
  height: number;
  /** Index of the source element in `canvas.items`. */
  index: number;
}

export interface TextBox extends BoxBase {
  kind: 'text';
  text: string;
  fontSize: number;
  letterSpacing: number;
  scaleX: number;
  scaleY: number;
  rotation: Degrees;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  underlineThickness: number;
  reverse: boolean;
  /** How the dots act on what is under them (ZPL ^FR: xor). */
  mode: DrawMode;
  /** The run flipped end to end before it is turned (ZPL ^PM). */
  mirrored: boolean;
  /** The element's dots as a PNG data URL (glyphs.ts), drawn in ink over the paper; the text itself is then transparent. */
  glyphMask?: string;
}

export interface ImageBox extends BoxBase {
  kind: 'image';
  src: string;
  rotation: Degrees;
  /** Black: the image as it is; white / xor: its black dots erase / flip what is under them. */
  mode: DrawMode;
}

export interface RectBox extends BoxBase {
  kind: 'rect';
  /** 0 for a filled rectangle, otherwise the border thickness. */
  border: number;
  mode: DrawMode;
}


export interface BarBox extends BoxBase {
  kind: 'bar';
  /** Bar from (left, top) of `length` along `angle` degrees (clockwise from +x). */
  length: number;
  thickness: number;
  angle: number;
}

export type PaperBox = TextBox | ImageBox | RectBox | BarBox;

export interface CanvasLayout {
  width: number;
  height: number;
  /** True when the canvas has a fixed height (a label), false for continuous paper. */
  isLabel: boolean;
  boxes: PaperBox[];
}

const INK = 'var(--ink)';
const PAPER = 'var(--paper)';

/**
 * The colour and blending that draw dots in `mode`: ink; paper (erase); or white blended by
 * difference, which turns what is under it into its opposite (xor).
 */
export function modeColour(mode: DrawMode): { colour: string; blend?: string } {
  if (mode === 'white') return { colour: PAPER };
  if (mode === 'xor') return { colour: '#ffffff', blend: 'difference' };
  return { colour: INK };
}

/** Nominal cell width (dots) of the printer fonts, used when an element has no width. */
const FONT_CELL_WIDTH: Record<string, number> = {
  FontA: 12, FontB: 9, FontC: 9,
  EplFont1: 10, EplFont2: 12, EplFont3: 14, EplFont4: 16, EplFont5: 36,
};

export function toDegrees(rotation: Rotation | string | number | undefined | null): Degrees {
  switch (String(rotation ?? 'none')) {
    case '90': return 90;
    case '180': return 180;
    case '270': return 270;
    default: return 0;
  }
}

function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Length of a string in characters (code points), as the printer counts them. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function layoutElement(el: ApiCanvasElement, index: number, advance: number): PaperBox | null {
  switch (el.type) {
    case 'text': {
      const rotation = toDegrees(el.rotation);
      const upside = el.isUpsideDown === true;
      // isUpsideDown (ESC {) comes with rotation '180' from the engines: one half turn, not two.
      const effective: Degrees = rotation === 0 && upside ? 180 : rotation;
      const left = num(el.x), top = num(el.y);
      const width = Math.max(0, num(el.width)), height = Math.max(0, num(el.height));
      const sideways = rotation === 90 || rotation === 270;
      const runWidth = sideways ? height : width;
      const runHeight = sideways ? width : height;
      const scaleY = num(el.charScaleY, 1) > 0 ? num(el.charScaleY, 1) : 1;
      const scaleXNominal = num(el.charScaleX, 1) > 0 ? num(el.charScaleX, 1) : 1;
      const fontSize = runHeight > 0 ? runHeight / scaleY : 24;
      const letterSpacing = Math.max(0, num(el.charSpacing)) / scaleXNominal;
      const n = charCount(el.text ?? '');
      const naturalAdvance = fontSize * advance + letterSpacing;
      let scaleX: number;
      if (n > 0 && runWidth > 0 && naturalAdvance > 0) {
        scaleX = runWidth / (n * naturalAdvance);
      } else {
        const cell = FONT_CELL_WIDTH[el.fontName] ?? fontSize / 2;
        scaleX = naturalAdvance > 0 ? (scaleXNominal * (cell + letterSpacing)) / naturalAdvance : scaleXNominal;
      }
      return {
        kind: 'text', index, left, top, width, height,
        text: el.text ?? '',
        fontSize: round(fontSize),
        letterSpacing: round(letterSpacing),
        scaleX: round(scaleX),
        scaleY: round(scaleY),
        rotation: effective,
        bold: el.isBold === true || el.isDoubleStrike === true,
        italic: el.isItalic === true,
        underline: el.isUnderline === true,
        underlineThickness: el.isUnderline ? Math.max(1, num(el.underlineThickness, 1)) : 0,
        reverse: el.isReverse === true,
        mode: el.drawMode ?? 'black',
        mirrored: el.isMirrored === true,
      };
    }
    case 'image': {
      const src = el.media?.url ?? '';
      return {
        kind: 'image', index, src,
        left: num(el.x), top: num(el.y),
        width: Math.max(0, num(el.width)), height: Math.max(0, num(el.height)),
        rotation: toDegrees(el.rotation),
        mode: el.drawMode ?? 'black',
      };
    }
    case 'line': {
      const x1 = num(el.x1), y1 = num(el.y1), x2 = num(el.x2), y2 = num(el.y2);
      const t = Math.max(1, num(el.thickness, 1));
      if (y1 === y2) {
        return { kind: 'rect', index, left: Math.min(x1, x2), top: y1, width: Math.max(Math.abs(x2 - x1), t), height: t, border: 0, mode: 'black' };
      }
      if (x1 === x2) {
        return { kind: 'rect', index, left: x1, top: Math.min(y1, y2), width: t, height: Math.max(Math.abs(y2 - y1), t), border: 0, mode: 'black' };
      }
      const dx = x2 - x1, dy = y2 - y1;
      const length = Math.hypot(dx, dy);
      const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
      return {
        kind: 'bar', index, left: x1, top: y1, length: round(length), thickness: t, angle: round(angle),
        width: Math.abs(dx), height: Math.abs(dy),
      };
    }
    case 'box': {
      const width = Math.max(0, num(el.width)), height = Math.max(0, num(el.height));
      const thickness = Math.max(1, num(el.thickness, 1));
      const filled = el.isFilled === true || thickness * 2 >= Math.min(width, height);
      return {
        kind: 'rect', index, left: num(el.x), top: num(el.y), width, height,
        border: filled ? 0 : thickness,
        mode: el.drawMode ?? 'black',
      };
    }
    default:
      return null;
  }
}

/** Bottom edge (dots) of a box on the paper. */
function bottomOf(box: PaperBox): number {
  if (box.kind === 'bar') {
    const rad = (box.angle * Math.PI) / 180;
    return Math.max(box.top, box.top + Math.sin(rad) * box.length) + box.thickness;
  }
  return box.top + box.height;
}

export function layoutCanvas(canvas: CanvasDto, options: LayoutOptions = {}): CanvasLayout {
  const advance = options.monoAdvance ?? 0.6;
  const boxes: PaperBox[] = [];
  const items = canvas.items ?? [];
  for (let i = 0; i < items.length; i++) {
    const box = layoutElement(items[i], i, advance);
    if (box) boxes.push(box);
  }
  const width = Math.max(1, num(canvas.widthInDots, 576));
  const fixed = typeof canvas.heightInDots === 'number' && canvas.heightInDots > 0;
  let height: number;
  if (fixed) {
    height = canvas.heightInDots as number;
  } else {
    height = 0;
    for (const b of boxes) height = Math.max(height, bottomOf(b));
    height = Math.max(Math.ceil(height), options.minHeight ?? 24);
  }
  return { width, height, isLabel: options.isLabel ?? fixed, boxes };
}

/** Transform placing a run of `runWidth` x `runHeight` into its rotated bounding box. */
function rotationTransform(rotation: Degrees, boxWidth: number, boxHeight: number): string {
  switch (rotation) {
    case 90: return `translate(${boxWidth}px,0px) rotate(90deg)`;
    case 180: return `translate(${boxWidth}px,${boxHeight}px) rotate(180deg)`;
    case 270: return `translate(0px,${boxHeight}px) rotate(270deg)`;
    default: return '';
  }
}

/**
 * CSS declarations for a box, as property -> value (kebab-case). Text boxes are sized in the
 * unscaled font space and scaled into the bounding box with `transform`.
 */
export function boxStyle(box: PaperBox): Record<string, string> {
  const s: Record<string, string> = {
    position: 'absolute',
    left: `${box.left}px`,
    top: `${box.top}px`,
  };
  switch (box.kind) {
    case 'text': {
      const sideways = box.rotation === 90 || box.rotation === 270;
      const runWidth = sideways ? box.height : box.width;
      const rot = rotationTransform(box.rotation, box.width, box.height);
      s.width = `${round(runWidth / box.scaleX)}px`;
      s.height = `${box.fontSize}px`;
      s['font-size'] = `${box.fontSize}px`;
      s['line-height'] = `${box.fontSize}px`;
      if (box.letterSpacing) s['letter-spacing'] = `${box.letterSpacing}px`;
      s['transform-origin'] = '0 0';
      // A mirrored run is flipped inside its own unscaled box first (rightmost transform applies first).
      const flip = box.mirrored ? ` translate(${round(runWidth / box.scaleX)}px,0px) scale(-1,1)` : '';
      s.transform = `${rot ? rot + ' ' : ''}scale(${box.scaleX},${box.scaleY})${flip}`;
      s['font-weight'] = box.bold ? '700' : '400';
      if (box.italic) s['font-style'] = 'italic';
      if (box.underline) {
        s['text-decoration'] = 'underline';
        s['text-decoration-thickness'] = `${box.underlineThickness}px`;
      }
      const ink = modeColour(box.mode);
      s.color = box.reverse ? PAPER : ink.colour;
      if (box.reverse) s.background = INK;
      if (ink.blend) s['mix-blend-mode'] = ink.blend;
      return s;
    }
    case 'image': {
      const sideways = box.rotation === 90 || box.rotation === 270;
      s.width = `${sideways ? box.height : box.width}px`;
      s.height = `${sideways ? box.width : box.height}px`;
      const rot = rotationTransform(box.rotation, box.width, box.height);
      if (rot) {
        s['transform-origin'] = '0 0';
        s.transform = rot;
      }
      if (box.mode !== 'black') {
        // The image's black (opaque) dots as a mask over a layer in the mode's colour.
        const { colour, blend } = modeColour(box.mode);
        const url = box.src.replace(/["'()\\\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
        const m = `url("${url}") 0 0 / 100% 100% no-repeat`;
        s.background = colour;
        s['-webkit-mask'] = m;
        s.mask = m;
        if (blend) s['mix-blend-mode'] = blend;
      }
      return s;
    }
    case 'rect': {
      s.width = `${box.width}px`;
      s.height = `${box.height}px`;
      const { colour, blend } = modeColour(box.mode);
      if (box.border > 0) {
        s.border = `${box.border}px solid ${colour}`;
        s['box-sizing'] = 'border-box';
      } else {
        s.background = colour;
      }
      if (blend) s['mix-blend-mode'] = blend;
      return s;
    }
    case 'bar': {
      s.width = `${box.length}px`;
      s.height = `${box.thickness}px`;
      s.background = INK;
      s['transform-origin'] = '0 0';
      s.transform = `rotate(${box.angle}deg)`;
      return s;
    }
  }
}

/** `boxStyle` as a `style` attribute value. */
export function boxCss(box: PaperBox): string {
  const s = boxStyle(box);
  let out = '';
  for (const k in s) out += `${k}:${s[k]};`;
  return out;
}

/** Hex as pairs separated by spaces: "1B40" -> "1B 40". */
export function spacedHex(raw: string | undefined | null): string {
  const clean = (raw ?? '').replace(/\s+/g, '').toUpperCase();
  const parts: string[] = [];
  for (let i = 0; i < clean.length; i += 2) parts.push(clean.slice(i, i + 2));
  return parts.join(' ');
}
