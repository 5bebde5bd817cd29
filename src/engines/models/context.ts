import type { ModelContext, MultiByteEncoding, PrinterModel } from './types.ts';

/**
 * The ESC/POS engine takes the model's multi-byte encoding as
 * `kanjiEncoding`, whose presence also means "boots in Kanji mode" as Chinese and Korean
 * regional units do. Shift-JIS is that engine's own FS & default (Epson units need FS & first),
 * so only the other regional encodings are passed on.
 */
type LegacyKanjiEncoding = 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr';

const LEGACY_KANJI_ENCODING: Record<MultiByteEncoding, LegacyKanjiEncoding | undefined> = {
  None: undefined,
  ShiftJis: undefined,
  Utf8: undefined,
  Gb18030: 'gb18030',
  Big5: 'big5',
  KsC5601: 'euc-kr',
};

/** The model part of an engine's context, as the printer object builds it for every job. */
export function modelContext(model: PrinterModel, multiByteEncoding: MultiByteEncoding = model.defaultMultiByteEncoding): ModelContext & { kanjiEncoding?: LegacyKanjiEncoding } {
  const kanjiEncoding = LEGACY_KANJI_ENCODING[multiByteEncoding];
  return { model, multiByteEncoding, ...(kanjiEncoding && { kanjiEncoding }) };
}
