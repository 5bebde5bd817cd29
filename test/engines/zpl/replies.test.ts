/**
 * Host queries in the formats of the ZPL II Programming Guide (~HS three strings, ~HQES flag
 * groups with Zebra's bit values, ~HI, ~HM), reflecting the printer's flags at query time.
 */
import { describe, expect, it } from 'vitest';
import { labelPrinterContext } from '../../support/printer-context.ts';
import { newZplPrinterMemory, zpl } from './helpers.ts';

const flags = (over: Partial<{ isPaperOut: boolean; isCoverOpen: boolean; isOffline: boolean; isPaperNearEnd: boolean }>) =>
  labelPrinterContext({ flags: { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false, ...over } });

/** ~HS reply split into its three strings' fields. */
function hs(reply: string): string[][] {
  const m = /^\u0002([^\u0003]*)\u0003\r\n\u0002([^\u0003]*)\u0003\r\n\u0002([^\u0003]*)\u0003\r\n$/.exec(reply);
  expect(m).not.toBeNull();
  return [m![1].split(','), m![2].split(','), m![3].split(',')];
}

describe('~HS', () => {
  it('an idle printer: no paper out, not paused, head closed; label length and graphics count', () => {
    const [one, two, three] = hs(zpl('~HS').replies[0]);
    expect(one).toHaveLength(12);
    expect(one.slice(1, 4)).toEqual(['0', '0', '1218']);
    expect(two).toHaveLength(11);
    expect(two[2]).toBe('0');
    expect(two[9]).toBe('1'); // format while printing: always 1
    expect(three).toEqual(['0000', '0']);
  });

  it('paper out, head open and pause come from the flags and ~PP / ~PS', () => {
    expect(hs(zpl('~HS', { ctx: flags({ isPaperOut: true }) }).replies[0])[0][1]).toBe('1');
    expect(hs(zpl('~HS', { ctx: flags({ isCoverOpen: true }) }).replies[0])[1][2]).toBe('1');
    const memory = newZplPrinterMemory();
    const paused = zpl('~PP~HS', { memory });
    expect(hs(paused.replies[0])[0][2]).toBe('1');
    // The pause outlives the connection, as on a printer; ~PS resumes.
    expect(hs(zpl('~HS', { memory }).replies[0])[0][2]).toBe('1');
    expect(hs(zpl('~PS~HS', { memory }).replies[0])[0][2]).toBe('0');
  });

  it('^PQ with a pause count leaves the printer paused after printing', () => {
    const memory = newZplPrinterMemory();
    const { job, replies } = zpl('^XA^FO10,10^ADN^FDx^FS^PQ4,2^XZ~HS', { memory });
    expect(job.canvases).toHaveLength(4);
    expect(hs(replies[0])[0][2]).toBe('1');
    expect(hs(zpl('^XA^FO10,10^ADN^FDx^FS^PQ2,1,0,Y^XZ~PS~HS', { memory }).replies[0])[0][2]).toBe('0');
  });

  it('reports a partial format while one is being received, and ^LL as the label length', () => {
    const [one] = hs(zpl('^XA^LL800^FO0,0~HS').replies[0]);
    expect(one[3]).toBe('0800');
    expect(one[7]).toBe('1');
  });
});

describe('~HQES', () => {
  const parse = (r: string): { errors: [string, string, string]; warnings: [string, string, string] } => {
    expect(r.startsWith('\u0002\r\n')).toBe(true);
    expect(r).toContain('PRINTER STATUS');
    expect(r.endsWith('\u0003\r\n')).toBe(true);
    const e = /ERRORS:\s+([01]) ([0-9A-F]{8}) ([0-9A-F]{8})/.exec(r)!;
    const w = /WARNINGS:\s+([01]) ([0-9A-F]{8}) ([0-9A-F]{8})/.exec(r)!;
    return { errors: [e[1], e[2], e[3]], warnings: [w[1], w[2], w[3]] };
  };

  it('no errors on an idle printer', () => {
    expect(parse(zpl('~HQES').replies[0]).errors).toEqual(['0', '00000000', '00000000']);
  });

  it('media out is 1, head open 4, both 5; paper near end is warning 8', () => {
    expect(parse(zpl('~HQES', { ctx: flags({ isPaperOut: true }) }).replies[0]).errors).toEqual(['1', '00000000', '00000001']);
    expect(parse(zpl('~HQES', { ctx: flags({ isCoverOpen: true }) }).replies[0]).errors).toEqual(['1', '00000000', '00000004']);
    expect(parse(zpl('~HQES', { ctx: flags({ isCoverOpen: true, isPaperOut: true }) }).replies[0]).errors[2]).toBe('00000005');
    expect(parse(zpl('~HQES', { ctx: flags({ isPaperNearEnd: true }) }).replies[0]).warnings).toEqual(['1', '00000000', '00000008']);
    expect(parse(zpl('~PP~HQES').replies[0]).errors[2]).toBe('00010000');
  });

  it('is answered the moment it arrives, byte by byte', () => {
    const { replies } = zpl('^XA^FO10,10~HQES^FDx^FS^XZ', { chunk: 1 });
    expect(replies).toHaveLength(1);
  });
});

describe('identification and memory', () => {
  it('~HI: model, firmware, dots per mm, memory', () => {
    expect(zpl('~HI').replies[0]).toMatch(/^\u0002ZD421-200dpi,V[\d.]+Z,8,\d+KB\u0003\r\n$/);
    expect(zpl('~HI', { session: { dpi: 300 } }).replies[0]).toMatch(/,12,/);
  });

  it('~HM: total, maximum and available RAM; stored graphics use it', () => {
    const memory = newZplPrinterMemory();
    const before = /\u0002(\d+),(\d+),(\d+)\u0003/.exec(zpl('~HM', { memory }).replies[0])!.slice(1).map(Number);
    zpl(`~DGR:BIG.GRF,40000,100,${'F'.repeat(80000)}`, { memory });
    const after = /\u0002(\d+),(\d+),(\d+)\u0003/.exec(zpl('~HM', { memory }).replies[0])!.slice(1).map(Number);
    expect(after[0]).toBe(before[0]);
    expect(before[2] - after[2]).toBeGreaterThanOrEqual(39);
  });

  it('~WC prints the configuration label as a canvas', () => {
    const { job } = zpl('~WC');
    expect(job.canvases).toHaveLength(1);
    const lines = job.canvases[0].items.filter((i) => i.type === 'text').map((t) => (t as { text: string }).text);
    expect(lines[0]).toBe('PRINTER CONFIGURATION');
    expect(lines.some((l) => /PRINT WIDTH$/.test(l))).toBe(true);
    expect(job.isStatusPoll).toBe(false);
  });

  it('^HH returns the configuration; ~HQHA the MAC address', () => {
    const hh = zpl('^XA^PW600^HH^XZ').replies[0];
    expect(hh).toMatch(/600\s+PRINT WIDTH/);
    expect(hh).toMatch(/DARKNESS/);
    expect(hh).toMatch(/<>\s+5EH\s+COMMAND CHAR/);
    expect(zpl('^XA^CC+\n+HH+XZ').replies[0]).toMatch(/<>\s+2BH\s+COMMAND CHAR/);
    expect(zpl('~HQHA').replies[0]).toMatch(/MAC ADDRESS\r\n\s+([0-9a-f]{2}:){5}[0-9a-f]{2}/);
  });
});
