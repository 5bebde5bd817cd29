/** ZPL framing: prefixes, one-letter ^A, immediate commands, binary payloads, resync. */
import { describe, expect, it } from 'vitest';
import { ZplTokenizer, type Token } from '../../../src/engines/zpl/tokenizer.ts';

function tokens(input: string | Uint8Array, chunk = 1_000_000): Token[] {
  const data = typeof input === 'string' ? Uint8Array.from(input, (c) => c.charCodeAt(0)) : input;
  const t = new ZplTokenizer();
  const out: Token[] = [];
  for (let i = 0; i < data.length; i += chunk) t.push(data.subarray(i, i + chunk), (x) => out.push(x));
  t.flush((x) => out.push(x));
  return out;
}

const summary = (ts: Token[]): string[] => ts.map((t) => (t.kind === 'text' ? `text:${t.text}` : `${t.prefix === 'format' ? '^' : '~'}${t.code}(${t.params})${t.complete ? '' : '!'}`));

describe('ZPL tokenizer', () => {
  it('splits commands at prefixes, keeps ^A font names as a parameter, drops line ends from parameters', () => {
    expect(summary(tokens('junk^XA^A0N,30\r\n,20^FDa,b~HS^XZ'))).toEqual(['text:junk', '^XA()', '^A(0N,30,20)', '^FD(a,b)', '~HS()', '^XZ()']);
  });

  it('every byte is in exactly one token, whatever the chunking', () => {
    const src = '^XA\r\n^FO1,2^GFB,4,4,1,\x5e\x7e\x00\xff^FS\r\n~HQES^XZ';
    for (const chunk of [1, 2, 5, 100]) {
      const ts = tokens(src, chunk);
      expect(ts.reduce((n, t) => n + t.bytes.length, 0)).toBe(src.length);
      expect(summary(ts)).toEqual(summary(tokens(src)));
    }
  });

  it('^GFB and ~DY…B payloads are binary: prefixes inside them are data', () => {
    const ts = tokens('^GFB,4,4,1,\x5e\x7e\x00\xff^FS');
    const gf = ts[0];
    expect(gf.kind === 'command' && Array.from(gf.binary ?? [])).toEqual([0x5e, 0x7e, 0x00, 0xff]);
    expect(summary(ts).at(-1)).toBe('^FS()');
  });

  it('^CC, ~CT and ^CD change the framing from the next byte on', () => {
    // The line ends after the one-character commands are text tokens (the session folds them into the command before).
    expect(summary(tokens('^CC+\n+XA+CT#\n#HS+CD;+FO1;2+XZ'))).toEqual(['^CC(+)', 'text:\n', '^XA()', '^CT(#)', 'text:\n', '~HS()', '^CD(;)', '^FO(1;2)', '^XZ()']);
  });

  it('status queries complete as soon as their letters arrive (no next prefix needed)', () => {
    const t = new ZplTokenizer();
    const seen: Token[] = [];
    t.push(Uint8Array.from('~HQES', (c) => c.charCodeAt(0)), (x) => seen.push(x));
    t.push(Uint8Array.from('~HS', (c) => c.charCodeAt(0)), (x) => seen.push(x));
    expect(summary(seen)).toEqual(['~HQ(ES)', '~HS()']);
  });

  it('a job cut inside a binary payload ends with an incomplete token', () => {
    expect(summary(tokens('^GFB,10,10,2,\x01\x02'))).toEqual(['^GF(B,10,10,2,)!']);
  });
});
