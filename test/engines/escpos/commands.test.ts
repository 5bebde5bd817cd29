import { describe, expect, it } from 'vitest';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { DLE, ESC, FS, GS, LF, all, bitmapOf, bytes, checkInvariants, context, debugs, images, render, texts } from './helpers.ts';

function job(...parts: Parameters<typeof bytes>) {
  const data = bytes(...parts);
  const j = render(data);
  checkInvariants(j, data.length);
  // Same result whatever the chunking.
  const j1 = render(data, context(), 1);
  expect(JSON.stringify(j1.canvases.map((c) => c.items.filter((i) => i.type !== 'image')))).toBe(
    JSON.stringify(j.canvases.map((c) => c.items.filter((i) => i.type !== 'image'))),
  );
  return j;
}

describe('text and layout', () => {
  it('prints text runs with positions, Font A 12x24, default 30-dot line spacing', () => {
    const j = job(ESC, '@', 'Hello ', ESC, 'E', 1, 'World', ESC, 'E', 0, LF, 'Next', LF);
    const t = texts(j);
    expect(t.map((e) => [e.text, e.x, e.y, e.width, e.height, e.isBold, e.fontName])).toEqual([
      ['Hello ', 0, 0, 72, 24, false, 'FontA'],
      ['World', 72, 0, 60, 24, true, 'FontA'],
      ['Next', 0, 30, 48, 24, false, 'FontA'],
    ]);
    expect(j.canvases[0].heightInDots).toBe(60);
    const d = debugs(j);
    expect(d[0]).toMatchObject({ debugType: 'command', commandRaw: '1B40', commandDescription: ['ESC @', 'Initialize printer'], lengthInBytes: 2 });
    expect(d[1]).toMatchObject({ debugType: 'text', commandRaw: '48656C6C6F20', lengthInBytes: 6 });
    expect(d[2].commandDescription).toEqual(['ESC E 1', 'Emphasized on']);
  });

  it('ESC ! sets font B, bold, double height/width, underline', () => {
    const j = job(ESC, '!', 0x01, 'b', LF, ESC, '!', 0x38, 'X', LF, ESC, '!', 0x80, 'u', LF);
    const [b, x, u] = texts(j);
    expect(b).toMatchObject({ fontName: 'FontB', width: 9, height: 17 });
    expect(x).toMatchObject({ fontName: 'FontA', isBold: true, charScaleX: 2, charScaleY: 2, width: 24, height: 48 });
    expect(u).toMatchObject({ isUnderline: true, underlineThickness: 1 });
    // line 1 font B: feed max(30, 17) = 30; line 2: 48 > 30 feeds 48
    expect([b.y, x.y, u.y]).toEqual([0, 30, 78]);
  });

  it('GS ! scales 1..8, GS B reverse, ESC { upside-down, ESC V rotation, ESC - 2, ESC G, ESC M', () => {
    const j = job(GS, '!', 0x73, 'A', LF, GS, '!', 0, GS, 'B', 1, 'R', GS, 'B', 0, LF, ESC, '{', 1, 'UD', LF, ESC, '{', 0, ESC, 'V', 1, 'r', LF, ESC, 'V', 0,
      ESC, '-', 2, 'u', ESC, '-', 0, ESC, 'G', 1, 'g', ESC, 'G', 0, ESC, 'M', 1, 'm', LF);
    const t = texts(j);
    expect(t[0]).toMatchObject({ text: 'A', charScaleX: 8, charScaleY: 4, width: 96, height: 96 });
    expect(t[1]).toMatchObject({ text: 'R', isReverse: true });
    expect(t[2]).toMatchObject({ text: 'UD', isUpsideDown: true, rotation: '180', x: 576 - 24 });
    expect(t[3]).toMatchObject({ text: 'r', rotation: '90' });
    expect(t[4]).toMatchObject({ text: 'u', isUnderline: true, underlineThickness: 2 });
    expect(t[5]).toMatchObject({ text: 'g', isDoubleStrike: true });
    expect(t[6]).toMatchObject({ text: 'm', fontName: 'FontB', x: 24 });
  });

  it('ESC a justification, ESC SP spacing, GS L / GS W margins, ESC $ and ESC \\ positions, HT', () => {
    const j = job(ESC, 'a', 1, 'ab', LF, ESC, 'a', 2, 'cd', LF, ESC, 'a', 0, ESC, ' ', 3, 'ef', LF, ESC, ' ', 0,
      GS, 'L', 24, 0, GS, 'W', 100, 0, 'gh', LF, GS, 'L', 0, 0, GS, 'W', 0x40, 2,
      'A', ESC, '$', 100, 0, 'B', ESC, '\\', 10, 0, 'C', ESC, '\\', 0xf6, 0xff, 'D', LF, 'x', 9, 'y', LF);
    const t = texts(j);
    expect(t[0]).toMatchObject({ text: 'ab', x: (576 - 24) / 2 });
    expect(t[1]).toMatchObject({ text: 'cd', x: 576 - 24 });
    expect(t[2]).toMatchObject({ text: 'ef', width: 30, charSpacing: 3 });
    expect(t[3]).toMatchObject({ text: 'gh', x: 24 });
    expect(t.slice(4, 8).map((e) => [e.text, e.x])).toEqual([['A', 0], ['B', 100], ['C', 122], ['D', 124]]);
    expect(t.slice(8).map((e) => [e.text, e.x])).toEqual([['x', 0], ['y', 96]]);
  });

  it('wraps long lines, ESC 3 / ESC 2 / ESC d / ESC J feeds, prints pending text at the end', () => {
    const j = job('X'.repeat(50), LF, ESC, '3', 40, 'a', LF, 'b', LF, ESC, '2', ESC, 'd', 3, ESC, 'J', 7, 'tail');
    const t = texts(j);
    expect(t[0]).toMatchObject({ text: 'X'.repeat(48), y: 0 });
    expect(t[1]).toMatchObject({ text: 'XX', y: 30 });
    expect(t[2]).toMatchObject({ text: 'a', y: 60 });
    expect(t[3]).toMatchObject({ text: 'b', y: 100 });
    // ESC d 3 prints the empty buffer and feeds 3 lines of 30; ESC J 7 feeds 7
    expect(t[4]).toMatchObject({ text: 'tail', y: 140 + 90 + 7 });
  });

  it('page mode places text in the area and prints on FF', () => {
    const j = job(ESC, 'L', ESC, 'W', 0, 0, 0, 0, 0x40, 2, 200, 0, GS, '$', 50, 0, ESC, '$', 10, 0, 'P', LF, 'Q', FF(), 'after', LF);
    const t = texts(j);
    expect(t[0]).toMatchObject({ text: 'P', x: 10, y: 26 });
    expect(t[1]).toMatchObject({ text: 'Q', x: 0, y: 56 });
    expect(t[2]).toMatchObject({ text: 'after', y: 200 });
  });
});

