/**
 * Printer modes that ESC/POS commands set and ESC @ resets, plus font metrics.
 *
 * Units: one dot = one motion unit. Epson documents the default line spacing (ESC 2) as
 * 30 motion units on TM-T88 (1/180") and TM-T20/TM-m30 (30/203"): 30 dots, whatever the
 * resolution; Font A is 12x24, Font B 9x17, Font C 9x17 (TM-m30 family), Kanji 24x24 (16x16
 * with Font B).
 */

export interface FontMetrics {
  name: 'FontA' | 'FontB' | 'FontC';
  width: number;
  height: number;
  kanjiWidth: number;
  kanjiHeight: number;
}

export const FONTS: FontMetrics[] = [
  { name: 'FontA', width: 12, height: 24, kanjiWidth: 24, kanjiHeight: 24 },
  { name: 'FontB', width: 9, height: 17, kanjiWidth: 16, kanjiHeight: 16 },
  { name: 'FontC', width: 9, height: 17, kanjiWidth: 16, kanjiHeight: 16 },
];

export const DEFAULT_LINE_SPACING = 30;
export const DEFAULT_BARCODE_HEIGHT = 162;
export const DEFAULT_BARCODE_MODULE = 3;

export type Justification = 'left' | 'center' | 'right';

export interface PrintModes {
  font: number; // index into FONTS
  bold: boolean;
  doubleStrike: boolean;
  /** ESC 4 / ESC 5 (TM-T88VI and later, Star): italic, drawn slanted. */
  italic: boolean;
  underline: number; // 0, 1, 2 dots
  scaleX: number; // 1..8
  scaleY: number;
  reverse: boolean;
  upsideDown: boolean;
  rotate90: boolean;
  smoothing: boolean;
  rightSpacing: number; // ESC SP, dots
  kanjiLeftSpacing: number; // FS S
  kanjiRightSpacing: number;
  kanjiUnderline: number;
  kanjiDoubleWidth: boolean;
  kanjiDoubleHeight: boolean;
  lineSpacing: number;
  justify: Justification;
  leftMargin: number;
  areaWidth: number | null; // null: up to the paper width
  tabStops: number[]; // dots from the start of the print area
  codePage: number;
  intlSet: number;
  kanjiMode: boolean;
  /** 'native': the printer's Kanji encoding in Kanji mode; 'jis' / 'shift_jis' chosen by FS C. */
  kanjiSystem: 'jis' | 'shift_jis' | 'native';
  utf8: boolean;
  userCharsOn: boolean;
  barcodeHeight: number;
  barcodeModule: number;
  hriPosition: number; // 0 none, 1 above, 2 below, 3 both
  hriFont: number;
}

/** ESC D default: every 8 characters of Font A (12 dots). */
export function defaultTabStops(): number[] {
  const stops: number[] = [];
  for (let i = 1; i <= 32; i++) stops.push(i * 8 * 12);
  return stops;
}

export function initialModes(kanjiDefault: boolean): PrintModes {
  return {
    font: 0,
    bold: false,
    doubleStrike: false,
    italic: false,
    underline: 0,
    scaleX: 1,
    scaleY: 1,
    reverse: false,
    upsideDown: false,
    rotate90: false,
    smoothing: false,
    rightSpacing: 0,
    kanjiLeftSpacing: 0,
    kanjiRightSpacing: 0,
    kanjiUnderline: 0,
    kanjiDoubleWidth: false,
    kanjiDoubleHeight: false,
    lineSpacing: DEFAULT_LINE_SPACING,
    justify: 'left',
    leftMargin: 0,
    areaWidth: null,
    tabStops: defaultTabStops(),
    codePage: 0,
    intlSet: 0,
    kanjiMode: kanjiDefault,
    kanjiSystem: 'native',
    utf8: false,
    userCharsOn: false,
    barcodeHeight: DEFAULT_BARCODE_HEIGHT,
    barcodeModule: DEFAULT_BARCODE_MODULE,
    hriPosition: 0,
    hriFont: 0,
  };
}
