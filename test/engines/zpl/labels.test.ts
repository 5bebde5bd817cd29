/** ZPL engine behaviour: framing, fields, fonts, graphics, formats, copies, memory, character sets. */
import { describe, expect, it } from 'vitest';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { getModel } from '../../../src/engines/models/index.ts';
import { labelPrinterContext } from '../../support/printer-context.ts';
import { accounted, boxes, debugs, images, newZplPrinterMemory, texts, zpl } from './helpers.ts';
import { bitmapOf } from './helpers.ts';

describe('framing', () => {
  it('accounts for every byte, whatever the chunking, and resyncs after unknown commands', () => {
    const src = '\r\n^XA\r\n^FO10,10^ZZ1,2,3^A0N,30,30^FDstill printed^FS\r\n~QQ^FO10,60^ADN^FDafter^FS^XZ\r\n';
    for (const chunk of [1, 3, 1000]) {
      const { job } = zpl(src, { chunk });
      expect(accounted(job)).toBe(src.length);
      expect(job.bytesReceived).toBe(src.length);
      expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['still printed', 'after']);
      expect(job.errorMessages).toEqual(['Unknown command ^ZZ (ignored)', 'Unknown command ~QQ (ignored)']);
      expect(debugs(job).filter((d) => d.debugType === 'unknown')).toHaveLength(2);
    }
  });

  it('accepts lower-case commands, spaces after codes and commas in field data', () => {
    const { job } = zpl('^xa^fo 20,30^a0n,40,40^fdSmith, John^fs^xz');
    expect(job.errorMessages).toEqual([]);
    const [t] = texts(job.canvases[0]);
    expect(t).toMatchObject({ text: 'Smith, John', x: 20, y: 30, height: 40 });
  });

  it('changes the format and control prefixes and the delimiter (^CC, ~CT, ^CD)', () => {
    const { job, replies } = zpl('^XA^CC+\n+FO10,10+ADN+FDplus prefix+FS\n+CT#\n#HS\n+CD;\n+FO10;50+A0N;30;30+FDa,b+FS+XZ');
    expect(job.errorMessages).toEqual([]);
    expect(texts(job.canvases[0]).map((t) => [t.text, t.y, t.height])).toEqual([['plus prefix', 10, 18], ['a,b', 50, 30]]);
    expect(replies).toHaveLength(1);
  });

  it('^FH decodes hex escapes in field data (default _ and a chosen character)', () => {
    const { job } = zpl('^XA^FO10,10^FH^FDA_5EB_7EC_41^FS^FO10,40^FH#^FDx#31y^FS^XZ');
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['A^B~CA', 'x1y']);
  });

  it('a job without ^XZ prints what it received and says so', () => {
    const { job } = zpl('^XA^FO10,10^ADN^FDopen');
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['open']);
    expect(job.errorMessages.join()).toMatch(/without \^XZ/);
  });

  it('settings commands are accepted without errors', () => {
    const { job } = zpl('^XA^MMT^MNY^MTD^MD10~SD15^PR4^PON^LRN^JUS^XZ');
    expect(job.errorMessages).toEqual([]);
    expect(debugs(job).every((d) => d.debugType === 'command')).toBe(true);
  });
});

