import type { ModelProtocol } from './protocol.ts';

/**
 * How a regional unit of a model decodes multi-byte text (ESC/POS Kanji mode `FS &`, UTF-8
 * through `FS ( C`, Star multi-byte). `None`: an ANK unit, every byte is a single-byte character.
 */
export const MULTI_BYTE_ENCODINGS = ['None', 'ShiftJis', 'Gb18030', 'Big5', 'KsC5601', 'Utf8'] as const;
export type MultiByteEncoding = (typeof MULTI_BYTE_ENCODINGS)[number];

/** A resident font: one character cell in dots (the Kanji font: one full-width cell). */
export interface PrinterFont {
  readonly name: string;
  readonly widthInDots: number;
  readonly heightInDots: number;
}

/** What a unit of the model says about itself (ESC/POS GS I, Star ESC # *, Zebra ~HI / UQ). */
export interface PrinterIdentity {
  /** GS I 66 / Zebra manufacturer: "EPSON", "STAR", "Zebra Technologies". */
  readonly maker: string;
  /** GS I 67 / Star / ~HI model name: "TM-T88VI", "TSP100IV", "ZD421-203dpi". */
  readonly modelName: string;
  /** GS I 65 / ~HI firmware version. */
  readonly firmware: string;
}

/** Code-table numbering: the number a command selects (ESC t n, Star ESC GS t n, EPL I p2, ZPL ^CI n) → table name. */
export type CodeTableNumbering = Readonly<Record<string, string>>;

export interface PrinterModel {
  /** Stable id, the same as receipt-printer-encoder's `printerModel` option for receipt printers. */
  readonly id: string;
  readonly vendor: string;
  readonly name: string;
  /** Protocols a unit speaks; the first is its native language. */
  readonly protocols: readonly [ModelProtocol, ...ModelProtocol[]];
  readonly dpi: number;
  /** Print-area width of the model's widest paper. */
  readonly defaultWidthInDots: number;
  readonly fonts: readonly PrinterFont[];
  /**
   * Per protocol spoken, its code-table numbering. Table names are
   * `@point-of-sale/codepage-encoder` ids (`cp851`, `windows1252`, `thai42`, ...), decoded by
   * `src/engines/text`.
   */
  readonly codeTables: Readonly<Partial<Record<ModelProtocol, CodeTableNumbering>>>;
  /** Multi-byte encodings a regional unit of the model can have ('None' is always possible). */
  readonly multiByteEncodings: readonly Exclude<MultiByteEncoding, 'None'>[];
  readonly defaultMultiByteEncoding: MultiByteEncoding;
  /**
   * ESC/POS: the unit prints 2D codes with `GS Z n` (select PDF417, DataMatrix or QR) and
   * `ESC Z` (print), as Chinese-brand firmware does besides `GS ( k`.
   */
  readonly printsEscZ2dCodes: boolean;
  readonly identity: PrinterIdentity;
}

/**
 * What an engine learns about the model it emulates, next to the PrinterContext. The Worker's
 * printer object always supplies it; PrinterContext (src/engines/canvas) should extend this
 * once the engine framework reads models (until then the printer object passes
 * `PrinterContext & ModelContext`).
 */
export interface ModelContext {
  readonly model: PrinterModel;
  readonly multiByteEncoding: MultiByteEncoding;
}
