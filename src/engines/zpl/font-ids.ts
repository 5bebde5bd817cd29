/**
 * Which font a font name prints with, once ^CW font identifiers and downloaded fonts are
 * taken into account (ZPL II Programming Guide, ^CW "Font Identifier", ^A, ^A@, ~DB, ~DS,
 * ~DT, ~DU, ~DY).
 *
 * ^CWa,d:o.x gives the one-character name `a` to the stored font d:o.x: a built-in letter
 * then prints with the stored font, a new letter is an additional font; the assignment lasts
 * until power-off (printer memory, across connections).
 *
 * Slipstream does not rasterise downloaded fonts (TrueType outlines, Intellifont, ~DB bitmap
 * glyphs): a downloaded font prints as the scalable font 0 at the height and width the label
 * asks for, and the field's description says so. The resident scalable font's own file
 * (TT0003M_, CG Triumvirate Bold Condensed, which labels name as E:TT0003M_.FNT or .TTF) is
 * font 0 itself.
 */
import { residentFont, SCALABLE, type Dpi, type ZplFont } from './fonts.ts';

/** What a downloaded font object is, by the command that stored it. */
export type DownloadedFontKind = 'bitmap' | 'scalable' | 'truetype';

const KIND_NAMES: Record<DownloadedFontKind, string> = { bitmap: 'bitmap font (~DB)', scalable: 'scalable font (~DS)', truetype: 'TrueType font' };

/** Object names of resident fonts (without drive and extension) → resident font name. */
const RESIDENT_FILES: Readonly<Record<string, string>> = { TT0003M_: '0' };

/** What the printer holds of downloaded fonts and ^CW assignments. */
export interface FontMemory {
  /** Every stored object by name (size in bytes). */
  objects: ReadonlyMap<string, number>;
  /** Downloaded fonts' kinds by object name; an entry counts only while `objects` holds the name. */
  fonts: ReadonlyMap<string, DownloadedFontKind>;
  /** ^CW: font name (one character) → object name `d:o.x`. */
  fontIds: ReadonlyMap<string, string>;
}

/** The font a name or object prints with, and what to tell the user about it. */
export interface ResolvedFont {
  font: ZplFont;
  /** Said in the field's and the command's description when the font is a stand-in or an alias ('' otherwise). */
  note: string;
  /** An error message when the font asked for does not exist (something else prints). */
  problem?: string;
}

/** `E:TT0003M_.FNT` → `TT0003M_`. */
function baseName(object: string): string {
  return object.replace(/^[A-Z]:/, '').replace(/\.[A-Z0-9]{1,3}$/, '');
}

/** A stored object named by ^CW or ^A@ (`d:o.x`, upper case), or null when the printer has no such font. */
export function fontObject(object: string, memory: FontMemory): ResolvedFont | null {
  const resident = RESIDENT_FILES[baseName(object)];
  if (resident) return { font: SCALABLE, note: `${object} is the resident font ${resident}` };
  if (!memory.objects.has(object)) return null;
  const kind = memory.fonts.get(object);
  const what = kind ? `downloaded ${KIND_NAMES[kind]}` : 'downloaded font';
  return { font: SCALABLE, note: `${object} is a ${what}, drawn as font 0 at the requested size` };
}

/**
 * The font `name` (^A, ^CF: 'A'…'Z', '0'…'9', 'GS') prints with: its ^CW object when it has
 * one and the printer holds it, else the resident font, else font 0 with a problem.
 */
export function fontByName(name: string, memory: FontMemory, dpi: Dpi): ResolvedFont {
  const assigned = memory.fontIds.get(name);
  const resident = residentFont(name, dpi);
  if (assigned) {
    const stored = fontObject(assigned, memory);
    if (stored) return { font: stored.font, note: `font ${name} = ${stored.note}` };
    if (resident) return { font: resident, note: '', problem: `font ${name} is assigned to ${assigned} (^CW), which is not in printer memory: the resident font ${name} prints` };
    return { font: SCALABLE, note: `font ${name} prints as font 0`, problem: `font ${name} is assigned to ${assigned} (^CW), which is not in printer memory: font 0 prints` };
  }
  if (resident) return { font: resident, note: '' };
  return { font: SCALABLE, note: `font ${name} is not resident: font 0 prints`, problem: `font ${name} is not a resident font; font 0 is used` };
}

/** ^CW's font name: one letter or digit. */
export function isFontIdentifier(name: string): boolean {
  return /^[A-Z0-9]$/.test(name);
}