function FF() {
  return 0x0c;
}

describe('characters', () => {
  it('ESC t code pages: PC858 and WPC1252 euro, PC866 Cyrillic, PC850 accents, Katakana', () => {
    const j = job(ESC, 't', 19, 0xd5, LF, ESC, 't', 16, 0x80, LF, ESC, 't', 17, [0x8f, 0xe0, 0xa8, 0xa2, 0xa5, 0xe2], LF, ESC, 't', 2, [0x82, 0x85, 0xa4], LF, ESC, 't', 1, [0xb1, 0xb2], LF);
    expect(texts(j).map((t) => t.text)).toEqual(['€', '€', 'Привет', 'éàñ', 'ｱｲ']);
  });

  it('ESC R international sets', () => {
    const j = job(ESC, 'R', 2, '@[\\]{|}~', LF, ESC, 'R', 3, '#', LF);
    expect(texts(j).map((t) => t.text)).toEqual(['§ÄÖÜäöüß', '£']);
  });

  it('Kanji mode (Shift_JIS default and printer setting), UTF-8 mode', () => {
    const sjis = [0x93, 0xfa, 0x96, 0x7b]; // 日本
    let j = job(FS, '&', sjis, FS, '.', 'A', LF);
    expect(texts(j).map((t) => [t.text, t.fontName, t.width])).toEqual([['日本', 'Kanji', 48], ['A', 'FontA', 12]]);
    const gb = [0xd6, 0xd0, 0xce, 0xc4]; // 中文
    const data = bytes(FS, '&', gb, LF);
    j = render(data, context({ kanjiEncoding: 'gb18030' }));
    expect(texts(j)[0].text).toBe('中文');
    const utf8 = [...new TextEncoder().encode('Größe €ー日本')];
    j = job(FS, '(', 'C', 2, 0, 48, 2, utf8, LF);
    expect(texts(j).map((t) => t.text).join('')).toBe('Größe €ー日本');
  });

  it('user-defined characters are drawn as defined', () => {
    // define 'A' as a 2-column glyph (font A: 3 bytes per column)
    const j = job(ESC, '&', 3, 0x41, 0x41, 2, [0xff, 0x00, 0x00, 0x00, 0x00, 0x01], ESC, '%', 1, 'AB', LF);
    const img = images(j)[0];
    expect(img).toMatchObject({ x: 0, width: 2, height: 24 });
    const bmp = bitmapOf(img);
    expect(bmp.get(0, 0)).toBe(true);
    expect(bmp.get(0, 7)).toBe(true);
    expect(bmp.get(0, 8)).toBe(false);
    expect(bmp.get(1, 23)).toBe(true);
    expect(texts(j)[0]).toMatchObject({ text: 'B', x: 2 });
  });
});

