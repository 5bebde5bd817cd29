/**
 * Every way the ZPL II guide lets a host send a graphic gives the same dots: ^GF with A (hex,
 * compressed hex, B64, Z64 with its CRC) and B (binary, any byte including the prefixes);
 * ~DG; ~DY with formats A, B and P (PNG) stored as .GRF or .PNG; recalled with ^XG and ^IM,
 * also under ^FR. C (AR compression) is reported: Zebra publishes no description of it.
 * zpl-renderer-js (zebrash) is the oracle where it reads the command (^GF A/B, ~DG, ^XG).
 */
import { decode, encode } from 'fast-png';
import { zlibSync } from 'fflate';
import { ready } from 'zpl-renderer-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap, encodeBitmapPng } from '../../../src/engines/raster/png.ts';
import { renderPng } from '../../../src/engines/render/index.ts';
import { crc16Xmodem } from '../../../src/engines/zpl/graphic-data.ts';
import type { ZplPrinterMemory } from '../../../src/engines/zpl/index.ts';
import { bitmapOf, debugs, images, newZplPrinterMemory, texts, zpl } from './helpers.ts';

const enc = new TextEncoder();
const W = 813, H = 1219;
const LABEL = `^PW${W}^LL${H}`;

/** A 48 x 6 dot test picture whose bytes hold the prefixes, CR, LF, the delimiter and NUL. */
const ROWS = 6, PER_ROW = 6, TOTAL = ROWS * PER_ROW;
const BYTES = Uint8Array.from([
  0x5e, 0x7e, 0x0d, 0x0a, 0x2c, 0x00,
  0xff, 0x00, 0xff, 0x00, 0xff, 0x00,
  0x5e, 0x5e, 0x5e, 0x7e, 0x7e, 0x7e,
  0x0f, 0xf0, 0x0f, 0xf0, 0x0f, 0xf0,
  0x2c, 0x2c, 0x0a, 0x0d, 0x00, 0xff,
  0x81, 0x42, 0x24, 0x18, 0x24, 0x42,
]);
const HEX = Array.from(BYTES, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join('');
const b64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const crc = (s: string): string => crc16Xmodem(s).toString(16).toUpperCase().padStart(4, '0');
const B64 = `:B64:${b64(BYTES)}:${crc(b64(BYTES))}`;
const Z64 = `:Z64:${b64(zlibSync(BYTES))}:${crc(b64(zlibSync(BYTES)))}`;
const cat = (...parts: (string | Uint8Array)[]): Uint8Array => {
  const chunks = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
};

/** The picture as a PNG file (8-bit grey, black = 0) and as our 1-bit palette PNG. */
const PICTURE = Bitmap.fromPackedRows(PER_ROW, ROWS, BYTES);
const GREY_PNG = encode({ width: PICTURE.width, height: ROWS, channels: 1, depth: 8, data: Uint8Array.from(PICTURE.pixels, (p) => (p ? 0 : 255)) });
const ONE_BIT_PNG = encodeBitmapPng(PICTURE).png;
const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function printed(input: string | Uint8Array, memory?: ZplPrinterMemory): { bitmap: Bitmap; errors: string[]; after: string[] } {
  const { job } = zpl(input, { memory });
  const c = job.canvases[job.canvases.length - 1];
  const img = images(c)[0];
  return { bitmap: img ? bitmapOf(img) : new Bitmap(0, 0), errors: job.errorMessages, after: texts(c).map((t) => t.text) };
}

const samePicture = (b: Bitmap): void => {
  expect([b.width, b.height]).toEqual([48, 6]);
  expect(Array.from(b.pixels)).toEqual(Array.from(PICTURE.pixels));
};

describe('^GF', () => {
  it('A (hex), A with B64 and Z64, and B (binary holding ^ ~ CR LF , NUL) give the same dots; the fields after print', () => {
    const tail = '^FS^FO0,100^ADN^FDAFTER^FS^XZ';
    for (const input of [
      `^XA^FO0,0^GFA,${TOTAL},${TOTAL},${PER_ROW},${HEX}${tail}`,
      `^XA^FO0,0^GFA,${TOTAL},${TOTAL},${PER_ROW},${B64}${tail}`,
      `^XA^FO0,0^GFA,${TOTAL},${TOTAL},${PER_ROW},${Z64}${tail}`,
      cat(`^XA^FO0,0^GFB,${TOTAL},${TOTAL},${PER_ROW},`, BYTES, tail),
    ]) {
      const r = printed(input);
      expect(r.errors).toEqual([]);
      samePicture(r.bitmap);
      expect(r.after).toEqual(['AFTER']);
    }
  });

  it('B arriving a byte at a time frames the same', () => {
    const { job } = zpl(cat(`^XA^FO0,0^GFB,${TOTAL},${TOTAL},${PER_ROW},`, BYTES, '^FS^XZ'), { chunk: 1 });
    expect(job.errorMessages).toEqual([]);
    samePicture(bitmapOf(images(job.canvases[0])[0]));
  });

  it('a Z64 whose CRC does not match is an error, not a picture', () => {
    const bad = Z64.replace(/:[0-9A-F]{4}$/, (m) => (m === ':0000' ? ':0001' : ':0000'));
    const r = printed(`^XA^FO0,0^GFA,${TOTAL},${TOTAL},${PER_ROW},${bad}^FS^XZ`);
    expect(r.errors.join()).toMatch(/CRC/);
    expect(r.bitmap.width).toBe(0);
  });

  it('C (AR compression) is reported as not supported; its binary payload is skipped, the fields after print', () => {
    // b = 6 bytes of "compressed" data holding both prefixes: framed by the count, not read as commands.
    const r = printed(cat('^XA^FO0,0^GFC,6,36,6,', Uint8Array.of(0x5e, 0x58, 0x5a, 0x7e, 0x4a, 0x41), '^FS^FO0,100^ADN^FDAFTER^FS^XZ'));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/AR compression\) is not supported/);
    expect(r.after).toEqual(['AFTER']);
  });

  it('B with printable bytes matches zpl-renderer-js dot for dot, plain and under ^FR', async () => {
    // zebrash reads ^GFB data as text up to the next caret: bytes it can frame (no ^ ~ , space, CR, LF, none >= 0x80).
    const data = Uint8Array.from({ length: 40 * 30 }, (_, i) => 0x21 + ((i * 37 + (i >> 5) * 11) % 0x5b)).map((b) => (b === 0x2c || b === 0x5e ? b + 1 : b));
    const { api } = await ready;
    for (const fr of ['', '^FR']) {
      const text = `^XA${LABEL}^FO100,100^GB320,300,300^FS^FO50,150${fr}^GFB,${data.length},${data.length},40,${String.fromCharCode(...data)}^FS^XZ`;
      const { job } = zpl(text);
      expect(job.errorMessages).toEqual([]);
      const mine = decodePngToBitmap((await renderPng(job.canvases)).png);
      const img = decode(Buffer.from(await api.zplToBase64Async(text, 101.6, 152.4, 8), 'base64'));
      let diff = 0, ink = 0;
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
        const theirs = img.data[(y * img.width + x) * img.channels] < 128;
        if (theirs) ink++;
        if (theirs !== mine.get(x, y)) diff++;
      }
      expect(ink).toBeGreaterThan(50_000);
      expect(diff).toBe(0);
    }
  });
});

