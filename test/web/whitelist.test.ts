import { describe, expect, it } from 'vitest';
import { addEntry, isCovered, parseWhitelist } from '../../web/src/whitelist.ts';
import { parseRange } from '../../src/shared/whitelist.ts';

describe('whitelist entries', () => {
  it('parses commas, newlines and comments', () => {
    const r = parseWhitelist('10.0.0.0/8, 192.168.1.20 # till\n# office\n::1\n2001:db8::/32,\n');
    expect(r.entries).toEqual(['10.0.0.0/8', '192.168.1.20', '::1', '2001:db8::/32']);
    expect(r.problems).toEqual([]);
  });

  it('names invalid entries with their line', () => {
    const r = parseWhitelist('10.0.0.1\n300.1.1.1, fe80::1::2\n10.0.0.0/33');
    expect(r.problems.map((p) => [p.line, p.entry])).toEqual([[2, '300.1.1.1'], [2, 'fe80::1::2'], [3, '10.0.0.0/33']]);
    expect(r.problems[0].message).toContain('300.1.1.1');
  });

  it('refuses an IPv6 zone, which no client address carries (issue 32)', () => {
    const r = parseWhitelist('fe80::1%eth0\nfe80::/10%1');
    expect(r.entries).toEqual([]);
    expect(r.problems.map((p) => p.entry)).toEqual(['fe80::1%eth0', 'fe80::/10%1']);
    expect(r.problems[0].message).toContain('%eth0');
  });

  it('reads IPv6 forms, including embedded and mapped IPv4', () => {
    expect(parseRange('2001:0db8:0000:0000:0000:0000:0000:0001')?.[1]).toBe(128);
    expect(parseRange('::ffff:192.168.0.1')?.[0].toString()).toBe('192.168.0.1');
    expect(parseWhitelist('::ffff:10.0.0.0/104').entries).toEqual(['10.0.0.0/8']);
    expect(parseRange('64:ff9b::1.2.3.4')?.[0].kind()).toBe('ipv6');
    expect(parseRange('1:2:3:4:5:6:7')).toBeNull();
    expect(parseRange('1.2.3')).toBeNull();
  });

  it('checks coverage and adds entries', () => {
    expect(isCovered('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isCovered('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
    expect(isCovered('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isCovered('2001:db8::5', ['2001:db8::/32'])).toBe(true);
    expect(isCovered('0.0.0.1', ['0.0.0.0/0'])).toBe(true);
    expect(addEntry('# tills\n10.0.0.1\n', '10.0.0.2')).toBe('# tills\n10.0.0.1\n10.0.0.2');
    expect(addEntry('', '::1')).toBe('::1');
  });
});
