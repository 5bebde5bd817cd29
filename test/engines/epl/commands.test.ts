import { describe, expect, it } from 'vitest';
import type { BoxElement, LineElement } from '../../../src/engines/canvas/model.ts';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { encodePcx } from '../../../src/engines/epl/graphics.ts';
import { accounted, bitmapOf, concat, context, debugs, drawn, images, lines, run, texts } from './helpers.ts';

const label = (...body: string[]): string => lines('N', 'q400', 'Q300,24', ...body, 'P1');

describe('label setup', () => {
  it('q and Q size the canvas; the printer context is the default', () => {
    expect(run(label()).job.canvases[0]).toMatchObject({ widthInDots: 400, heightInDots: 300 });
    const { job } = run(lines('N', 'A10,10,0,1,1,1,N,"X"', 'P1'), { ctx: context({ widthInDots: 640, heightInDots: 480 }) });
    expect(job.canvases[0]).toMatchObject({ widthInDots: 640, heightInDots: 480 });
  });

  it('uses the content extent when neither Q nor the printer gives a length', () => {
    const { job } = run(lines('N', 'A10,10,0,3,1,2,N,"X"', 'P1'), { ctx: context({ heightInDots: null }) });
    expect(job.canvases[0].heightInDots).toBe(50);
  });

  it('Q accepts continuous media and black marks', () => {
    const { job } = run(lines('N', 'Q600,0', 'P1', 'Q500,B24,+10', 'P1'));
    expect(job.errorMessages).toEqual([]);
    expect(job.canvases.map((c) => c.heightInDots)).toEqual([600, 500]);
    expect(debugs(job)[1].commandDescription[1]).toContain('continuous');
    expect(debugs(job)[3].commandDescription[1]).toContain('black mark');
  });

  it('R moves the reference point of every object', () => {
    const { job } = run(label('R50,20', 'A10,10,0,1,1,1,N,"X"', 'LO0,0,10,10'));
    const c = job.canvases[0];
    expect(texts(c)[0]).toMatchObject({ x: 60, y: 30 });
    expect(drawn(c)[1]).toMatchObject({ type: 'box', x: 50, y: 20 });
  });

  it('ZB turns the label 180 degrees', () => {
    const { job } = run(label('ZB', 'A10,20,0,2,1,1,N,"AB"', 'LO0,0,100,4', 'GW300,200,1,8,' + '\u0000'.repeat(8)));
    const c = job.canvases[0];
    // Text box 24x16 at (10,20) -> (400-10-24, 300-20-16), glyphs upside down.
    expect(texts(c)[0]).toMatchObject({ x: 366, y: 264, width: 24, height: 16, rotation: '180' });
    expect(drawn(c).find((e) => e.type === 'box')).toMatchObject({ x: 300, y: 296, width: 100, height: 4 });
    expect(images(c)[0]).toMatchObject({ x: 92, y: 92, width: 8, height: 8, rotation: '180' });
    // ZT turns it back.
    const back = run(label('ZB', 'ZT', 'A10,20,0,2,1,1,N,"AB"')).job.canvases[0];
    expect(texts(back)[0]).toMatchObject({ x: 10, y: 20, rotation: 'none' });
  });

  it('settings that only configure become debug elements', () => {
    const { job } = run(label('S3', 'D12', 'OD', 'JF', 'JB', 'I8,1,001', 'TTh:m', 'TDdd/mm/yy'));
    expect(job.errorMessages).toEqual([]);
    const d = debugs(job).map((x) => x.commandDescription[0]);
    expect(d).toEqual(['N', 'q400', 'Q300,24', 'S3', 'D12', 'OD', 'JF', 'JB', 'I8,1,001', 'TTh:m', 'TDdd/mm/yy', 'P1']);
    expect(debugs(job).every((x) => x.debugType === 'command')).toBe(true);
  });

  it('I selects the code page used for text', () => {
    const { job } = run(label('I8,1,001', 'A10,10,0,2,1,1,N,"\u0081\u0094"', 'I8,A,001', 'A10,40,0,2,1,1,N,"\u00e9\u0080"'));
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['üö', 'é€']);
  });
});

