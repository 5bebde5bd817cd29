import { describe, expect, it } from 'vitest';
import { createEplSession } from '../../../src/engines/epl/index.ts';
import { EplTokenizer } from '../../../src/engines/epl/tokenizer.ts';
import { bytes, context, lines, run, text } from './helpers.ts';

describe('replies', () => {
  it('UQ answers the configuration at once', () => {
    const ctx = context();
    const s = createEplSession(() => ctx);
    const r = s.push(bytes(lines('q600', 'Q400,24', 'ZB', 'UQ')));
    expect(r.replies).toHaveLength(1);
    const reply = text(r.replies[0]);
    expect(reply).toMatch(/q600 Q400,24/);
    expect(reply).toMatch(/ZB/);
    expect(reply.endsWith('\r\n')).toBe(true);
  });

  it('^ee reports 00, then the head-open and paper-out flags', () => {
    const ctx = context();
    const s = createEplSession(() => ctx);
    expect(text(s.push(bytes('^ee\r\n')).replies[0])).toBe('00\r\n');
    ctx.flags = { ...ctx.flags, isCoverOpen: true, isPaperOut: true };
    expect(text(s.push(bytes('^ee\r\n')).replies[0])).toBe('07,11\r\n');
  });

  it('^ee reports syntax errors latched since the last report', () => {
    const { replies } = run(lines('A1,2', '^ee', '^ee'));
    expect(replies).toEqual(['01\r\n', '00\r\n']);
  });

  it('US reports errors as they happen; eR chooses the format; UN stops it', () => {
    const ctx = context({ flags: { isCoverOpen: true, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false } });
    const { replies } = run(lines('US', 'BOGUS', 'eR$,2', 'N', 'P1', 'eR!,1', 'XYZ', 'UN', 'XYZ'), { ctx });
    expect(replies).toEqual(['\u001501\r\n', '$11\r\n', '!\r\n']);
  });

  it('US reports a cover opened while connected', () => {
    const ctx = context();
    const s = createEplSession(() => ctx);
    s.push(bytes('US\r\n'));
    ctx.flags = { ...ctx.flags, isPaperOut: true };
    expect(s.contextChanged().replies.map(text)).toEqual(['\u001507\r\n']);
    expect(s.contextChanged().replies).toEqual([]);
  });
});

describe('tokenizer', () => {
  function tokens(chunks: Uint8Array[]): string[] {
    const t = new EplTokenizer();
    const out: string[] = [];
    for (const c of chunks) t.push(c, (tok) => out.push(text(tok.bytes)));
    t.flush((tok) => out.push(text(tok.bytes)));
    return out;
  }

  it('splits on LF with optional CR, keeping every byte', () => {
    expect(tokens([bytes('N\r\nq8'), bytes('12\nP1')])).toEqual(['N\r\n', 'q812\n', 'P1']);
  });

  it('reads GW payloads containing CR/LF across pushes, with the optional terminator', () => {
    const input = bytes('GW1,2,1,5,\r\n\n\rX\r\nP1\r\n');
    const whole = tokens([input]);
    expect(whole).toEqual(['GW1,2,1,5,\r\n\n\rX\r\n', 'P1\r\n']);
    for (let i = 1; i < input.length; i++) expect(tokens([input.subarray(0, i), input.subarray(i)])).toEqual(whole);
  });

  it('GW without numeric header is an ordinary line', () => {
    expect(tokens([bytes('GWa,b,c,d,\r\nN\r\n')])).toEqual(['GWa,b,c,d,\r\n', 'N\r\n']);
  });

  it('reads GM data after the header line', () => {
    expect(tokens([bytes('GM"X"3\r\n\n\r\nN\r\n')])).toEqual(['GM"X"3\r\n\n\r\n', 'N\r\n']);
  });

  it('a truncated payload is flushed at the end', () => {
    expect(tokens([bytes('GW0,0,10,10,abc')])).toEqual(['GW0,0,10,10,abc']);
    const { job } = run('GW0,0,10,10,abc');
    expect(job.canvases[0].items[0]).toMatchObject({ type: 'debug', debugType: 'truncated', lengthInBytes: 15 });
    expect(job.errorMessages).toHaveLength(1);
  });
});
