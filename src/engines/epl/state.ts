/**
 * Label and image buffer state of an EPL2 session: label setup (q, Q, R, ZB, I, ...), the
 * image buffer (drawing operations added by A, B, b, LO, ... and cleared by N), and the
 * per-session stores (forms, graphics, variables, counters).
 */
import type { DebugElement } from '../canvas/model.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import type { DataPart } from './params.ts';
import type { EplFont } from './fonts.ts';
import type { LinearType } from './barcodes.ts';
import { DEFAULT_CODE_PAGE } from './codepages.ts';

/** Where an operation came from: the debug element of its command line (shared object). */
export interface OpSource {
  debug: DebugElement;
  /** 1-based line number in the job, for messages. */
  line: number;
  /** Short command label, e.g. "A" or "B", for messages. */
  command: string;
}

export type Rot = 0 | 1 | 2 | 3;

export type Op =
  | {
      kind: 'text';
      x: number;
      y: number;
      rot: Rot;
      font: EplFont;
      hMult: number;
      vMult: number;
      reverse: boolean;
      data: DataPart[];
      src: OpSource;
      /** Code page active when the command arrived (I command), decodes the text. */
      decode?: (s: string) => string;
    }
  | {
      kind: 'barcode';
      x: number;
      y: number;
      rot: Rot;
      type: LinearType;
      narrow: number;
      wide: number;
      height: number;
      humanReadable: boolean;
      data: DataPart[];
      src: OpSource;
      decode?: (s: string) => string;
    }
  | { kind: 'code2d'; x: number; y: number; symbology: Symbology2D; params: Code2DParams; data: DataPart[]; src: OpSource }
  | { kind: 'fill'; x: number; y: number; w: number; h: number; mode: 'black' | 'white' | 'xor'; src: OpSource }
  | { kind: 'box'; x1: number; y1: number; t: number; x2: number; y2: number; src: OpSource }
  | { kind: 'diagonal'; x1: number; y1: number; t: number; x2: number; y2: number; src: OpSource }
  | { kind: 'graphic'; x: number; y: number; bitmap: Bitmap; src: OpSource }
  | { kind: 'storedGraphic'; x: number; y: number; name: string; src: OpSource };

export type Symbology2D = 'qrcode' | 'pdf417' | 'maxicode' | 'datamatrix' | 'azteccode';

/** Options of the b command, already parsed per symbology. */
export interface Code2DParams {
  moduleSize: number;
  rowHeight?: number;
  /** PDF417: maximum print area and origin mode (centered in the area when true). */
  maxWidth?: number;
  maxHeight?: number;
  center?: boolean;
  rotation?: Rot;
  reverse?: boolean;
  options: Record<string, unknown>;
  /** MaxiCode: EPL "cl,co,pc,lpm" data is converted at render time. */
  maxicodeMode?: number;
}

export interface LabelSetup {
  /** q: label width in dots, or null for the printer's width. */
  width: number | null;
  /** Q p1: label length in dots, or null for the printer's height / content extent. */
  length: number | null;
  gap: string;
  refX: number;
  refY: number;
  /** ZB: print the label rotated 180 degrees. */
  topFirst: boolean;
  codePage: { id: string; name: string; decode: (s: string) => string; exact: boolean };
  eightBit: boolean;
  speed: number | null;
  density: number | null;
  options: string[];
  backup: 'JF' | 'JB' | 'JC';
  timeFormat: string;
  dateFormat: string;
}

export function defaultSetup(): LabelSetup {
  return {
    width: null,
    length: null,
    gap: '',
    refX: 0,
    refY: 0,
    topFirst: true,
    codePage: DEFAULT_CODE_PAGE,
    eightBit: true,
    speed: null,
    density: null,
    options: [],
    backup: 'JF',
    timeFormat: '',
    dateFormat: '',
  };
}

export type Justification = 'L' | 'R' | 'C' | 'N';

export interface VariableDef {
  kind: 'variable';
  index: number;
  maxLength: number;
  justification: Justification;
  prompt: string;
}

export interface CounterDef {
  kind: 'counter';
  index: number;
  maxDigits: number;
  justification: Justification;
  step: number;
  prompt: string;
}

export interface Form {
  name: string;
  ops: Op[];
  /** Setup commands stored in the form, applied when it is retrieved. */
  setup: Array<(s: LabelSetup) => void>;
  fields: Array<VariableDef | CounterDef>;
  sizeInBytes: number;
}
