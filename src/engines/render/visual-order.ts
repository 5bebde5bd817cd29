/**
 * Text as it is seen on paper: Arabic letters joined into their contextual forms
 * (arabic-persian-reshaper) and right-to-left runs put in display order by the Unicode
 * Bidirectional Algorithm (bidi-js), as Unicode-capable printers print logical-order text.
 * Text that already holds Arabic presentation forms came from a code page whose host shaped
 * and ordered it for the printer (e.g. CP864): it is drawn as received.
 */
import bidiFactory from 'bidi-js';
import reshaper from 'arabic-persian-reshaper';

let bidi: ReturnType<typeof bidiFactory> | null = null;

const RTL_LETTERS = /[\u0590-\u08ff]/;
const PRESENTATION_FORMS = /[\ufb1d-\ufdff\ufe70-\ufefc]/;
const ARABIC = /[\u0600-\u06ff]/;

export function visualOrder(text: string): string {
  if (!RTL_LETTERS.test(text) || PRESENTATION_FORMS.test(text)) return text;
  const shaped = ARABIC.test(text) ? reshaper.ArabicShaper.convertArabic(text) : text;
  bidi ??= bidiFactory();
  return bidi.getReorderedString(shaped, bidi.getEmbeddingLevels(shaped));
}
