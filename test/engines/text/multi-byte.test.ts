import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { decodeMultiByte, multiByteLength, NEEDS_SECOND_BYTE, type DecodableMultiByteEncoding } from '../../../src/engines/text/index.ts';

/**
 * Bytes come from iconv-lite's encoders; decoding is checked against Node's own WHATWG
 * TextDecoder (ICU), a second implementation, and by framing character by character.
 */
const SAMPLES: Record<DecodableMultiByteEncoding, { codec: string; whatwg: string; text: string }> = {
  ShiftJis: { codec: 'shift_jis', whatwg: 'shift_jis', text: 'ご利用ありがとうございます 合計 ￥1,280 ｶﾀｶﾅ' },
  Gb18030: { codec: 'gb18030', whatwg: 'gb18030', text: '欢迎光临 合计：¥128.00 谢谢惠顾 😀€' },
  Big5: { codec: 'big5', whatwg: 'big5', text: '歡迎光臨 合計：128 元 謝謝惠顧' },
  KsC5601: { codec: 'euc-kr', whatwg: 'euc-kr', text: '감사합니다 합계 12,800원' },
  Utf8: { codec: 'utf8', whatwg: 'utf-8', text: 'Grüße 欢迎 감사 ありがとう 😀 Καλημέρα' },
};

/** Frames `bytes` into characters with multiByteLength, as an engine reading a stream does. */
function frame(encoding: DecodableMultiByteEncoding, bytes: Uint8Array): Uint8Array[] {
  const chars: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    let n = multiByteLength(encoding, bytes[i]);
    if (n === NEEDS_SECOND_BYTE) n = multiByteLength(encoding, bytes[i], bytes[i + 1]);
    chars.push(bytes.subarray(i, i + n));
    i += n;
  }
  return chars;
}

describe('decodeMultiByte', () => {
  for (const [encoding, { codec, whatwg, text }] of Object.entries(SAMPLES) as [DecodableMultiByteEncoding, (typeof SAMPLES)[DecodableMultiByteEncoding]][]) {
    it(`${encoding}: decodes as the WHATWG decoder does, whole and framed character by character`, () => {
      const bytes = new Uint8Array(iconv.encode(text, codec));
      expect(new TextDecoder(whatwg).decode(bytes)).toBe(text);
      expect(decodeMultiByte(encoding, bytes)).toBe(text);
      const chars = frame(encoding, bytes);
      expect(chars.map((c) => decodeMultiByte(encoding, c)).join('')).toBe(text);
      expect(chars.length).toBe([...text].length);
    });
  }

  it('GB18030 four-byte characters need the second byte to frame', () => {
    const bytes = iconv.encode('😀', 'gb18030');
    expect(bytes.length).toBe(4);
    expect(multiByteLength('Gb18030', bytes[0])).toBe(NEEDS_SECOND_BYTE);
    expect(multiByteLength('Gb18030', bytes[0], bytes[1])).toBe(4);
    expect(multiByteLength('Gb18030', 0xc4, 0xe3)).toBe(2);
    expect(multiByteLength('Gb18030', 0x41)).toBe(1);
  });

  it('Shift-JIS half-width katakana are single bytes; invalid bytes decode to U+FFFD without throwing', () => {
    expect(multiByteLength('ShiftJis', 0xb1)).toBe(1);
    expect(multiByteLength('Utf8', 0xff)).toBe(1);
    expect(decodeMultiByte('Utf8', [0xff])).toBe('\ufffd');
    expect(() => decodeMultiByte('Big5', [0x81])).not.toThrow();
    expect(decodeMultiByte('KsC5601', [0xb0])).toContain('\ufffd');
  });
});
