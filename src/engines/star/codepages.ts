import type { PrinterContext } from '../canvas/printer-context.ts';
import { INTERNATIONAL_SETS, decodeMultiByte, isWide, multiByteLength } from '../escpos/codepages.ts';
import { codeTablesFor, defaultModelFor, type ModelContext, type MultiByteEncoding, type PrinterModel } from '../models/index.ts';
import type { CodeTableInfo, MultiByteSystem, TextCodec } from '../receipt/text.ts';
import { describeTable, isSupportedTable, singleByteTable } from '../text/index.ts';

/**
 * Text on a Star printer: code tables by Star's numbering (ESC GS t n), as the model holds
 * them (the models module takes them from receipt-printer-encoder's Star mapping: 0 the
 * Star standard table, 1 PC437, 2 Katakana, 4 PC858, 32 WPC1252, ...), international
 * character sets (ESC R n, the same twelve ASCII positions as ESC/POS), and multi-byte text.
 */

/** ISO 646 positions an international character set replaces. */
const INTL_POSITIONS = [0x23, 0x24, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d, 0x7e];

/**
 * The printer's model when the context names one that speaks the language, else the
 * language's default model (TSP100IV for StarPRNT, TSP650II for Star Line Mode).
 */
export function starModel(ctx: PrinterContext, language: 'StarPrnt' | 'StarLine'): PrinterModel {
  // The printer object passes PrinterContext & ModelContext (settings.model).
  const model = (ctx as PrinterContext & Partial<ModelContext>).model;
  return model && model.protocols.includes(language) ? model : defaultModelFor(language);
}

/**
 * Tables by name, shared by every job: describing a table and copying its characters is
 * costly (codepage-encoder clones its definitions), and POS apps switch tables every line.
 */
const TABLE_INFO = new Map<string, CodeTableInfo>();
const SINGLE_BYTE = new Map<string, string[]>();

function tableInfo(name: string): CodeTableInfo {
  let info = TABLE_INFO.get(name);
  if (!info) TABLE_INFO.set(name, (info = { name: describeTable(name), chars: isSupportedTable(name) ? [...singleByteTable(name)] : null }));
  return info;
}

/** Table `name` with international character set `intl` over its ASCII positions; control bytes stay controls. */
function withInternational(name: string, intl: number): string[] {
  const key = `${name}/${intl}`;
  let out = SINGLE_BYTE.get(key);
  if (out) return out;
  out = [...singleByteTable(isSupportedTable(name) ? name : 'cp437')];
  for (let b = 0; b < 0x20; b++) out[b] = String.fromCharCode(b);
  const set = INTERNATIONAL_SETS.get(intl);
  if (set && intl !== 0) INTL_POSITIONS.forEach((pos, i) => (out![pos] = set.chars[i]));
  SINGLE_BYTE.set(key, out);
  return out;
}

/** settings.multiByteEncoding (else the model's) as the receipt machine's multi-byte system. */
const MULTI_BYTE: Record<MultiByteEncoding, MultiByteSystem> = {
  None: 'shift_jis', ShiftJis: 'shift_jis', Gb18030: 'gb18030', Big5: 'big5', KsC5601: 'euc-kr', Utf8: 'utf-8',
};

function multiByteSystem(ctx: PrinterContext): MultiByteSystem {
  const chosen = (ctx as PrinterContext & Partial<ModelContext>).multiByteEncoding;
  return chosen ? MULTI_BYTE[chosen] : (ctx.kanjiEncoding ?? 'shift_jis');
}

export function starTextCodec(ctx: PrinterContext, language: 'StarPrnt' | 'StarLine'): TextCodec {
  const numbering = codeTablesFor(starModel(ctx, language), language);
  const tableName = (n: number): string | undefined => numbering[String(n)];
  return {
    codeTable(n) {
      const name = tableName(n);
      return name ? tableInfo(name) : undefined;
    },
    singleByte: (n, intl) => withInternational(tableName(n) ?? tableName(0) ?? 'cp437', intl),
    kanji: multiByteSystem(ctx),
    multiByteLength,
    decodeMultiByte,
    isWide,
  };
}
