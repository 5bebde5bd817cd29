import { describe, expect, it } from 'vitest';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { getModel } from '../../../src/engines/models/index.ts';
import { createStarSession } from '../../../src/engines/star/index.ts';
import { concatBytes, latin1 } from '../../support/printer-context.ts';
import { all, bitmapOf, byteAccounting, context, images, printedLines, run, texts } from './helpers.ts';

const ESC = '\x1b', GS = '\x1d', RS = '\x1e';
const bytes = (...parts: (string | number[])[]) => concatBytes(...parts.map((p) => (typeof p === 'string' ? p : Uint8Array.from(p))));
const hex = (u: Uint8Array) => Array.from(u, (b) => b.toString(16).padStart(2, '0')).join(' ');

describe('Star status over a session', () => {
  it('ENQ, EOT and ESC ACK SOH answer at once, from the state at that moment', () => {
    const ctx = context();
    const s = createStarSession('StarPrnt', () => ctx);
    expect(s.push(latin1('\x05')).replies.map(hex)).toEqual(['20']);
    ctx.flags.isPaperOut = true;
    ctx.drawer1State = 'OpenedManually';
    expect(s.push(latin1('\x05\x04')).replies.map(hex)).toEqual(['a8', '18']);
    expect(s.push(latin1(`${ESC}\x06\x01`)).replies.map(hex)).toEqual(['23 06 0c 00 00 08 00 00 00']);
    const job = s.finish();
    expect(job.errorMessages).toEqual([]);
    expect(job.isStatusPoll).toBe(true);
  });

  it('ESC RS a 1 sends the ASB now and again on every change while connected; ESC RS a 0 stops it', () => {
    const ctx = context();
    const s = createStarSession('StarLine', () => ctx);
    expect(s.push(latin1(`${ESC}${RS}a1`)).replies.map(hex)).toEqual(['23 06 00 00 00 00 00 00 00']);
    expect(s.contextChanged().replies).toEqual([]); // nothing changed
    ctx.flags.isCoverOpen = true;
    expect(s.contextChanged().replies.map(hex)).toEqual(['23 06 28 00 00 00 00 00 00']);
    ctx.drawer1State = 'OpenedByCommand';
    expect(s.contextChanged().replies.map(hex)).toEqual(['23 06 2c 00 00 00 00 00 00']);
    s.push(latin1(`${ESC}${RS}a0`));
    ctx.flags.isCoverOpen = false;
    expect(s.contextChanged().replies).toEqual([]);
  });

  it('ETB counts up in the ASB; its "executed" bit is cleared once reported (StarIO checked blocks)', () => {
    const { out } = run('StarPrnt', latin1(`${ESC}${RS}a1\x17\x17${ESC}\x06\x01`));
    expect(out.replies.map(hex)).toEqual(['23 06 00 00 00 00 00 00 00', '23 06 02 00 00 00 00 02 00', '23 06 02 00 00 00 00 04 00', '23 06 00 00 00 00 00 04 00']);
    // Without ESC RS a, a checked block polls with ESC ACK SOH after ETB.
    const polled = run('StarLine', latin1(`receipt\n\x17${ESC}\x06\x01${ESC}\x06\x01`)).out.replies.map(hex);
    expect(polled).toEqual(['23 06 02 00 00 00 00 02 00', '23 06 00 00 00 00 00 02 00']);
  });

  it('ESC # * LF NUL answers with the model identity', () => {
    const reply = (language: 'StarPrnt' | 'StarLine', ctx: PrinterContext) =>
      new TextDecoder().decode(run(language, latin1(`${ESC}#*\n\0`), ctx).out.replies[0]);
    expect(reply('StarPrnt', context())).toBe('\x1b#*,TSP100IV Ver1.0\n\0');
    expect(reply('StarLine', context())).toBe('\x1b#*,TSP650II Ver1.0\n\0');
    const mc = { ...context(), model: getModel('star-mc-print2') } as PrinterContext;
    expect(reply('StarPrnt', mc)).toBe('\x1b#*,mC-Print2 Ver1.0\n\0');
  });

  it('other ESC # memory switch commands are framed to their NUL', () => {
    const data = latin1(`${ESC}#3,0000\n\0after\n`);
    const { job } = run('StarLine', data);
    expect(job.errorMessages).toEqual([]);
    expect(printedLines(job)).toEqual([['after']]);
  });
});

