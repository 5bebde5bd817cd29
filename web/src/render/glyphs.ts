/**
 * Printer text drawn with the same GNU Unifont glyphs as the server's PNG (src/engines/render):
 * each text element becomes a 1-bit mask of its dots, shown in the ink colour over the paper,
 * so the page shows what the PNG and the paper show, CJK included, whatever fonts the
 * machine has. The element's real text stays in the page (transparent) for selection,
 * search and screen readers.
 */
import { drawTextElement, encodePagePngSync, PackedRaster, type RenderTextElement } from '../../../src/engines/render/index.ts';
import type { ApiCanvasElement } from '../types.ts';
import type { DrawMode } from '../../../src/engines/canvas/model.ts';
import { modeColour } from './layout.ts';

type TextElementDto = Extract<ApiCanvasElement, { type: 'text' }>;

/** Masks by element content: documents are re-laid out on every live update. */
const masks = new Map<string, string>();
const MASK_CACHE_LIMIT = 5000;

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** A `data:image/png` URL of the element's dots (black opaque, white transparent), box-sized; '' when it has none. */
export function textGlyphMask(el: TextElementDto): string {
  const w = Math.round(el.width), h = Math.round(el.height);
  if (!(w > 0 && h > 0 && w * h <= 4_000_000)) return '';
  const key = JSON.stringify([el.text, w, h, el.fontName, el.charSpacing, el.isBold, el.isUnderline, el.isReverse, el.charScaleX, el.charScaleY,
    el.rotation, el.isItalic, el.isUpsideDown, el.isDoubleStrike, el.underlineThickness, el.isMirrored]);
  const hit = masks.get(key);
  if (hit !== undefined) return hit;
  const page = new PackedRaster(w, h);
  // The mask is the dots themselves; the layer's colour and blending apply the draw mode.
  drawTextElement(page, { ...(el as RenderTextElement), x: 0, y: 0, drawMode: 'black' });
  const url = `data:image/png;base64,${base64(encodePagePngSync(page, { transparentWhite: true }))}`;
  if (masks.size >= MASK_CACHE_LIMIT) masks.clear();
  masks.set(key, url);
  return url;
}

/** Inline CSS of the glyph layer over a text box at (left, top), width x height dots, drawn in `mode`. */
export function glyphLayerCss(mask: string, left: number, top: number, width: number, height: number, mode: DrawMode = 'black'): string {
  const m = `url("${mask}") 0 0 / 100% 100% no-repeat`;
  const { colour, blend } = modeColour(mode);
  return `position:absolute;left:${left}px;top:${top}px;width:${width}px;height:${height}px;background:${colour};`
    + `-webkit-mask:${m};mask:${m};pointer-events:none;${blend ? `mix-blend-mode:${blend};` : ''}`;
}