describe('A (text)', () => {
  it('describes the command and positions font 3 text', () => {
    const { job } = run(label('A50,30,0,3,1,1,N,"HELLO"'));
    const d = debugs(job)[3];
    expect(d.commandDescription).toEqual(['A50,30,0,3,1,1,N,"HELLO"', 'Text, font 3 at (50,30): "HELLO"']);
    expect(d.commandRaw).toBe('4135302C33302C302C332C312C312C4E2C2248454C4C4F220D0A');
    expect(texts(job.canvases[0])[0]).toMatchObject({
      type: 'text', text: 'HELLO', x: 50, y: 30, width: 70, height: 20, fontName: 'EplFont3', charSpacing: 2,
      charScaleX: 1, charScaleY: 1, rotation: 'none', isReverse: false,
    });
  });

  it('has the real cell sizes of fonts 1 to 5', () => {
    const { job } = run(label(...[1, 2, 3, 4, 5].map((f) => `A0,${f * 50},0,${f},1,1,N,"AB"`)));
    const sizes = texts(job.canvases[0]).map((t) => [t.fontName, t.width, t.height]);
    expect(sizes).toEqual([
      ['EplFont1', 20, 12],
      ['EplFont2', 24, 16],
      ['EplFont3', 28, 20],
      ['EplFont4', 32, 24],
      ['EplFont5', 72, 48],
    ]);
  });

  it('applies multipliers and reverse', () => {
    const { job } = run(label('A10,10,0,2,3,4,R,"AB"'));
    expect(texts(job.canvases[0])[0]).toMatchObject({ width: 72, height: 64, charScaleX: 3, charScaleY: 4, charSpacing: 6, isReverse: true });
  });

  it('rotates about the start point', () => {
    const { job } = run(label('A200,100,0,1,1,1,N,"ABC"', 'A200,100,1,1,1,1,N,"ABC"', 'A200,100,2,1,1,1,N,"ABC"', 'A200,100,3,1,1,1,N,"ABC"'));
    const t = texts(job.canvases[0]).map((e) => [e.rotation, e.x, e.y, e.width, e.height]);
    expect(t).toEqual([
      ['none', 200, 100, 30, 12],
      ['90', 188, 100, 12, 30],
      ['180', 170, 88, 30, 12],
      ['270', 200, 70, 12, 30],
    ]);
  });

  it('handles escaped quotes and backslashes', () => {
    const { job } = run(label('A10,10,0,2,1,1,N,"say \\"hi\\" \\\\o/"'));
    expect(texts(job.canvases[0])[0].text).toBe('say "hi" \\o/');
  });

  it('expands time and date fields', () => {
    const { job } = run(label('A10,10,0,2,1,1,N,"T "TT" D "TD'));
    expect(texts(job.canvases[0])[0].text).toBe('T 03:04 D 01/02/26');
  });

  it('reports malformed text commands and still prints the rest', () => {
    const { job } = run(label('A10,10,0,9,1,1,N,"X"', 'A10,10,5,1,1,1,N,"X"', 'A10,10,0,1,7,1,N,"X"', 'A10,10,0,1,1,1,N,"open', 'A10,50,0,1,1,1,N,"OK"'));
    expect(job.errorMessages).toHaveLength(4);
    expect(debugs(job).filter((d) => d.debugType === 'malformed')).toHaveLength(4);
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['OK']);
  });
});

describe('lines and boxes', () => {
  it('LO, LW and LE are filled boxes with draw modes', () => {
    const { job } = run(label('LO10,20,100,5', 'LW15,20,10,5', 'LE20,10,5,30'));
    const boxes = drawn(job.canvases[0]) as BoxElement[];
    expect(boxes.map((b) => [b.x, b.y, b.width, b.height, b.isFilled, b.drawMode ?? 'black'])).toEqual([
      [10, 20, 100, 5, true, 'black'],
      [15, 20, 10, 5, true, 'white'],
      [20, 10, 5, 30, true, 'xor'],
    ]);
  });

  it('X draws a box with a line thickness', () => {
    const { job } = run(label('X10,20,3,110,220'));
    expect(drawn(job.canvases[0])[0]).toMatchObject({ type: 'box', x: 10, y: 20, width: 100, height: 200, thickness: 3, isFilled: false });
  });

  it('LS draws a diagonal line', () => {
    const { job } = run(label('LS10,10,4,200,150'));
    const l = drawn(job.canvases[0])[0] as LineElement;
    expect(l).toMatchObject({ type: 'line', x1: 10, y1: 10, x2: 200, y2: 150, thickness: 4 });
  });

  it('clips objects that overflow the label and reports them', () => {
    const { job } = run(label('LO300,10,200,10', 'LO500,500,10,10'));
    const boxes = drawn(job.canvases[0]) as BoxElement[];
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toMatchObject({ x: 300, width: 100 });
    expect(job.errorMessages.join('\n')).toMatch(/Line 4: LO: object exceeds the label and was clipped/);
    expect(job.errorMessages.join('\n')).toMatch(/Line 5: LO: object is entirely outside the label/);
  });
});