describe('images', () => {
  it('GS v 0 raster in all four scale modes', () => {
    for (const [m, sx, sy] of [[0, 1, 1], [1, 2, 1], [2, 1, 2], [3, 2, 2]]) {
      const j = job(GS, 'v', '0', m, 2, 0, 3, 0, [0x80, 0x01, 0, 0, 0xff, 0xff]);
      const img = images(j)[0];
      expect([img.width, img.height]).toEqual([16 * sx, 3 * sy]);
      const bmp = bitmapOf(img);
      expect(bmp.get(0, 0)).toBe(true);
      expect(bmp.get(15 * sx, 0)).toBe(true);
      expect(bmp.get(1 * sx, 0)).toBe(false);
      expect(bmp.countBlack()).toBe((2 + 16) * sx * sy);
      expect(j.canvases[0].heightInDots).toBe(3 * sy);
    }
  });

  it('ESC * 24-dot double density strips merge into one image; 8-dot single density scales 2x3', () => {
    const col = [0x80, 0x00, 0x01];
    const j = job(ESC, '3', 24, ESC, '*', 33, 2, 0, col, col, LF, ESC, '*', 33, 2, 0, col, col, LF);
    const imgs = images(j);
    expect(imgs).toHaveLength(1);
    expect([imgs[0].width, imgs[0].height]).toEqual([2, 48]);
    const bmp = bitmapOf(imgs[0]);
    expect(bmp.get(0, 0) && bmp.get(1, 23) && bmp.get(0, 24)).toBe(true);
    const j2 = job(ESC, '*', 0, 1, 0, 0x80, LF);
    expect([images(j2)[0].width, images(j2)[0].height]).toEqual([2, 24]);
    expect(bitmapOf(images(j2)[0]).countBlack()).toBe(6);
  });

  it('GS ( L store and print graphics; NV graphics define / print / delete by key code', () => {
    const store = [48, 112, 48, 1, 1, 49, 8, 0, 2, 0, 0xaa, 0x55];
    const j = job(GS, '(', 'L', store.length, 0, store, GS, '(', 'L', 2, 0, 48, 50);
    expect(bitmapOf(images(j)[0]).countBlack()).toBe(8);
    const def = [48, 67, 48, 0x30, 0x37, 1, 8, 0, 1, 0, 49, 0xf0];
    const s = createEscPosSession(() => context());
    const r = s.push(bytes(GS, '(', 'L', def.length, 0, def, GS, '(', 'L', 6, 0, 48, 69, 0x30, 0x37, 2, 1, GS, '(', 'L', 4, 0, 48, 66, 0x30, 0x37));
    expect(r.events.map((e) => [e.type, 'slot' in e ? e.slot : 0])).toEqual([['nvImageDefined', 7], ['nvImageDeleted', 7]]);
    const out = s.finish();
    expect([images(out)[0].width, images(out)[0].height]).toEqual([16, 1]);
  });

  it('GS 8 L with 4-byte length, GS * / GS /, GS Q 0', () => {
    const store = [48, 112, 48, 1, 1, 49, 8, 0, 1, 0, 0xff];
    const j = job(GS, '8', 'L', store.length, 0, 0, 0, store, GS, '(', 'L', 2, 0, 48, 50, GS, '*', 1, 1, [0x80, 0, 0, 0, 0, 0, 0, 0x01], GS, '/', 3);
    const imgs = images(j);
    expect(bitmapOf(imgs[0]).countBlack()).toBe(8);
    expect([imgs[1].width, imgs[1].height]).toEqual([16, 16]);
    expect(bitmapOf(imgs[1]).countBlack()).toBe(8);
  });

  it('FS q defines NV bit images and FS p prints them (scale modes), empty slot is an error', () => {
    const s = createEscPosSession(() => context());
    const r = s.push(bytes(FS, 'q', 1, 1, 0, 1, 0, [0xff, 0, 0, 0, 0, 0, 0, 0], FS, 'p', 1, 3, FS, 'p', 9, 0));
    expect(r.events[0]).toMatchObject({ type: 'nvImageDefined', slot: 1 });
    const out = s.finish();
    expect([images(out)[0].width, images(out)[0].height]).toEqual([16, 16]);
    expect(out.errorMessages.some((e) => e.includes('slot 9'))).toBe(true);
    const nv = new Map([[5, new Bitmap(10, 4, new Uint8Array(40).fill(1))]]);
    const j = render(bytes(ESC, 'a', 1, FS, 'p', 5, 0), context({ nvImages: nv }));
    expect(images(j)[0]).toMatchObject({ x: 283, width: 10, height: 4 });
  });
});

