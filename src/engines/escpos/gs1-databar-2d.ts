/**
 * GS ( k with cn = 51: GS1 DataBar's stacked forms (Stacked, Stacked Omnidirectional, Expanded
 * Stacked), stored with function 80 and printed with function 81 like the other 2D symbols.
 * Their rows have the heights GS1 specifies in modules (Stacked 5 + 1 + 7, Stacked
 * Omnidirectional and Expanded Stacked 33 per row of bars, 1 per separator row), so the whole
 * symbol follows from the module width (function 67) as a TM prints it; Expanded Stacked puts as
 * many segments on a row as fit the maximum width (function 71; 0: the print area).
 */
import type { BarcodeResult } from '../raster/barcode.ts';
import { gtin14, renderLinearSymbol, type LinearSymbol } from '../raster/symbols.ts';

export interface DataBarStackedSettings {
  /** Dots per module, 2..8 (function 67). */
  module: number;
  /** Widest Expanded Stacked symbol in dots, 0 for the print area (function 71). */
  expandedMaxWidth: number;
  /** Function 80's type: 72 Stacked, 73 Stacked Omnidirectional, 76 Expanded Stacked. */
  type: number;
  data: Uint8Array | null;
}

export const initialDataBarStacked = (): DataBarStackedSettings => ({ module: 2, expandedMaxWidth: 0, type: 72, data: null });

export const DATABAR_STACKED_NAMES: Record<number, string> = {
  72: 'GS1 DataBar Stacked', 73: 'GS1 DataBar Stacked Omnidirectional', 76: 'GS1 DataBar Expanded Stacked',
};

/** Heights in modules of a symbol of `rows` matrix rows: bars rows and the 3 separator rows between two of them. */
function heightInModules(type: number, rows: number): number {
  if (type === 72) return 5 + 1 + 7;
  const barRows = (rows + 3) / 4;
  return 33 * barRows + 3 * (barRows - 1);
}

export function renderDataBarStacked(s: DataBarStackedSettings, printAreaWidth: number): BarcodeResult {
  const name = DATABAR_STACKED_NAMES[s.type] ?? `GS1 DataBar type ${s.type}`;
  if (!s.data || s.data.length === 0) return { ok: false, error: `${name}: no data stored` };
  const text = String.fromCharCode(...s.data);
  const mw = s.module;
  let symbol: LinearSymbol;
  if (s.type === 72 || s.type === 73) {
    const gtin = gtin14(text);
    if (!gtin) return { ok: false, error: `${name} needs a 13-digit item number (GTIN)` };
    symbol = { bcid: s.type === 72 ? 'databarstacked' : 'databarstackedomni', text: `(01)${gtin}` };
  } else if (s.type === 76) {
    if (!text.startsWith('(')) return { ok: false, error: `${name} needs application identifiers in parentheses` };
    const maxWidth = s.expandedMaxWidth > 0 ? Math.min(s.expandedMaxWidth, printAreaWidth) : printAreaWidth;
    // The most segments a row holds within the width (an even number, 2 to 22).
    for (let segments = 22; segments >= 2; segments -= 2) {
      const r = render({ bcid: 'databarexpandedstacked', text, options: { segments } }, s.type, mw);
      if (!r.ok || r.value.bitmap.width <= maxWidth || segments === 2) return r;
    }
    return { ok: false, error: `${name}: no symbol` };
  } else {
    return { ok: false, error: `${name}: not a stacked GS1 DataBar type (72, 73 or 76)` };
  }
  return render(symbol, s.type, mw);
}

function render(symbol: LinearSymbol, type: number, mw: number): BarcodeResult {
  // First the row count (one dot a row), then the symbol at its specified height.
  const probe = renderLinearSymbol(symbol, mw, 1);
  if (!probe.ok) return probe;
  return renderLinearSymbol(symbol, mw, heightInModules(type, probe.value.bitmap.height) * mw);
}
