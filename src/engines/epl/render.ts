/**
 * Turns the image buffer (drawing operations) into canvas elements for one printed label copy:
 * text, box, line and image elements in label dots, with the reference point (R), the label
 * size (q, Q) and the print direction (ZB turns everything 180 degrees) applied, and objects
 * that overflow the label clipped and reported.
 *
 * Geometry (shared with the web UI, see web/src/render/layout.ts): x, y, width, height of text
 * and image elements are the bounding box on the paper; `rotation` is the clockwise rotation
 * of the glyphs / of the (unrotated) PNG inside that box. EPL rotates an object about its
 * start point (p1, p2): the start point is the top-left corner of the first character / of
 * the symbol in the object's own orientation.
 */
import type { BoxElement, CanvasElement, ImageElement, LineElement, Rotation, TextElement } from '../canvas/model.ts';
import { Bitmap } from '../raster/bitmap.ts';
import type { PngImage } from '../canvas/model.ts';
import { pngOf } from '../raster/png.ts';
import { commandSource, rotatedBox } from '../label/geometry.ts';
import { EPL_FONTS, type EplFont } from './fonts.ts';
import type { Op, OpSource, Rot } from './state.ts';
import { render2D, renderLinear } from './symbols.ts';
import { humanReadableBelow } from '../raster/symbols.ts';

const ROTATIONS: Rotation[] = ['none', '90', '180', '270'];

export interface RenderEnv {
  /** Expand a DATA field (variables, counters, time, date) and decode it to text. */
  expand(op: { data: import('./params.ts').DataPart[] }): string;
  /** Decode raw bytes-as-chars to text through the active code page. */
  decode(s: string): string;
  /** Stored graphics by name (GG). */
  graphic(name: string): Bitmap | undefined;
  refX: number;
  refY: number;
}

export interface RenderedOp {
  op: Op;
  elements: CanvasElement[];
}

export interface RenderOutput {
  ops: RenderedOp[];
  errors: Array<{ src: OpSource; message: string; code: string }>;
}


function textElement(src: OpSource, text: string, font: EplFont, hMult: number, vMult: number, reverse: boolean, box: { x: number; y: number; w: number; h: number }, rot: Rot): TextElement {
  return {
    type: 'text',
    ...commandSource(src),
    text,
    x: box.x,
    y: box.y,
    width: box.w,
    height: box.h,
    fontName: font.name,
    charSpacing: (font.pitch - font.cellWidth) * hMult,
    isBold: false,
    isUnderline: false,
    isReverse: reverse,
    charScaleX: hMult,
    charScaleY: vMult,
    rotation: ROTATIONS[rot],
  };
}

function imageElement(src: OpSource, png: PngImage, box: { x: number; y: number; w: number; h: number }, rot: Rot): ImageElement {
  return { type: 'image', ...commandSource(src), image: png, x: box.x, y: box.y, width: box.w, height: box.h, rotation: ROTATIONS[rot] };
}

/** Human-readable font for a bar code of narrow bar width `narrow` dots. */
function hrFont(narrow: number): EplFont {
  return EPL_FONTS[narrow <= 1 ? 1 : narrow === 2 ? 2 : narrow === 3 ? 3 : 4];
}

export function renderOps(ops: readonly Op[], env: RenderEnv): RenderOutput {
  const out: RenderOutput = { ops: [], errors: [] };
  const rx = env.refX, ry = env.refY;
  for (const op of ops) {
    const elements: CanvasElement[] = [];
    try {
      renderOp(op, env, rx, ry, elements, out);
    } catch (e) {
      out.errors.push({ src: op.src, message: `could not render: ${e instanceof Error ? e.message : String(e)}`, code: '01' });
    }
    out.ops.push({ op, elements });
  }
  return out;
}