describe('codes', () => {
  it('GS k function A and B with height, module width and HRI below', () => {
    const j = job(GS, 'h', 50, GS, 'w', 2, GS, 'H', 2, GS, 'k', 2, '400638133393', 0, GS, 'k', 73, 10, '{B', 'ABC', '{C', 12, 34, 56);
    const imgs = images(j);
    expect(imgs).toHaveLength(2);
    expect(imgs[0].height).toBe(50);
    expect(imgs[0].width).toBe(95 * 2);
    const t = texts(j);
    expect(t[0].text).toBe('4006381333931');
    expect(t[0].y).toBe(50);
    expect(t[1].text).toBe('ABC123456');
  });

  it('all linear symbologies render', () => {
    const cases: [number, string][] = [[65, '01234567890'], [66, '0123456'], [67, '401234567890'], [68, '1234567'], [69, 'ABC-1'], [70, '123456'], [71, 'A123B'], [72, 'CODE93'], [74, '(01)09501101530003'], [75, '0950110153000'], [76, '0950110153000'], [77, '0950110153000'], [78, '(01)09501101530003'], [79, 'auto 128']];
    for (const [m, d] of cases) {
      const j = job(GS, 'k', m, d.length, d);
      expect(j.errorMessages, `m=${m}`).toEqual([]);
      expect(images(j), `m=${m}`).toHaveLength(1);
    }
  });

  it('GS ( k QR: model, size, error correction, store, print', () => {
    const data = 'https://example.com';
    const j = job(GS, '(', 'k', 4, 0, 49, 65, 50, 0, GS, '(', 'k', 3, 0, 49, 67, 4, GS, '(', 'k', 3, 0, 49, 69, 49,
      GS, '(', 'k', data.length + 3, 0, 49, 80, 48, data, GS, '(', 'k', 3, 0, 49, 81, 48);
    const img = images(j)[0];
    expect(img.width).toBe(img.height);
    expect(img.width % 4).toBe(0);
    expect(j.errorMessages).toEqual([]);
  });

  it('PDF417, DataMatrix, Aztec, MaxiCode', () => {
    const sym = (cn: number, d: string, store = 80, print = 81) => [GS, '(', 'k', d.length + 3, 0, cn, store, 48, d, GS, '(', 'k', 3, 0, cn, print, 48] as const;
    for (const cn of [48, 54, 53, 50]) {
      const j = job(...sym(cn, 'HELLO 12345'));
      expect(j.errorMessages, `cn=${cn}`).toEqual([]);
      expect(images(j), `cn=${cn}`).toHaveLength(1);
    }
  });
});

