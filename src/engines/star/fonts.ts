import type { PrinterModel } from '../models/index.ts';
import type { FontMetrics } from '../receipt/state.ts';

/**
 * A Star model's resident fonts in ESC RS F order (A, B, C), from the model's data
 * (receipt-printer-encoder's capabilities: Star Font B is 9x24, not Epson's 9x17), with the
 * model's Kanji cell for multi-byte characters.
 */
const cache = new Map<string, FontMetrics[]>();

const FONT_NAMES = { 'Font A': 'FontA', 'Font B': 'FontB', 'Font C': 'FontC' } as const;

export function starFonts(model: PrinterModel): FontMetrics[] {
  let fonts = cache.get(model.id);
  if (fonts) return fonts;
  const kanji = model.fonts.find((f) => f.name === 'Kanji');
  fonts = [];
  for (const [label, name] of Object.entries(FONT_NAMES)) {
    const f = model.fonts.find((x) => x.name === label);
    if (!f) continue;
    fonts.push({ name, width: f.widthInDots, height: f.heightInDots, kanjiWidth: kanji?.widthInDots ?? 24, kanjiHeight: kanji?.heightInDots ?? 24 });
  }
  if (fonts.length === 0) fonts.push({ name: 'FontA', width: 12, height: 24, kanjiWidth: 24, kanjiHeight: 24 });
  cache.set(model.id, fonts);
  return fonts;
}
