import { ENCODER_MODEL_DATA } from './generated/receipt-printer-encoder-data.ts';
import type { EncoderPrinterDefinition } from './generated/encoder-model-data.ts';
import type { ModelProtocol } from './protocol.ts';
import type { CodeTableNumbering, MultiByteEncoding, PrinterFont, PrinterIdentity, PrinterModel } from './types.ts';

/**
 * Receipt printer models: every id of receipt-printer-encoder's `printerModels`, built from the
 * capabilities the package holds (language, dpi, paper, fonts, code-table numbering). What the
 * package does not hold (the maker string a unit reports, its firmware, which regional
 * multi-byte encodings the model is sold with) is hand-written below, per vendor.
 */

const LANGUAGE_TO_PROTOCOL: Record<EncoderPrinterDefinition['capabilities']['language'], ModelProtocol> = {
  'esc-pos': 'EscPos',
  'star-prnt': 'StarPrnt',
  'star-line': 'StarLine',
};

/** Hand-written: the package leaves vendor empty for these white-label models. */
const GENERIC_VENDOR = 'Generic';

interface VendorFacts {
  /** GS I 66 maker name (hand-written from the vendors' command references). */
  maker: string;
  /** Firmware string a unit reports (GS I 65); illustrative, vendors publish none per model. */
  firmware: string;
  multiByteEncodings: readonly Exclude<MultiByteEncoding, 'None'>[];
  defaultMultiByteEncoding: MultiByteEncoding;
  /** GS Z / ESC Z 2D codes (Chinese white-label firmware; their programming manuals list them). */
  escZ2d?: true;
}

const ALL_MULTI_BYTE = ['ShiftJis', 'Gb18030', 'Big5', 'KsC5601', 'Utf8'] as const;

/**
 * Hand-written per vendor (no package holds it). Japanese makers (Epson, Star, Citizen,
 * Fujitsu) default to Shift-JIS as their Japanese units do (they start in single-byte mode
 * and need FS &). The Chinese white-label brands (Xprinter, Youku, the generic units) and
 * Bixolon are listed as their international units ship: single-byte at power-on with no
 * regional encoding chosen ('None'), so a PC858 receipt sent without FS . prints as sent.
 * Choosing a Chinese or Korean encoding in `settings.multiByteEncoding` makes the printer
 * a regional unit, which starts in Kanji mode as those units' manuals say. SUNMI's built-in
 * printers keep GB18030. Models sold only as ANK units (HP, Metapace, the Meow cat printer)
 * have none.
 */
const VENDOR_FACTS: Record<string, VendorFacts> = {
  Epson: { maker: 'EPSON', firmware: '30.05 ESC/POS', multiByteEncodings: ALL_MULTI_BYTE, defaultMultiByteEncoding: 'ShiftJis' },
  Star: { maker: 'STAR', firmware: 'Ver1.0', multiByteEncodings: ALL_MULTI_BYTE, defaultMultiByteEncoding: 'ShiftJis' },
  Citizen: { maker: 'CITIZEN', firmware: '1.00', multiByteEncodings: ALL_MULTI_BYTE, defaultMultiByteEncoding: 'ShiftJis' },
  Fujitsu: { maker: 'FUJITSU', firmware: '1.00', multiByteEncodings: ALL_MULTI_BYTE, defaultMultiByteEncoding: 'ShiftJis' },
  Bixolon: { maker: 'BIXOLON', firmware: 'V02.00', multiByteEncodings: ALL_MULTI_BYTE, defaultMultiByteEncoding: 'None' },
  SUNMI: { maker: 'SUNMI', firmware: '1.0.0', multiByteEncodings: ['Gb18030', 'Big5', 'Utf8'], defaultMultiByteEncoding: 'Gb18030' },
  Xprinter: { maker: 'Xprinter', firmware: 'V1.0', multiByteEncodings: ['Gb18030', 'Big5', 'KsC5601', 'ShiftJis', 'Utf8'], defaultMultiByteEncoding: 'None', escZ2d: true },
  Youku: { maker: 'YOUKU', firmware: 'V1.0', multiByteEncodings: ['Gb18030', 'Big5', 'Utf8'], defaultMultiByteEncoding: 'None', escZ2d: true },
  [GENERIC_VENDOR]: { maker: 'POS', firmware: 'V1.0', multiByteEncodings: ['Gb18030', 'Big5', 'Utf8'], defaultMultiByteEncoding: 'None', escZ2d: true },
  HP: { maker: 'HP', firmware: '1.00', multiByteEncodings: [], defaultMultiByteEncoding: 'None' },
  Metapace: { maker: 'METAPACE', firmware: '1.00', multiByteEncodings: [], defaultMultiByteEncoding: 'None' },
  Meow: { maker: 'Meow', firmware: '1.0', multiByteEncodings: [], defaultMultiByteEncoding: 'None' },
};