describe('graphics', () => {
  it('GW draws raw raster data (0 = black), split across pushes', () => {
    const data = '\u00ff\u0000\u000a\u000d';
    const input = lines('N', 'q400', 'Q300,24') + 'GW8,16,2,2,' + data + '\r\n' + lines('P1');
    const { job } = run(input, { chunk: 3 });
    const [img] = images(job.canvases[0]);
    expect(img).toMatchObject({ x: 8, y: 16, width: 16, height: 2, rotation: 'none' });
    const bmp = bitmapOf(img);
    expect([...Array(16)].map((_, x) => (bmp.get(x, 0) ? 1 : 0)).join('')).toBe('0000000011111111');
    expect([...Array(16)].map((_, x) => (bmp.get(x, 1) ? 1 : 0)).join('')).toBe('1111010111110010');
    expect(accounted(job)).toBe(input.length);
  });

  it('GM stores a PCX graphic, GG prints it, GK deletes it, GI lists', () => {
    const bmp = new Bitmap(20, 10);
    bmp.fillRect(0, 0, 10, 10);
    const pcx = encodePcx(bmp);
    const input = concat(`GM"BOX"${pcx.length}\r\n`, pcx, lines('GI', 'N', 'q400', 'Q300,24', 'GG30,40,"BOX"', 'P1', 'GK"BOX"', 'GG30,40,"BOX"', 'P1'));
    const { job, replies } = run(input, { chunk: 5 });
    const [img] = images(job.canvases[0]);
    expect(img).toMatchObject({ x: 30, y: 40, width: 20, height: 10 });
    const out = bitmapOf(img);
    expect(out.get(0, 0) && out.get(9, 9) && !out.get(10, 0)).toBe(true);
    expect(images(job.canvases[1])).toHaveLength(0);
    expect(job.errorMessages.join('\n')).toMatch(/graphic "BOX" not found/);
    expect(replies[0]).toMatch(/^BOX\r\n/);
    expect(accounted(job)).toBe(input.length);
  });
});

describe('forms, variables and counters', () => {
  it('FS/FE store, FR retrieves, FK deletes, FI lists', () => {
    const { job, replies } = run(
      lines('FS"F1"', 'V00,10,N,"Name"', 'q300', 'Q200,24', 'A10,10,0,2,1,1,N,"Hi "V00', 'FE', 'FI', 'FR"F1"', '?', 'Bob', 'P1', 'FK"F1"', 'FR"F1"'),
    );
    expect(replies[0]).toMatch(/^F1\r\n/);
    expect(job.canvases[0]).toMatchObject({ widthInDots: 300, heightInDots: 200 });
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['Hi Bob']);
    expect(job.errorMessages.join('\n')).toMatch(/form "F1" not found/);
  });

  it('P n,m prints n labels of m copies, counters advancing between labels', () => {
    const { job } = run(lines('FS"C"', 'C0,3,N,-2,"Start"', 'A10,10,0,2,1,1,N,C0', 'FE', 'FR"C"', '?', '10', 'P3,2'));
    expect(job.canvases.map((c) => texts(c)[0].text)).toEqual(['10', '10', '08', '08', '06', '06']);
  });

  it('justifies variables to their length', () => {
    const { job } = run(lines('FS"J"', 'V00,6,R,"a"', 'V01,6,L,"b"', 'V02,6,C,"c"', 'A0,0,0,1,1,1,N,"["V00"]["V01"]["V02"]"', 'FE', 'FR"J"', '?', 'ab', 'cd', 'ef', 'P1'));
    expect(texts(job.canvases[0])[0].text).toBe('[    ab][cd    ][  ef  ]');
  });
});

describe('printing and byte accounting', () => {
  it('each printed copy is one canvas; debug elements go with the first copy', () => {
    const { job } = run(label('A10,10,0,1,1,1,N,"X"').replace('P1', 'P2,3'));
    expect(job.canvases).toHaveLength(6);
    expect(job.canvases.slice(1).every((c) => c.items.every((i) => i.type !== 'debug'))).toBe(true);
    expect(job.canvases.every((c) => texts(c).length === 1)).toBe(true);
  });

  it('reports commands after the last P as not printed', () => {
    const { job } = run(label() + lines('A10,10,0,1,1,1,N,"late"', 'LO0,0,5,5'));
    const last = job.canvases[job.canvases.length - 1];
    const late = last.items.filter((i) => i.type === 'debug' && i.debugType === 'notPrinted');
    expect(late).toHaveLength(2);
    expect(job.errorMessages.join('\n')).toMatch(/2 command\(s\) after the last print command \(P\) were not printed/);
  });

  it('without any P, a canvas still carries every debug element', () => {
    const { job } = run(lines('N', 'A10,10,0,1,1,1,N,"X"'));
    expect(job.canvases).toHaveLength(1);
    expect(debugs(job).map((d) => d.debugType)).toEqual(['command', 'notPrinted']);
  });

  it('unknown lines, blank lines and stray bytes are accounted', () => {
    const input = '\r\n\n  \r\nNOPE\r\n\u0000\u00ff\r\nN\r\nP1\r\nunterminated';
    const { job } = run(input);
    expect(accounted(job)).toBe(input.length);
    expect(job.bytesReceived).toBe(input.length);
    expect(debugs(job).map((d) => d.debugType)).toEqual(['blank', 'blank', 'blank', 'unknown', 'unknown', 'command', 'command', 'unknown']);
    expect(job.errorMessages.filter((m) => /unknown command/.test(m))).toHaveLength(3);
  });

  it('caps pathological copy counts', () => {
    const { job } = run(label('A10,10,0,1,1,1,N,"X"').replace('P1', 'P65535,65535'), { session: { maxCanvases: 50 } });
    expect(job.canvases).toHaveLength(50);
    expect(job.errorMessages.join('\n')).toMatch(/print stopped after 50 labels/);
  });
});
