/**
 * State of a ZPL printer session: the settings that persist from format to format (label
 * home, print width, default font, ^BY, ^CI, ...), the format being received (its fields),
 * the field being built between ^FO/^FT and ^FS, and the printer memory that outlives a
 * connection (stored formats and graphics, pause).
 */
import type { DebugElement } from '../canvas/model.ts';
import type { LabelPrinterMemory } from '../label/index.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import type { BarcodeDefaults, BarcodeSpec } from './barcodes.ts';
import { DEFAULT_BY } from './barcodes.ts';
import type { Charset, UnicodeForm } from './charsets.ts';
import { DEFAULT_CHARSET } from './charsets.ts';
import type { DownloadedFontKind } from './font-ids.ts';
import type { SizedFont } from './fonts.ts';
import type { Orientation } from './params.ts';

/** Where a drawn object came from: the debug element of the command that completed it. */
export interface OpSource {
  debug: DebugElement;
  command: string;
}

/** ^FB / ^TB: a text block. */
export interface TextBlock {
  width: number;
  /** Most lines printed (^TB: as many as fit the height). */
  maxLines: number;
  /** Extra dots between lines (^FB). */
  lineSpacing: number;
  justification: 'L' | 'C' | 'R' | 'J';
  hangingIndent: number;
  /** ^TB height in dots (lines beyond it are not printed). */
  height?: number;
}

/** Field data as it will print: literal text, or a reference resolved per label copy. */
export interface FieldData {
  /** Decoded text (the default when the field is a ^FN field). */
  text: string;
  /** ^FN: the number whose ^XF recall data replaces the text. */
  fieldNumber?: number;
  /** ^SN / ^SF: how the text changes from copy to copy. */
  serial?: Serialization;
  /** ^FC: the clock indicator; its codes are replaced by the time the label prints. */
  clock?: string;
}

export type Serialization =
  | { kind: 'SN'; increment: number; leadingZeros: boolean }
  | { kind: 'SF'; mask: string; increment: string };

/** Position of a field: ^FO (top-left of the field) or ^FT (baseline / bottom-left). */
export interface FieldOrigin {
  x: number;
  y: number;
  typeset: boolean;
  /** 0 left, 1 right, 2 auto (left for left-to-right text). */
  justification: 0 | 1 | 2;
}

interface OpBase {
  origin: FieldOrigin;
  reverse: boolean;
  src: OpSource;
}

export type Op =
  | (OpBase & { kind: 'text'; orientation: Orientation; font: SizedFont; data: FieldData; block?: TextBlock })
  | (OpBase & { kind: 'barcode'; spec: BarcodeSpec; data: FieldData; textFont: SizedFont })
  | (OpBase & { kind: 'box'; width: number; height: number; thickness: number; white: boolean; rounding: number })
  | (OpBase & { kind: 'raster'; bitmap: Bitmap; white: boolean; magX: number; magY: number; orientation?: Orientation })
  | (OpBase & { kind: 'storedGraphic'; name: string; magX: number; magY: number });

/** What the next ^FS completes. */
export type FieldGraphic =
  | { kind: 'box'; width: number; height: number; thickness: number; white: boolean; rounding: number }
  | { kind: 'raster'; bitmap: Bitmap; white: boolean; magX: number; magY: number }
  | { kind: 'storedGraphic'; name: string; magX: number; magY: number }
  | { kind: 'symbol'; orientation: Orientation; height: number; width: number };

/** The font a field prints with; `note` says what stands in for a font Slipstream does not draw ('' when none). */
export interface FieldFont {
  font: SizedFont;
  orientation: Orientation;
  note: string;
}