describe('fields and fonts', () => {
  it('bitmap fonts take Zebra\'s matrices, magnified by whole multiples', () => {
    const { job } = zpl('^XA^FO10,10^AAN^FDAB^FS^FO10,30^ADN,36,20^FDAB^FS^FO10,80^AEN^FDAB^FS^XZ');
    const [a, d, e] = texts(job.canvases[0]);
    expect([a.height, a.width, a.fontName]).toEqual([9, 12, 'ZplFontA']); // 2 x (5 + 1 gap)
    expect([d.height, d.width, d.charScaleX]).toEqual([36, 48, 2]); // 2 x (10 + 2) x 2
    expect([e.height, e.width]).toEqual([28, 40]); // OCR-B 28 x 15, gap 5
  });

  it('^AGS selects the two-letter symbol font; an unknown font prints as font 0 and is reported', () => {
    const { job } = zpl('^XA^FO10,10^AGSN,48,48^FDA^FS^FO10,80^AZN,30,30^FDz^FS^XZ');
    const [gs, z] = texts(job.canvases[0]);
    expect([gs.fontName, gs.height, gs.rotation]).toEqual(['ZplFontGS', 48, 'none']);
    expect(z.fontName).toBe('ZplFont0');
    expect(job.errorMessages.join()).toMatch(/font Z is not a resident font/);
  });

  it('a 300 dpi printer uses the 12 dot/mm matrices (E is 42 x 20)', () => {
    const { job } = zpl('^XA^FO10,10^AEN^FDAB^FS^XZ', { session: { dpi: 300 } });
    expect(texts(job.canvases[0])[0].height).toBe(42);
  });

  it('^CF sets the default font; font 0 scales to the height and width given', () => {
    const { job } = zpl('^XA^CF0,60^FO10,10^FDDefault^FS^FO10,100^A0N,30,15^FDSmall^FS^XZ');
    const [big, small] = texts(job.canvases[0]);
    expect([big.fontName, big.height]).toEqual(['ZplFont0', 60]);
    expect([small.height, small.charScaleX]).toEqual([30, 1]);
    expect(small.width).toBeLessThan(big.width);
  });

  it('^FT places the baseline at y; ^FO the top', () => {
    const { job } = zpl('^XA^FT100,100^ADN^FDbase^FS^FO100,100^ADN^FDtop^FS^XZ');
    const [ft, fo] = texts(job.canvases[0]);
    expect(ft.y).toBe(100 - 14); // font D baseline 14
    expect(fo.y).toBe(100);
  });

  it('rotated text keeps its field origin as the top-left of the turned box', () => {
    const { job } = zpl('^XA^FO200,100^ADR^FDrot^FS^FO200,300^ADI^FDinv^FS^XZ');
    const [r, i] = texts(job.canvases[0]);
    expect(r).toMatchObject({ x: 200, y: 100, width: 18, height: 36, rotation: '90' });
    expect(i).toMatchObject({ x: 200, y: 300, rotation: '180' });
  });

  it('^FW sets the default orientation; ^LH moves the origin', () => {
    const { job } = zpl('^XA^FWR^LH50,60^FO10,10^ADN^FDn^FS^FO10,10^AD^FDr^FS^XZ');
    const [n, r] = texts(job.canvases[0]);
    expect(n).toMatchObject({ x: 60, y: 70, rotation: 'none' });
    expect(r.rotation).toBe('90');
  });

  it('^FB wraps, centres and limits lines; \\& breaks', () => {
    const { job } = zpl('^XA^FO0,0^FB240,3,0,C^ADN^FDone two three four five six seven eight nine^FS^FO0,200^FB400,4^ADN^FDa\\&b^FS^XZ');
    const lines = texts(job.canvases[0]);
    const block = lines.slice(0, 3);
    expect(block).toHaveLength(3);
    for (const l of block) {
      expect(l.width).toBeLessThanOrEqual(240 + 12 * 20);
      expect(Math.abs(l.x + l.width / 2 - 120)).toBeLessThanOrEqual(6);
    }
    expect(block.map((l) => l.y)).toEqual([0, 18, 36]);
    expect(lines.slice(3).map((l) => [l.text, l.y])).toEqual([['a', 200], ['b', 218]]);
  });

  it('^FR and ^LR print fields reversed', () => {
    const { job } = zpl('^XA^FO0,0^GB200,60,60^FS^FO10,10^FR^ADN^FDwhite^FS^LRY^FO0,100^GB100,20,20^FS^XZ');
    const c = job.canvases[0];
    // XOR with the label (Zebra's reverse), not a white-on-black box of its own.
    expect(texts(c)[0].drawMode).toBe('xor');
    expect(texts(c)[0].isReverse).toBe(false);
    expect(boxes(c)[1].drawMode).toBe('xor');
  });
});

describe('character sets', () => {
  it('^CI28 prints UTF-8; the default ^CI0 is Code Page 850', () => {
    const utf8 = zpl('^XA^CI28^FO10,10^A0N,30,30^FDGrüße aus Köln: 5 € ✓^FS^XZ');
    expect(utf8.job.errorMessages).toEqual([]);
    expect(texts(utf8.job.canvases[0])[0].text).toBe('Grüße aus Köln: 5 € ✓');
    const cp850 = zpl(Uint8Array.from([...new TextEncoder().encode('^XA^FO10,10^ADN^FD'), 0x81, 0x9a, ...new TextEncoder().encode('^FS^XZ')]));
    expect(texts(cp850.job.canvases[0])[0].text).toBe('üÜ');
  });

  it('the model decides: ^CI33 is Windows-1251 and a ZT411 300 dpi prints 12 dot/mm fonts', () => {
    const model = getModel('zebra-zt411-300')!;
    const ctx: PrinterContext = labelPrinterContext({ model });
    const { job, replies } = zpl(Uint8Array.from([...new TextEncoder().encode('^XA^CI33^FO10,10^AEN^FD'), 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, ...new TextEncoder().encode('^FS^XZ~HI')]), { ctx });
    expect(job.errorMessages).toEqual([]);
    expect(texts(job.canvases[0])[0]).toMatchObject({ text: 'Привет', height: 42 });
    expect(replies[0]).toMatch(/^\u0002ZT411-300dpi,[^,]+,12,/);
  });

  it('^CI remaps characters: ^CI0,36,33 makes ! print $', () => {
    const { job } = zpl('^XA^CI0,36,33^FO10,10^ADN^FDPrice: 5!^FS^XZ');
    expect(texts(job.canvases[0])[0].text).toBe('Price: 5$');
  });

  it('^CI27 is Windows-1252; a reserved set is reported', () => {
    const w = zpl(Uint8Array.from([...new TextEncoder().encode('^XA^CI27^FO10,10^ADN^FD'), 0x80, 0xe9, ...new TextEncoder().encode('^FS^XZ')]));
    expect(texts(w.job.canvases[0])[0].text).toBe('€é');
    expect(zpl('^XA^CI20^XZ').job.errorMessages.join()).toMatch(/reserved.*not emulated/);
  });
});