describe('Star drawers and cuts', () => {
  it('BEL and FS drive drawer 1, SUB and EM drawer 2; ESC BEL sets the pulse', () => {
    const { job, out } = run('StarPrnt', latin1(`${ESC}\x07\x14\x14\x07\x1c\x1a\x19`));
    expect(out.events).toEqual([1, 1, 2, 2].map((drawer) => ({ type: 'drawerKick', drawer })));
    expect(job.errorMessages).toEqual([]);
  });

  it('ESC d 0..3 cut (ASCII digits too); another n is an error', () => {
    const { job } = run('StarLine', latin1(`one\n${ESC}d\x00two\n${ESC}d1three\n${ESC}d\x03four\n${ESC}d9`));
    expect(printedLines(job)).toEqual([['one'], ['two'], ['three'], ['four']]);
    expect(job.errorMessages).toEqual(['Malformed command ESC d 57 at byte 28: ESC d 57: mode must be 0 to 3']);
  });
});

describe('Star characters', () => {
  it('sizes, emphasis, underline, inversion, upside-down and fonts reach the text elements', () => {
    const { job } = run('StarPrnt', latin1(
      `${ESC}i\x01\x02Big\n${ESC}i\x00\x00${ESC}W2${ESC}h1Wide\n${ESC}W0${ESC}h0\x0eSO\x14\n` +
      `${ESC}E${ESC}-\x01${ESC}4Styled${ESC}F${ESC}-\x00${ESC}5\n\x0fUpside\n\x12${ESC}${RS}F\x01Font B\n`,
    ));
    const t = (s: string) => texts(all(job)).find((e) => e.text === s)!;
    expect(t('Big')).toMatchObject({ charScaleY: 2, charScaleX: 3 });
    expect(t('Wide')).toMatchObject({ charScaleX: 3, charScaleY: 2 });
    expect(t('SO')).toMatchObject({ charScaleX: 2, charScaleY: 1 });
    expect(t('Styled')).toMatchObject({ isBold: true, isUnderline: true, isReverse: true });
    expect(t('Upside').isUpsideDown ?? t('Upside').rotation === '180').toBeTruthy();
    expect(t('Font B').fontName).toBe('FontB');
    expect(job.errorMessages).toEqual([]);
  });

  it('ESC GS t picks the code table by Star numbering; a number the model lacks is an error naming it', () => {
    const { job } = run('StarPrnt', bytes(`${ESC}${GS}t\x0a`, [0x8f, 0xe0, 0xa8, 0xa2, 0xa5, 0xe2], `\n${ESC}${GS}t\x20caf`, [0xe9], `\n${ESC}${GS}t\x03`));
    expect(printedLines(job)).toEqual([['Привет', 'café']]);
    expect(job.errorMessages).toEqual(['Malformed command ESC GS t 3 at byte 20: code page 3 is not a code table of the Star TSP100IV']);
  });

  it('ESC R selects an international character set', () => {
    const { job } = run('StarLine', latin1(`${ESC}R\x02[\\]\n`));
    expect(printedLines(job)).toEqual([['ÄÖÜ']]);
  });

  it('multi-byte text decodes with the model default (Shift-JIS) in Kanji mode', () => {
    const sjis = [0x93, 0xfa, 0x96, 0x7b]; // 日本
    const { job } = run('StarPrnt', bytes(`${ESC}$1`, sjis, `\n${ESC}$0A\n`));
    expect(printedLines(job)).toEqual([['日本', 'A']]);
  });
});

describe('Star position and page mode', () => {
  it('ESC GS a aligns, ESC l sets the left margin in characters', () => {
    const { job } = run('StarLine', latin1(`${ESC}${GS}a\x01Mid\n${ESC}${GS}a2Right\n${ESC}${GS}a0${ESC}l\x02Indented\n`));
    const t = (s: string) => texts(all(job)).find((e) => e.text === s)!;
    expect(t('Mid').x).toBe((576 - 36) / 2);
    expect(t('Right').x).toBe(576 - 60);
    expect(t('Indented').x).toBe(24);
  });

  it('StarPRNT page mode: text composed in the page prints when the page is printed', () => {
    const { job } = run('StarPrnt', latin1(`before\n${ESC}${GS}P0${ESC}${GS}P3\x00\x00\x00\x00\x40\x02\xc8\x00In page${ESC}${GS}P7after\n`));
    expect(printedLines(job)).toEqual([['before', 'In page', 'after']]);
    expect(job.errorMessages).toEqual([]);
  });

  it('Star Line Mode has page mode too (its specification has it, for the models that do)', () => {
    const { job } = run('StarLine', latin1(`${ESC}${GS}P0${ESC}${GS}P3\x00\x00\x00\x00\x40\x02\xc8\x00Page${ESC}${GS}P7`));
    expect(job.errorMessages).toEqual([]);
    expect(printedLines(job)).toEqual([['Page']]);
  });
});