export interface FieldState {
  origin: FieldOrigin | null;
  font: FieldFont | null;
  barcode: BarcodeSpec | null;
  graphic: FieldGraphic | null;
  block: TextBlock | null;
  reverse: boolean;
  /** ^FH escape character, or null. */
  hexEscape: string | null;
  fieldNumber: number | null;
  serial: Serialization | null;
  /** Raw field data (bytes as latin1 chars) from ^FD / ^FV / ^SN. */
  data: string | null;
  /** The charset active when the data arrived. */
  charset: Charset | null;
  /** ^FC clock indicator, or null. */
  clock: string | null;
}

export function emptyField(): FieldState {
  return { origin: null, font: null, barcode: null, graphic: null, block: null, reverse: false, hexEscape: null, fieldNumber: null, serial: null, data: null, charset: null, clock: null };
}

/** Settings that stay from format to format within a connection. */
export interface Settings {
  homeX: number;
  homeY: number;
  /** ^LT: label top shift (dots, -120..120). */
  labelTop: number;
  /** ^LS: label shift left (dots). */
  labelShift: number;
  printWidth: number | null;
  labelLength: number | null;
  /** ^PO I: print upside down. */
  inverted: boolean;
  /** ^PM Y: print the label mirrored left to right. */
  mirrored: boolean;
  /** ^LR Y: every field is reversed. */
  reverseAll: boolean;
  /** ^CF: default font and size. */
  defaultFont: string;
  defaultHeight: number | null;
  defaultWidth: number | null;
  /** ^FW: default orientation and justification. */
  fieldOrientation: Orientation;
  fieldJustification: 0 | 1 | 2;
  by: BarcodeDefaults;
  charset: Charset;
  /** ^F8 / ^F16: the Unicode form ^CI17 field data comes in (UTF-8 or UTF-16 big-endian). */
  unicodeForm: UnicodeForm;
  /** ^MM, ^MN, ^MT, ^MD, ~SD, ^PR: recorded, shown by ^HH and ~HS. */
  printMode: string;
  mediaTracking: string;
  mediaType: string;
  darkness: number;
  printSpeed: number;
}

export function defaultSettings(): Settings {
  return {
    homeX: 0,
    homeY: 0,
    labelTop: 0,
    labelShift: 0,
    printWidth: null,
    labelLength: null,
    inverted: false,
    mirrored: false,
    reverseAll: false,
    defaultFont: 'A',
    defaultHeight: null,
    defaultWidth: null,
    fieldOrientation: 'N',
    fieldJustification: 0,
    by: { ...DEFAULT_BY },
    charset: DEFAULT_CHARSET,
    unicodeForm: 16,
    printMode: 'T',
    mediaTracking: 'Y',
    mediaType: 'D',
    darkness: 10,
    printSpeed: 6,
  };
}

/** One command of a stored format (^DF), replayed by ^XF. */
export interface StoredCommand {
  prefix: 'format' | 'control';
  code: string;
  params: string;
  binary?: Uint8Array;
  /** The delimiter in force when it was stored. */
  delimiter: string;
}

export interface StoredFormat {
  name: string;
  commands: StoredCommand[];
  sizeInBytes: number;
}

/**
 * What a Zebra keeps across connections (until power-off): stored formats (^DF) as the label
 * machine's forms, graphics (~DG, ~DY), other downloaded objects, and the pause state.
 */
export interface ZplPrinterMemory extends LabelPrinterMemory<StoredFormat> {
  /** Other downloaded objects (fonts, encodings) by name: size only, they are not drawn. */
  objects: Map<string, number>;
  /** Downloaded fonts' kinds by object name (font-ids.ts); an entry counts only while `objects` holds the name. */
  fonts: Map<string, DownloadedFontKind>;
  /** ^CW font identifiers: font name → object name; kept until power-off like the objects. */
  fontIds: Map<string, string>;
  /** ~PS pauses, ~PP resumes: a paused printer reports it in ~HS / ~HQES. */
  paused: boolean;
}

export function newZplPrinterMemory(): ZplPrinterMemory {
  return { forms: new Map(), graphics: new Map(), objects: new Map(), fonts: new Map(), fontIds: new Map(), paused: false };
}
