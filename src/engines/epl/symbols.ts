/**
 * Rendering of B (linear) and b (2D) symbols to bitmaps + PNGs through the shared rasteriser,
 * cached in a SymbolCache (raster/symbol-cache.ts, shared with ESC/POS): copies of one label,
 * and repeated labels, reuse the same bitmap and PNG.
 */
import { renderLinearSymbol, renderMatrixSymbol, type MatrixBcid } from '../raster/symbols.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import { pngOf } from '../raster/png.ts';
import { SymbolCache } from '../raster/symbol-cache.ts';
import type { PngImage } from '../canvas/model.ts';
import type { LinearType } from './barcodes.ts';
import type { Code2DParams, Symbology2D } from './state.ts';

export interface RenderedSymbol {
  bitmap: Bitmap;
  humanReadable: string;
  png(): PngImage;
}

type Result = { ok: true; value: RenderedSymbol } | { ok: false; error: string };

const cache = new SymbolCache<Result>((r) => (r.ok ? r.value.bitmap.pixels.byteLength : 0));

function wrap(bitmap: Bitmap, humanReadable: string): RenderedSymbol {
  return { bitmap, humanReadable, png: () => pngOf(bitmap) };
}

export function renderLinear(type: LinearType, data: string, narrow: number, wide: number, height: number): Result {
  const built = type.build(data);
  if (!built.ok) return { ok: false, error: built.error };
  const { spec } = built;
  const r = renderLinearSymbol(spec, narrow, height, spec.twoWidths ? Math.max(1.5, wide / narrow) : undefined);
  if (!r.ok) return { ok: false, error: r.error };
  return { ok: true, value: wrap(r.value.bitmap, r.value.humanReadable) };
}

/** Maximum dimensions EPL accepts for module sizes, to bound work on garbage input. */
const MAX_MODULE = 99;

export function render2D(symbology: Symbology2D, p: Code2DParams, data: string): Result {
  return cache.get(`M\u0000${symbology}\u0000${JSON.stringify(p)}\u0000${data}`, () => matrixSymbol(symbology, p, data));
}

function matrixSymbol(symbology: Symbology2D, p: Code2DParams, data: string): Result {
  const moduleSize = Math.min(MAX_MODULE, Math.max(1, p.moduleSize | 0));
  let text = data;
  const options: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(p.options)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') options[k] = v;
  }
  if (symbology === 'maxicode') {
    const conv = maxicodeText(data, p.maxicodeMode);
    if (!conv.ok) return conv;
    text = conv.text;
    Object.assign(options, conv.options);
  }
  if (symbology === 'pdf417' && (p.maxWidth || p.maxHeight) && p.options.__autoModule) {
    delete options.__autoModule;
    // Auto module width as a Zebra does it (EPL2 guide, b PDF417 x): 6 dots, then one dot less
    // until the symbol fits the maximum area; when 3 dots do not fit either, an error. Rotated
    // 90 or 270 degrees, the maximum width and height transpose (they bound the label area).
    const probe = renderMatrixSymbol({ bcid: 'pdf417', text, moduleSize: 1, rowHeight: 1, options });
    if (!probe.ok) return { ok: false, error: probe.error };
    const w1 = probe.value.bitmap.width, h1 = probe.value.bitmap.height;
    const sideways = p.rotation === 1 || p.rotation === 3;
    const maxW = sideways ? p.maxHeight : p.maxWidth, maxH = sideways ? p.maxWidth : p.maxHeight;
    let chosen = 0;
    for (let x = 6; x >= 3; x--) {
      const y = p.rowHeight ?? 4 * x;
      if ((!maxW || w1 * x <= maxW) && (!maxH || h1 * y <= maxH)) {
        chosen = x;
        break;
      }
    }
    if (chosen === 0) return { ok: false, error: `PDF417 does not fit ${p.maxWidth}x${p.maxHeight} dots even with 3-dot modules` };
    const r = probe.value.bitmap.scale(chosen, p.rowHeight ?? 4 * chosen);
    return { ok: true, value: wrap(r, '') };
  }
  delete options.__autoModule;
  const r = renderMatrixSymbol({ bcid: symbology satisfies MatrixBcid, text, moduleSize, rowHeight: p.rowHeight, options });
  if (!r.ok) return { ok: false, error: r.error };
  return { ok: true, value: wrap(r.value.bitmap, '') };
}

const RS = '\u001e', GS = '\u001d';
/** The AIM message header of a structured carrier message: `[)>` RS `01` GS and a 2-digit year. */
const AIM_HEADER = /^\[\)>\u001e01\u001d(\d\d)/;

/**
 * EPL MaxiCode data (EPL2 guide, b command, MaxiCode): modes 2 and 3 take
 * "cl,co,pc,lpm" (class and country 3 digits, the postal code numeric for mode 2, up to 6
 * characters for mode 3); modes 4 and 6 the message. A 5-digit mode 2 postal code followed by
 * a 4-digit field is a ZIP+4 (the guide's "93065,1692" examples). When the low priority
 * message is in the AIM format (`[)>` RS `01` GS yy ...), as UPS labels send it, the symbol
 * carries the AIM header, then the primary message (postal code, country, class) from the
 * cl,co,pc fields, then the rest of the AIM message (the secondary message), as the guide's
 * shipping example prints. Data that is AIM formatted as a whole is passed through.
 */
export function maxicodeText(
  data: string,
  mode: number | undefined,
): { ok: true; text: string; options: Record<string, string | number | boolean> } | { ok: false; error: string } {
  if (data.startsWith('[)>\u001e')) return { ok: true, text: data, options: mode ? { mode } : {} };
  if (mode === 4 || mode === 5 || mode === 6) return { ok: true, text: data, options: { mode } };
  const m = /^([^,]*),([^,]*),([^,]*),?([\s\S]*)$/.exec(data);
  if (!m) {
    if (mode === undefined) return { ok: true, text: data, options: { mode: 4 } };
    return { ok: false, error: `MaxiCode mode ${mode} needs "class,country,postal code,message" data` };
  }
  const [, cls, country, postal] = m;
  let message = m[4];
  if (!/^\d{1,3}$/.test(cls.trim()) || !/^\d{1,3}$/.test(country.trim())) {
    return { ok: false, error: 'MaxiCode class and country codes must be 3 digits' };
  }
  let pc = postal.trim();
  let useMode = mode ?? (/^\d+$/.test(pc) ? 2 : 3);
  if (useMode === 2) {
    if (!/^\d+$/.test(pc)) return { ok: false, error: 'MaxiCode mode 2 needs a numeric postal code' };
    const plus4 = /^(\d{4}),([\s\S]*)$/.exec(message);
    if (pc.length === 5 && plus4) {
      pc += plus4[1];
      message = plus4[2];
    }
    if (pc.length < 9 && pc.length !== 5) pc = pc.padEnd(9, '0');
    pc = pc.slice(0, 9);
  } else {
    useMode = 3;
    pc = pc.toUpperCase().slice(0, 6);
  }
  const primary = `${pc}${GS}${country.trim().padStart(3, '0')}${GS}${cls.trim().padStart(3, '0')}${GS}`;
  const aim = AIM_HEADER.exec(message);
  const text = aim ? `[)>${RS}01${GS}${aim[1]}${primary}${message.slice(aim[0].length)}` : `${primary}${message}`;
  return { ok: true, text, options: { mode: useMode } };
}
