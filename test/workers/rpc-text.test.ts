/**
 * Text between a printer's object and the Worker (services/rpc-text.ts): short text stays a
 * string, long text goes as UTF-8 chunks that read back as the same text, surrogate pairs
 * included wherever a chunk ends.
 */
import { describe, expect, it } from 'vitest';
import { INLINE_CHARS, joinedBody, rpcTextString, toRpcText } from '../../src/worker/services/rpc-text.ts';

describe('text between objects', () => {
  it('up to INLINE_CHARS characters stays a string', () => {
    const text = 'x'.repeat(INLINE_CHARS);
    expect(toRpcText(text)).toBe(text);
  });

  it('longer text is a stream that reads back whole, a surrogate pair at every chunk boundary kept', async () => {
    // '𝄞' (two UTF-16 units) placed so that one straddles each 1 Mi-character boundary.
    const text = ('a'.repeat((1 << 20) - 1) + '\u{1D11E}').repeat(9) + '─end';
    const carried = toRpcText(text);
    expect(carried).toBeInstanceOf(ReadableStream);
    expect(await rpcTextString(carried)).toBe(text);
  });

  it('a body joined from strings is a string; with a stream among them, a stream of the same text', async () => {
    expect(joinedBody(['[', '1', ']'])).toBe('[1]');
    const long = '\u2500'.repeat(INLINE_CHARS + 3);
    const joined = joinedBody(['[', '"a"', ',', toRpcText(JSON.stringify(long)), ']']);
    expect(joined).toBeInstanceOf(ReadableStream);
    expect(JSON.parse(await rpcTextString(joined))).toEqual(['a', long]);
  });
});