describe('graphics', () => {
  it('^GB draws boxes and lines; thickness fills small boxes; rounding makes an image', () => {
    const { job } = zpl('^XA^FO10,10^GB200,100,4^FS^FO10,200^GB300,0,3^FS^FO10,300^GB50,50,25^FS^FO300,300^GB100,80,4,B,4^FS^XZ');
    const [frame, line, filled] = boxes(job.canvases[0]);
    expect(frame).toMatchObject({ x: 10, y: 10, width: 200, height: 100, thickness: 4, isFilled: false });
    expect(line).toMatchObject({ width: 300, height: 3, isFilled: true });
    expect(filled.isFilled).toBe(true);
    const [rounded] = images(job.canvases[0]);
    expect(rounded).toMatchObject({ x: 300, y: 300, width: 100, height: 80 });
    const bmp = bitmapOf(rounded);
    expect(bmp.get(0, 0)).toBe(false); // the corner is rounded off
    expect(bmp.get(50, 1)).toBe(true);
  });

  it('^GC, ^GE and ^GD draw circles, ellipses and diagonals', () => {
    const { job } = zpl('^XA^FO10,10^GC100,4^FS^FO200,10^GE150,80,3^FS^FO400,10^GD100,50,3,B,L^FS^XZ');
    const [c, e, d] = images(job.canvases[0]).map(bitmapOf);
    expect([c.width, c.height, c.get(50, 1), c.get(50, 50)]).toEqual([100, 100, true, false]);
    expect([e.width, e.height]).toEqual([150, 80]);
    expect([d.get(0, 0), d.get(99, 49), d.get(99, 0)]).toEqual([true, true, false]);
  });

  it('^GF ASCII hex with compression letters, B64 and binary give the same raster', () => {
    // 16 x 3 dots: row 1 all black, row 2 left half, row 3 = row 2.
    const hex = zpl('^XA^FO0,0^GFA,6,6,2,FFFF\nFF00\nFF00^FS^XZ');
    const compressed = zpl('^XA^FO0,0^GFA,6,6,2,JF\nHFH0\n:^FS^XZ');
    const b64 = zpl(`^XA^FO0,0^GFA,6,6,2,:B64:${btoa(String.fromCharCode(0xff, 0xff, 0xff, 0, 0xff, 0))}^FS^XZ`);
    const bin = zpl(Uint8Array.from([...new TextEncoder().encode('^XA^FO0,0^GFB,6,6,2,'), 0xff, 0xff, 0xff, 0, 0xff, 0, ...new TextEncoder().encode('^FS^XZ')]));
    const want = bitmapOf(images(hex.job.canvases[0])[0]);
    expect([want.width, want.height, want.get(15, 0), want.get(7, 2), want.get(8, 2)]).toEqual([16, 3, true, true, false]);
    for (const r of [compressed, b64, bin]) {
      expect(r.job.errorMessages).toEqual([]);
      expect(Array.from(bitmapOf(images(r.job.canvases[0])[0]).pixels)).toEqual(Array.from(want.pixels));
    }
  });
});