describe('paper, drawer, status', () => {
  it('each cut starts a new canvas; trailing bytes after the last cut stay with it', () => {
    const j = job('one', LF, GS, 'V', 0, 'two', LF, GS, 'V', 66, 10, 'three', LF, ESC, 'i', ESC, '@');
    expect(j.canvases).toHaveLength(3);
    expect(j.canvases.map((c) => c.heightInDots)).toEqual([30, 40, 30]);
    expect(texts(j, 2)[0].text).toBe('three');
    expect(j.canvases[2].items.at(-1)).toMatchObject({ commandRaw: '1B40' });
  });

  it('ESC p, DLE DC4 1 and BEL kick the drawers', () => {
    const s = createEscPosSession(() => context());
    const r = s.push(bytes(ESC, 'p', 0, 25, 250, ESC, 'p', 1, 25, 250, DLE, 0x14, 1, 1, 3, 0x07));
    expect(r.events).toEqual([{ type: 'drawerKick', drawer: 1 }, { type: 'drawerKick', drawer: 2 }, { type: 'drawerKick', drawer: 2 }, { type: 'drawerKick', drawer: 1 }]);
  });

  it('DLE EOT 1..4 answer at once with the decisions.md bit layout', () => {
    const ctx = context();
    const s = createEscPosSession(() => ctx);
    expect(s.push(bytes(DLE, 4, 1)).replies).toEqual([Uint8Array.of(0x16)]);
    ctx.flags.isCoverOpen = true;
    ctx.drawer1State = 'OpenedByCommand';
    expect(s.push(bytes(DLE, 4, 1, DLE, 4)).replies).toEqual([Uint8Array.of(0x1a)]);
    expect(s.push(bytes(2)).replies).toEqual([Uint8Array.of(0x12 | 0x04 | 0x40)]);
    ctx.flags = { isCoverOpen: false, isPaperOut: true, isOffline: false, hasError: true, isPaperNearEnd: true };
    expect(s.push(bytes(DLE, 4, 3, DLE, 4, 4)).replies).toEqual([Uint8Array.of(0x52), Uint8Array.of(0x12 | 0x0c | 0x60)]);
    ctx.flags.isPaperOut = false; ctx.flags.hasError = false; ctx.bufferFull = true;
    expect(s.push(bytes(DLE, 4, 1)).replies[0][0] & 0x08).toBe(0x08);
  });

  it('GS r, GS I, GS a with ASB re-sent on change', () => {
    const ctx = context();
    const s = createEscPosSession(() => ctx);
    const r = s.push(bytes(GS, 'r', 1, GS, 'r', 2, GS, 'I', 1, GS, 'I', 67, GS, 'a', 0xff));
    expect(r.replies[0]).toEqual(Uint8Array.of(0));
    expect(r.replies[1]).toEqual(Uint8Array.of(1));
    expect(r.replies[2].length).toBe(1);
    // The default ESC/POS model's identity (issue 13: models), TM-T88VI.
    expect(new TextDecoder().decode(r.replies[3])).toBe('_TM-T88VI\0');
    expect(r.replies[4]).toEqual(Uint8Array.of(0x14, 0, 0, 0));
    expect(s.contextChanged().replies).toEqual([]);
    ctx.flags.isPaperOut = true;
    expect(s.contextChanged().replies).toEqual([Uint8Array.of(0x1c, 0, 0x0c, 0)]); // pin 3, offline (paper out), paper end
    expect(s.contextChanged().replies).toEqual([]);
  });
});

describe('robustness', () => {
  it('unknown, malformed and truncated commands become debug elements and errors', () => {
    const j = job('a', ESC, 0xfe, 'b', 0x01, ESC, 't', 200, GS, 'v', '0', 0, 10, 0, 10);
    const d = debugs(j);
    expect(d.map((e) => e.debugType)).toEqual(['text', 'unknown', 'text', 'unknown', 'malformed', 'truncated']);
    expect(j.errorMessages).toHaveLength(4);
    expect(texts(j).map((t) => t.text)).toEqual(['ab']);
  });

  it('drawn elements are in the canvas of their command, in byte order', () => {
    const j = job('x', LF, GS, 'V', 0);
    expect(all(j).map((e) => e.type)).toEqual(['debug', 'text', 'debug', 'debug']);
  });
});