/** Printable width of a roll (Epson/Star/Citizen specifications: 80 mm paper → 72 mm, 58 mm → 48 mm). */
const PRINTABLE_MM_BY_PAPER_MM: Record<number, number> = { 80: 72, 58: 48 };

function parseSize(size: string): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number);
  return { width, height };
}

/**
 * The print-area width: the roll's printable width at the model's dpi, rounded to whole bytes
 * as printers do (TM-T88VI 72 mm at 180 dpi → 512 dots, 203 dpi → 576), and never less than
 * the model's Font A line (HP A779: 44 columns × 12 = 528).
 */
function printAreaWidth(def: EncoderPrinterDefinition, dpi: number): number {
  const fontA = def.capabilities.fonts.A;
  const line = fontA ? fontA.columns * parseSize(fontA.size).width : 0;
  const mm = def.media.width ? PRINTABLE_MM_BY_PAPER_MM[def.media.width] : undefined;
  const physical = mm ? Math.round((mm * dpi) / 25.4 / 8) * 8 : 0;
  return Math.max(Math.ceil(line / 8) * 8, physical);
}

function fontsOf(def: EncoderPrinterDefinition, hasMultiByte: boolean): PrinterFont[] {
  const fonts: PrinterFont[] = [];
  for (const [letter, font] of Object.entries(def.capabilities.fonts)) {
    const { width, height } = parseSize(font.size);
    // The package writes '0x0' where a font's size is unknown (MPT-II Font C): leave it out.
    if (!(width > 0 && height > 0)) continue;
    fonts.push({ name: `Font ${letter}`, widthInDots: width, heightInDots: height });
  }
  // Hand-written: a full-width (Kanji) character is two Font A cells wide, 24x24 on every
  // model with a 12x24 Font A (Epson/Star/Citizen references).
  const fontA = fonts.find((f) => f.name === 'Font A');
  if (hasMultiByte && fontA) fonts.push({ name: 'Kanji', widthInDots: fontA.widthInDots * 2, heightInDots: fontA.heightInDots });
  return fonts;
}

function codeTablesOf(def: EncoderPrinterDefinition): CodeTableNumbering {
  const language = def.capabilities.language;
  const numbering = ENCODER_MODEL_DATA.codepageMappings[language]?.[def.capabilities.codepages] ?? [];
  const tables: Record<string, string> = {};
  numbering.forEach((name, number) => {
    if (name) tables[String(number)] = name;
  });
  return tables;
}

function identityOf(def: EncoderPrinterDefinition, facts: VendorFacts): PrinterIdentity {
  return { maker: facts.maker, modelName: def.model, firmware: facts.firmware };
}

function toModel(id: string, def: EncoderPrinterDefinition): PrinterModel {
  const vendor = def.vendor || GENERIC_VENDOR;
  const facts = VENDOR_FACTS[vendor];
  if (!facts) throw new Error(`printer model ${id}: no vendor facts for "${vendor}" (src/engines/models/receipt-models.ts)`);
  const protocol = LANGUAGE_TO_PROTOCOL[def.capabilities.language];
  // The package's default resolution when a model names none (its `sunmi` generic entry).
  const dpi = def.media.dpi ?? 203;
  return {
    id,
    vendor,
    name: `${vendor} ${def.model}`,
    protocols: [protocol],
    dpi,
    defaultWidthInDots: printAreaWidth(def, dpi),
    fonts: fontsOf(def, facts.multiByteEncodings.length > 0),
    codeTables: { [protocol]: codeTablesOf(def) },
    multiByteEncodings: facts.multiByteEncodings,
    defaultMultiByteEncoding: facts.defaultMultiByteEncoding,
    printsEscZ2dCodes: facts.escZ2d === true,
    identity: identityOf(def, facts),
  };
}

export const RECEIPT_PRINTER_MODELS: readonly PrinterModel[] = Object.entries(ENCODER_MODEL_DATA.printerDefinitions).map(
  ([id, def]) => toModel(id, def),
);