describe('formats, copies and printer memory', () => {
  it('^PQ3 prints three canvases; debug elements go into the first', () => {
    const { job } = zpl('^XA^FO10,10^ADN^FDcopy^FS^PQ3^XZ');
    expect(job.canvases).toHaveLength(3);
    for (const c of job.canvases) expect(texts(c).map((t) => t.text)).toEqual(['copy']);
    expect(job.canvases[1].items.some((i) => i.type === 'debug')).toBe(false);
  });

  it('several formats in one connection are several labels', () => {
    const { job } = zpl('^XA^FO10,10^ADN^FDone^FS^XZ^XA^FO10,10^ADN^FDtwo^FS^XZ');
    expect(job.canvases.map((c) => texts(c)[0].text)).toEqual(['one', 'two']);
  });

  it('^SN counts up per copy, with leading zeros', () => {
    const { job } = zpl('^XA^FO10,10^ADN^SNSN-0098,1,Y^FS^PQ3^XZ');
    expect(job.canvases.map((c) => texts(c)[0].text)).toEqual(['SN-0098', 'SN-0099', 'SN-0100']);
  });

  it('^DF stores a format that ^XF recalls in a later connection, with ^FN data', () => {
    const memory = newZplPrinterMemory();
    const store = zpl('^XA^DFR:SHIP.ZPL^FS^FO20,20^A0N,40,40^FN1^FDdefault^FS^FO20,80^ADN^FN2^FS^XZ', { memory });
    expect(store.job.canvases.flatMap(texts)).toEqual([]);
    const recall = zpl('^XA^XFR:SHIP.ZPL^FS^FN1^FDJane Receiver^FS^FN2^FDNew York^FS^XZ', { memory });
    expect(recall.job.errorMessages).toEqual([]);
    expect(texts(recall.job.canvases[0]).map((t) => [t.text, t.x, t.y])).toEqual([['Jane Receiver', 20, 20], ['New York', 20, 80]]);
    expect(zpl('^XA^XFR:OTHER.ZPL^FS^XZ', { memory }).job.errorMessages.join()).toMatch(/not in printer memory/);
  });

  it('~DG graphics persist across connections for ^XG and ^IM; ^ID and ^EG delete them', () => {
    const memory = newZplPrinterMemory();
    zpl('~DGR:LOGO.GRF,4,2,FFFF0F0F', { memory });
    const { job } = zpl('^XA^FO10,10^XGR:LOGO.GRF,2,2^FS^FO100,10^IMR:LOGO.GRF^FS^XZ', { memory });
    expect(job.errorMessages).toEqual([]);
    expect(images(job.canvases[0]).map((i) => [i.width, i.height])).toEqual([[32, 4], [16, 2]]);
    zpl('^XA^IDR:LOGO.GRF^FS^XZ', { memory });
    expect(zpl('^XA^FO10,10^XGR:LOGO.GRF^FS^XZ', { memory }).job.errorMessages.join()).toMatch(/not in printer memory/);
    zpl('~DGR:A.GRF,2,2,FFFF~DGR:B.GRF,2,2,FFFF', { memory });
    expect(memory.graphics.size).toBe(2);
    zpl('^XA^EG^XZ', { memory });
    expect(memory.graphics.size).toBe(0);
  });

  it('printer memory is finite: a graphic that does not fit is refused, ^ID frees room', () => {
    const memory = newZplPrinterMemory();
    const opts = { memory, session: { identity: { memoryKb: 16 } } }; // 12 KB for the user
    const big = `~DGR:BIG.GRF,8000,100,${'F'.repeat(16000)}`;
    expect(zpl(big, opts).job.errorMessages).toEqual([]);
    const second = zpl(big.replace('BIG', 'TWO'), opts);
    expect(second.job.errorMessages.join()).toMatch(/memory is full/);
    expect(memory.graphics.has('R:TWO.GRF')).toBe(false);
    expect(zpl(big, opts).job.errorMessages).toEqual([]); // replacing an object reuses its room
    zpl('^XA^IDR:BIG.GRF^FS^XZ', opts);
    expect(zpl(big.replace('BIG', 'TWO'), opts).job.errorMessages).toEqual([]);
  });

  it('~DY stores a PNG object that ^XG prints', async () => {
    const { encode } = await import('fast-png');
    const png = encode({ width: 8, height: 2, data: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255]), channels: 1, depth: 8 });
    const hex = Array.from(png, (b) => b.toString(16).padStart(2, '0')).join('');
    const memory = newZplPrinterMemory();
    zpl(`~DYR:ICON,A,P,${png.length},,${hex}`, { memory });
    const { job } = zpl('^XA^FO5,5^XGR:ICON.PNG^FS^XZ', { memory });
    expect(job.errorMessages).toEqual([]);
    const bmp = bitmapOf(images(job.canvases[0])[0]);
    expect([bmp.get(0, 0), bmp.get(0, 1)]).toEqual([true, false]);
  });

  it('^SF counts with a mask (decimal and letters), ^SN steps with replicates from ^PQ', () => {
    const sf = zpl('^XA^FO10,10^ADN^FDAB08^SFAADD,1^FS^PQ3^XZ');
    expect(sf.job.canvases.map((c) => texts(c)[0].text)).toEqual(['AB08', 'AB09', 'AB10']);
    const rep = zpl('^XA^FO10,10^ADN^SN7,1,N^FS^PQ4,0,1^XZ');
    expect(rep.job.canvases.map((c) => texts(c)[0].text)).toEqual(['7', '7', '8', '8']);
  });

  it('~DG accepts Z64 data; ~DY accepts binary GRF data', async () => {
    const { zlibSync } = await import('fflate');
    const { crc16Xmodem } = await import('../../../src/engines/zpl/graphic-data.ts');
    const b64 = btoa(String.fromCharCode(...zlibSync(Uint8Array.of(0xff, 0x00, 0x0f, 0xf0))));
    const memory = newZplPrinterMemory();
    zpl(`~DGR:Z.GRF,4,2,:Z64:${b64}:${crc16Xmodem(b64).toString(16).padStart(4, '0')}`, { memory });
    zpl(Uint8Array.from([...new TextEncoder().encode('~DYR:BIN,B,G,4,2,'), 0xff, 0x5e, 0x7e, 0x00]), { memory });
    const { job } = zpl('^XA^FO0,0^XGR:Z.GRF^FS^FO0,10^XGR:BIN.GRF^FS^XZ', { memory });
    expect(job.errorMessages).toEqual([]);
    const [z, bin] = images(job.canvases[0]).map(bitmapOf);
    expect([z.get(0, 0), z.get(8, 0), z.get(4, 1), z.get(8, 1), z.get(12, 1)]).toEqual([true, false, true, true, false]);
    expect([bin.get(0, 0), bin.get(9, 0), bin.get(8, 0)]).toEqual([true, true, false]); // 0x5E = 01011110
  });

  it('a 600 dpi printer doubles the default QR magnification to 6', () => {
    const at203 = images(zpl('^XA^FO0,0^BQN^FDQA,abc^FS^XZ').job.canvases[0])[0];
    const at600 = images(zpl('^XA^FO0,0^BQN^FDQA,abc^FS^XZ', { session: { dpi: 600 } }).job.canvases[0])[0];
    expect(at600.width).toBe(at203.width * 3);
  });

  it('^FC prints the real-time clock in field data; ^GS prints the registered and copyright marks', () => {
    const now = () => new Date(2026, 10, 24, 14, 5, 9);
    const { job } = zpl('^XA^FO10,10^ADN^FC%^FDPrinted %Y-%m-%d %H:%M:%S (%a, day %j)^FS^FO10,40^GSN,30,30^FDAB^FS^XZ', { session: { now } });
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['Printed 2026-11-24 14:05:09 (Tue, day 328)', '®©']);
  });

  it('^LS shifts fields left and ^LT down; ^TB wraps in its box', () => {
    const { job } = zpl('^XA^LS20^LT10^FO100,100^GB50,50,2^FS^FO0,300^TBN,110,40^ADN^FDone two three four^FS^XZ');
    expect(boxes(job.canvases[0])[0]).toMatchObject({ x: 80, y: 110 });
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['one two', 'three']);
  });

  it('~JA cancels the format being received', () => {
    const { job } = zpl('^XA^FO10,10^ADN^FDcancelled^FS~JA^XA^FO10,10^ADN^FDkept^FS^XZ');
    expect(job.canvases.flatMap(texts).map((t) => t.text)).toEqual(['kept']);
  });

  it('^PO I turns the label 180 degrees', () => {
    const { job } = zpl('^XA^POI^PW400^LL300^FO10,20^GB100,50,2^FS^XZ');
    expect(boxes(job.canvases[0])[0]).toMatchObject({ x: 290, y: 230, width: 100, height: 50 });
  });

  it('^XA^XZ feeds one blank label; a format of settings alone prints nothing', () => {
    const feed = zpl('^XA^XZ');
    expect(feed.job.canvases).toHaveLength(1);
    expect(feed.job.canvases[0].items.filter((i) => i.type !== 'debug')).toEqual([]);
    expect(feed.job.isStatusPoll).toBe(false);
    const settings = zpl('^XA^MD10^PW600^XZ');
    expect(settings.job.canvases.flatMap((c) => c.items).every((i) => i.type === 'debug')).toBe(true);
    expect(settings.job.isStatusPoll).toBe(true);
  });

  it('a job of ~HS alone is a status poll', () => {
    const { job, replies } = zpl('~HS');
    expect(replies).toHaveLength(1);
    expect(job.isStatusPoll).toBe(true);
  });
});
