/**
 * PDF417 data as byte compaction codewords (ISO/IEC 15438 5.4.3), for data bwip-js's encoder
 * gets wrong: with control characters between text (a carrier's `[)>` RS `01` GS … message)
 * its text compaction's byte shifts decode with a GS read as the character after it (both
 * zxing-cpp and ZXing read "St" GS "Des" as "StDDes"). Byte compaction carries every byte as
 * sent; bwip-js takes the codewords with its `raw` option and adds the error correction.
 */

/** Whether bwip-js's text compaction is trusted with `text`: printable ASCII, tab, CR and LF only. */
export function needsByteCompaction(text: string): boolean {
  return /[^\t\n\r\x20-\x7e]/.test(text);
}

/**
 * The data codewords of `text` (one byte per character; UTF-8 when it holds characters past
 * U+00FF, as bwip-js encodes them) in byte compaction, written the way
 * bwip-js's `raw` option reads them (`^NNN` each): latch 924 when the length is a multiple of
 * 6, else 901; each 6 bytes are 5 base-900 codewords, a shorter tail one codeword per byte.
 */
export function pdf417ByteCodewords(text: string): string {
  const bytes = /[^\x00-\xff]/.test(text) ? Array.from(new TextEncoder().encode(text)) : Array.from(text, (c) => c.charCodeAt(0));
  const words = [bytes.length % 6 === 0 ? 924 : 901];
  let i = 0;
  for (; i + 6 <= bytes.length; i += 6) {
    // 48 bits: exact in a double.
    let v = 0;
    for (let k = 0; k < 6; k++) v = v * 256 + bytes[i + k];
    const group = [0, 0, 0, 0, 0];
    for (let k = 4; k >= 0; k--) {
      group[k] = v % 900;
      v = Math.floor(v / 900);
    }
    words.push(...group);
  }
  for (; i < bytes.length; i++) words.push(bytes[i]);
  return words.map((w) => `^${String(w).padStart(3, '0')}`).join('');
}