describe('stored graphics: ~DG and ~DY, recalled with ^XG and ^IM', () => {
  const downloads: Array<[string, string | Uint8Array, string]> = [
    ['~DG hex', `~DGR:PIC.GRF,${TOTAL},${PER_ROW},${HEX}`, 'PIC.GRF'],
    ['~DG B64', `~DGR:PIC.GRF,${TOTAL},${PER_ROW},${B64}`, 'PIC.GRF'],
    ['~DG Z64', `~DGR:PIC.GRF,${TOTAL},${PER_ROW},${Z64}`, 'PIC.GRF'],
    ['~DY A,G hex', `~DYR:PIC,A,G,${TOTAL},${PER_ROW},${HEX}`, 'PIC.GRF'],
    ['~DY A,G Z64', `~DYR:PIC,A,G,${TOTAL},${PER_ROW},${Z64}`, 'PIC.GRF'],
    ['~DY B,G binary', cat(`~DYR:PIC,B,G,${TOTAL},${PER_ROW},`, BYTES), 'PIC.GRF'],
    ['~DY P,P B64 PNG', `~DYR:PIC,P,P,${GREY_PNG.length},,:B64:${b64(GREY_PNG)}:${crc(b64(GREY_PNG))}`, 'PIC.PNG'],
    ['~DY A,P hex 1-bit PNG', `~DYR:PIC,A,P,${ONE_BIT_PNG.length},,${hexOf(ONE_BIT_PNG)}`, 'PIC.PNG'],
    ['~DY B,P binary PNG', cat(`~DYR:PIC,B,P,${GREY_PNG.length},,`, GREY_PNG), 'PIC.PNG'],
    ['~DY P,G PNG kept as a .GRF', `~DYR:PIC,P,G,${GREY_PNG.length},,:Z64:${b64(zlibSync(GREY_PNG))}:${crc(b64(zlibSync(GREY_PNG)))}`, 'PIC.GRF'],
  ];

  for (const [name, download, stored] of downloads) {
    it(`${name}: ^XG and ^IM print it, in a later connection, also reversed over black`, async () => {
      const memory = newZplPrinterMemory();
      expect(zpl(download, { memory }).job.errorMessages).toEqual([]);
      for (const recall of [`^XGR:${stored},1,1`, `^IMR:${stored}`]) {
        const r = printed(`^XA^FO0,0${recall}^FS^XZ`, memory);
        expect(r.errors).toEqual([]);
        samePicture(r.bitmap);
        // Reversed over a black box: the graphic's dots print white there.
        const { job } = zpl(`^XA^PW100^LL20^FO0,0^GB100,20,20^FS^FO0,0^FR${recall}^FS^XZ`, { memory });
        const page = decodePngToBitmap((await renderPng(job.canvases)).png);
        for (let y = 0; y < ROWS; y++) for (let x = 0; x < 48; x++) expect(page.get(x, y), `${x},${y}`).toBe(!PICTURE.get(x, y));
      }
    });
  }

  it('~DG + ^XG magnified and reversed match zpl-renderer-js dot for dot', async () => {
    const { api } = await ready;
    const text = `~DGR:PIC.GRF,${TOTAL},${PER_ROW},${HEX}^XA${LABEL}^FO100,100^GB320,300,300^FS^FO80,120^FR^XGR:PIC.GRF,4,5^FS^FO300,300^XGR:PIC.GRF,2,2^FS^XZ`;
    const memory = newZplPrinterMemory();
    const { job } = zpl(text, { memory });
    expect(job.errorMessages).toEqual([]);
    const mine = decodePngToBitmap((await renderPng(job.canvases)).png);
    const img = decode(Buffer.from(await api.zplToBase64Async(text, 101.6, 152.4, 8), 'base64'));
    let diff = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if ((img.data[(y * img.width + x) * img.channels] < 128) !== mine.get(x, y)) diff++;
    expect(diff).toBe(0);
  });

  it('~DY C (AR compression) is reported and stores nothing', () => {
    const memory = newZplPrinterMemory();
    const { job } = zpl(`~DYR:PIC,C,G,${TOTAL},${PER_ROW},0102030405`, { memory });
    expect(job.errorMessages.join()).toMatch(/AR compression\) is not supported/);
    expect(memory.graphics.size).toBe(0);
    expect(debugs(job).some((d) => d.debugType !== 'command')).toBe(true);
  });
});