function renderOp(op: Op, env: RenderEnv, rx: number, ry: number, elements: CanvasElement[], out: RenderOutput): void {
  switch (op.kind) {
    case 'text': {
      const text = (op.decode ?? env.decode)(env.expand(op));
      const w = [...text].length * op.font.pitch * op.hMult;
      const h = op.font.cellHeight * op.vMult;
      const box = rotatedBox(op.x + rx, op.y + ry, 0, 0, w, h, op.rot);
      elements.push(textElement(op.src, text, op.font, op.hMult, op.vMult, op.reverse, box, op.rot));
      return;
    }
    case 'barcode': {
      const data = env.expand(op);
      const r = renderLinear(op.type, data, op.narrow, op.wide, op.height);
      if (!r.ok) {
        out.errors.push({ src: op.src, message: `bar code not printed: ${r.error}`, code: '03' });
        return;
      }
      const sym = r.value;
      const x = op.x + rx, y = op.y + ry;
      const bw = sym.bitmap.width, bh = sym.bitmap.height;
      elements.push(imageElement(op.src, sym.png(), rotatedBox(x, y, 0, 0, bw, bh, op.rot), op.rot));
      if (op.humanReadable && sym.humanReadable) {
        const font = hrFont(op.narrow);
        const hr = (op.decode ?? env.decode)(sym.humanReadable);
        const tw = [...hr].length * font.pitch;
        const at = humanReadableBelow(sym.bitmap, tw, 2);
        const box = rotatedBox(x, y, at.x, at.y, tw, font.cellHeight, op.rot);
        elements.push(textElement(op.src, hr, font, 1, 1, false, box, op.rot));
      }
      return;
    }
    case 'code2d': {
      const data = env.expand(op);
      const r = render2D(op.symbology, op.params, data);
      if (!r.ok) {
        out.errors.push({ src: op.src, message: `2D bar code not printed: ${r.error}`, code: '03' });
        return;
      }
      let bmp = r.value.bitmap;
      let png = r.value.png();
      if (op.params.reverse) {
        const inv = new Bitmap(bmp.width + 2 * op.params.moduleSize, bmp.height + 2 * op.params.moduleSize);
        inv.fillRect(0, 0, inv.width, inv.height, 'black');
        inv.blit(bmp, op.params.moduleSize, op.params.moduleSize, 'white');
        bmp = inv;
        png = pngOf(inv);
      }
      const rot = op.params.rotation ?? 0;
      let x = op.x + rx, y = op.y + ry;
      const sideways = rot === 1 || rot === 3;
      const w = sideways ? bmp.height : bmp.width, h = sideways ? bmp.width : bmp.height;
      // PDF417 with origin f1: centred in the maximum print area.
      if (op.params.center && op.params.maxWidth && op.params.maxHeight) {
        x += Math.max(0, Math.floor((op.params.maxWidth - w) / 2));
        y += Math.max(0, Math.floor((op.params.maxHeight - h) / 2));
      }
      elements.push(imageElement(op.src, png, { x, y, w, h }, rot));
      return;
    }
    case 'fill': {
      const el: BoxElement = {
        type: 'box',
        ...commandSource(op.src),
        x: op.x + rx,
        y: op.y + ry,
        width: op.w,
        height: op.h,
        thickness: Math.min(op.w, op.h),
        isFilled: true,
      };
      if (op.mode !== 'black') el.drawMode = op.mode;
      elements.push(el);
      return;
    }
    case 'box': {
      const x = Math.min(op.x1, op.x2) + rx, y = Math.min(op.y1, op.y2) + ry;
      elements.push({
        type: 'box',
        ...commandSource(op.src),
        x,
        y,
        width: Math.abs(op.x2 - op.x1),
        height: Math.abs(op.y2 - op.y1),
        thickness: op.t,
        isFilled: false,
      });
      return;
    }
    case 'diagonal': {
      const el: LineElement = { type: 'line', ...commandSource(op.src), x1: op.x1 + rx, y1: op.y1 + ry, x2: op.x2 + rx, y2: op.y2 + ry, thickness: op.t };
      elements.push(el);
      return;
    }
    case 'graphic': {
      elements.push(imageElement(op.src, pngOf(op.bitmap), { x: op.x + rx, y: op.y + ry, w: op.bitmap.width, h: op.bitmap.height }, 0));
      return;
    }
    case 'storedGraphic': {
      const bmp = env.graphic(op.name);
      if (!bmp) {
        out.errors.push({ src: op.src, message: `graphic "${op.name}" not found`, code: '09' });
        return;
      }
      elements.push(imageElement(op.src, pngOf(bmp), { x: op.x + rx, y: op.y + ry, w: bmp.width, h: bmp.height }, 0));
      return;
    }
  }
}