describe('Star images and logos', () => {
  it('ESC K, ESC L, ESC X and ESC k bit images in the line', () => {
    const k = [ESC, 'K'].join('');
    const data = bytes(k, [4, 0, 0xff, 0, 0xff, 0], `\n${ESC}L`, [2, 0, 0xff, 0x81], `\n${ESC}X`, [1, 0, 0xff, 0xff, 0xff], `\n${ESC}k`, [2, 0, ...new Array(48).fill(0xf0)], '\n');
    const { job } = run('StarLine', data);
    expect(images(all(job)).map((i) => `${i.width}x${i.height}`)).toEqual(['8x16', '2x16', '1x24', '16x24']);
    expect(job.errorMessages).toEqual([]);
  });

  it('ESC GS S prints a raster graphic block', () => {
    const { job } = run('StarPrnt', bytes(`${ESC}${GS}S\x01`, [2, 0, 3, 0, 0], new Array(6).fill(0xaa)));
    const [img] = images(all(job));
    expect([img.width, img.height]).toEqual([16, 3]);
    expect(bitmapOf(img).get(0, 0)).toBe(true);
    expect(bitmapOf(img).get(1, 0)).toBe(false);
  });

  it('ESC FS q registers NV logos, ESC FS p prints one; an empty slot is an error', () => {
    const logo = [1, 0, 1, 0, ...new Array(8).fill(0xff)]; // 8x8 black
    const { job, out } = run('StarPrnt', bytes(`${ESC}\x1cq\x01`, logo, `${ESC}\x1cp\x01\x03${ESC}\x1cp\x05\x00`));
    expect(out.events.map((e) => e.type)).toEqual(['nvImageDefined']);
    expect(images(all(job)).map((i) => `${i.width}x${i.height}`)).toEqual(['16x16']);
    expect(job.errorMessages).toEqual([expect.stringContaining('logo 5 is not registered')]);
  });
});

describe('Star framing', () => {
  it('an unknown ESC GS sequence is one clear error and the text after it prints', () => {
    const { job } = run('StarPrnt', latin1(`${ESC}${GS}\x7fok\n`));
    expect(job.errorMessages).toEqual([expect.stringContaining('no Star command starts with 1B 1D 7F')]);
    expect(printedLines(job)).toEqual([['ok']]);
  });

  it('a barcode without its RS terminator is cut off at 255 bytes, not buffered forever', () => {
    const { job } = run('StarLine', latin1(`${ESC}b\x06\x01\x02\x40${'A'.repeat(400)}`));
    expect(job.errorMessages[0]).toContain('not terminated by RS');
    expect(byteAccounting(job)).toBe(6 + 400);
  });

  it('the same document whatever the chunking, every byte accounted, never a throw on random bytes', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let round = 0; round < 30; round++) {
      const data = Uint8Array.from({ length: 400 }, () => (rnd() < 0.3 ? [0x1b, 0x1d, 0x1e, 0x0a, 0x1c, 0x05][Math.floor(rnd() * 6)] : Math.floor(rnd() * 256)));
      for (const lang of ['StarPrnt', 'StarLine'] as const) {
        const whole = run(lang, data).job;
        const bytewise = run(lang, data, context(), 1).job;
        expect(byteAccounting(whole)).toBe(data.length);
        expect(whole.bytesReceived).toBe(data.length);
        expect(JSON.stringify(bytewise)).toBe(JSON.stringify(whole));
      }
    }
  });
});

describe('Star multi-byte text per settings.multiByteEncoding', () => {
  it('a GB18030 unit decodes multi-byte mode as GB18030, a Big5 unit as Big5', () => {
    const gb = [0xd6, 0xd0, 0xce, 0xc4]; // 中文 in GB18030
    const big5 = [0xa4, 0xa4, 0xa4, 0xe5]; // 中文 in Big5
    const withEncoding = (multiByteEncoding: string) => ({ ...context(), multiByteEncoding }) as PrinterContext;
    expect(printedLines(run('StarPrnt', bytes(`${ESC}$1`, gb, '\n'), withEncoding('Gb18030')).job)).toEqual([['中文']]);
    expect(printedLines(run('StarPrnt', bytes(`${ESC}$1`, big5, '\n'), withEncoding('Big5')).job)).toEqual([['中文']]);
  });
});

describe('Star fonts from the model', () => {
  it('Font B is 9x24 on Star models; Font C exists only where the model has it (SM-L200)', () => {
    const { job } = run('StarPrnt', latin1(`${ESC}${RS}F\x01Font B\n${ESC}${RS}F\x02C\n`));
    const b = texts(all(job)).find((e) => e.text === 'Font B')!;
    expect([b.width, b.height]).toEqual([6 * 9, 24]);
    expect(job.errorMessages).toEqual([expect.stringContaining('Font: parameter 2 is out of range')]);
    const sml = { ...context(), model: getModel('star-sm-l200') } as PrinterContext;
    const c = texts(all(run('StarPrnt', latin1(`${ESC}${RS}F\x02Font C\n`), sml).job)).find((e) => e.text === 'Font C')!;
    expect([c.fontName, c.height]).toEqual(['FontC', 17]);
  });
});

describe('Star raster mode (what the TSP100 drivers send)', () => {
  /** A driver-style job: rows of raster data, any byte values in them, then EOT and quit. */
  function rasterJob(): Uint8Array {
    const parts: number[] = [0x1b, 0x40, ...latin1(`${ESC}*rR${ESC}*rA${ESC}*rQ2\0${ESC}*rE1\0`)];
    for (let y = 0; y < 100; y++) {
      parts.push(0x62, 72, 0); // b n1 n2: 72 bytes = 576 dots
      for (let x = 0; x < 72; x++) parts.push(y < 50 ? (x % 2 ? 0x0a : 0x1b) : 0xff); // LF and ESC bytes as data
    }
    parts.push(0x05); // ENQ between rows is answered
    parts.push(...latin1(`${ESC}*rY20\0`));
    for (let y = 0; y < 30; y++) parts.push(0x62, 9, 0, ...new Array(9).fill(0xff));
    parts.push(0x1b, 0x0c, 0x04, ...latin1(`${ESC}*rBafter raster\n`));
    return Uint8Array.from(parts);
  }

  it('prints the raster page as one image, answers status inside raster mode, and prints text after it', () => {
    const data = rasterJob();
    const { job, out } = run('StarPrnt', data);
    expect(job.errorMessages).toEqual([]);
    expect(byteAccounting(job)).toBe(data.length);
    const [img] = images(all(job));
    expect([img.width, img.height]).toEqual([576, 150]);
    const bmp = bitmapOf(img);
    expect([bmp.get(3, 0), bmp.get(0, 0), bmp.get(0, 60), bmp.get(0, 110), bmp.get(71, 149), bmp.get(72, 149)]).toEqual([true, false, true, false, true, false]);
    expect(out.replies.map((r) => r.length)).toEqual([1]);
    // EOT mode 1: no cut, so the text follows on the same canvas.
    expect(printedLines(job)).toEqual([['after raster']]);
  });

  it('the same document whatever the chunking', () => {
    const data = rasterJob();
    const whole = JSON.stringify(run('StarLine', data).job);
    for (const chunk of [1, 3, 70, 500]) expect(JSON.stringify(run('StarLine', data, context(), chunk).job)).toBe(whole);
  });

  it('raster EOT cuts by default; a job ending in raster mode still prints its page, with an error', () => {
    const rows = Array.from({ length: 10 }, () => [0x62, 2, 0, 0xff, 0xff]).flat();
    const cut = run('StarPrnt', Uint8Array.from([...latin1(`${ESC}*rA`), ...rows, 0x1b, 0x0c, 0x04, ...latin1(`${ESC}*rBnext\n`)])).job;
    expect(cut.canvases).toHaveLength(2);
    expect(printedLines(cut)).toEqual([[], ['next']]);
    const open = run('StarPrnt', Uint8Array.from([...latin1(`${ESC}*rA`), ...rows])).job;
    expect(images(all(open)).map((i) => `${i.width}x${i.height}`)).toEqual(['16x10']);
    expect(open.errorMessages).toEqual([expect.stringContaining('Job ended in raster mode')]);
  });
});

describe('Star on hostile streams', () => {
  it('stays linear and bounded: unterminated barcodes, endless raster lines, unknown sequences', () => {
    const parts: number[] = [];
    for (let i = 0; i < 2000; i++) parts.push(0x1b, 0x62, 0x06, 0x02, 0x02, 0x40, ...new Array(300).fill(0x41));
    for (let i = 0; i < 2000; i++) parts.push(0x1b, 0x1d, 0x7f, 0x1b, 0x23, 0x41, 0x1b, 0x1e, 0x99);
    parts.push(0x00); // ends the ESC # command above
    parts.push(0x1b, 0x2a, 0x72, 0x41);
    for (let i = 0; i < 5000; i++) parts.push(0x62, 0xff, 0x00, ...new Array(255).fill(0xaa));
    const data = Uint8Array.from(parts);
    // A quadratic framing would exceed the test timeout: that is the guard, not a timing assertion.
    const { job } = run('StarPrnt', data, context(), 4096);
    expect(byteAccounting(job)).toBe(data.length);
    const raster = images(all(job)).filter((i) => i.commandDescription[0] === 'Raster data');
    // Pages of 4,096 and 904 rows; the first in bands of at most one finish step (issue 17).
    expect(raster.map((i) => `${i.width}x${i.height}`)).toEqual(['576x1736', '576x1736', '576x624', '576x904']);
  });
});
