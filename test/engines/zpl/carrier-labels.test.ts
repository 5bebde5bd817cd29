/**
 * Carrier labels from public integrations (test/engines/zpl/carrier-labels/SOURCE.md) printed
 * as a Zebra would: every text field's text is printed, every code scans (zxing-cpp) to
 * exactly the data its field holds, control characters included, and the picture overlaps a
 * second renderer's (zpl-renderer-js, zebrash in WebAssembly) at 0.8 or more after a 2-dot
 * dilation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ready } from 'zpl-renderer-js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImageElement } from '../../../src/engines/canvas/model.ts';
import { renderRaster } from '../../../src/engines/render/index.ts';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { inkOfPng, overlap, type Ink } from '../../support/label-overlap.ts';
import { fieldsOf, type CodeField } from './carrier-fields.ts';
import { bitmapOf, zpl, zxingCpp } from './helpers.ts';
import { decodeMaxiCode } from '../raster/maxicode-decode.ts';

const DIR = new URL('./carrier-labels/', import.meta.url);
const LABELS = readdirSync(DIR).filter((f) => f.endsWith('.zpl')).sort();
const GS = '\u001d';

/**
 * Codes no renderer prints whole: Amazon's Code 128 (mode N, ^BY3, 20 characters from x 145) is
 * wider than the 812-dot label in Slipstream and in zpl-renderer-js alike.
 */
const CUT_ON_EVERY_RENDERER = new Set(['amazon.zpl ^BC AMZNCC00000010000000']);

let reference: (zpl: string) => Promise<Ink>;
beforeAll(async () => {
  const { api } = await ready;
  reference = async (text) => inkOfPng(Buffer.from(await api.zplToBase64Async(text, 101.6, 152.4, 8), 'base64'));
}, 60_000);

/** Code 128 mode N data as a scanner reads it: subset switches vanish, FNC1 is GS (a leading one marks GS1 and is not read). */
function code128Read(data: string, mode: string): string {
  if (mode === 'D') return data.replace(/>8/g, GS).replace(/[()]/g, '');
  if (mode !== 'N') return data;
  let out = '';
  for (let i = 0; i < data.length; i++) {
    if (data[i] !== '>' || i + 1 >= data.length) { out += data[i]; continue; }
    const c = data[++i];
    if (c === '8' || c === '1') out += GS;
    else if (c === '<') out += '<';
    else if (c === '0') out += '>';
    else if (c === '=') out += '~';
  }
  return out.startsWith(GS) ? out.slice(1) : out;
}

/** MaxiCode modes 2 and 3: the primary message (postal code, country, class) goes after the message header. */
function maxicodeRead(data: string, mode: number): string {
  if (mode > 3) return data;
  // Mode 3's postal code is six characters, padded with spaces; mode 2's its digits.
  const cls = data.slice(0, 3), country = data.slice(3, 6), postal = mode === 3 ? data.slice(6, 12).padEnd(6) : data.slice(6, 15).trim();
  const rest = data.slice(mode === 3 ? 12 : 15);
  const header = /^\[\)>\u001e01\u001d\d\d/.exec(rest)?.[0] ?? '';
  return `${header}${postal}${GS}${country}${GS}${cls}${GS}${rest.slice(header.length)}`;
}

/** The zxing-cpp format and the text a scanner reads from a code field. */
function expectedScan(f: CodeField): { format: string; text: string } | null {
  const p = f.params.split(',');
  switch (f.command) {
    case 'BC': return { format: 'Code128', text: code128Read(f.data, (p[5] || 'N').toUpperCase()) };
    case 'B3': return { format: 'Code39', text: f.data };
    case 'B2': return { format: 'ITF', text: f.data.replace(/\D/g, '') };
    case 'B7': return { format: 'PDF417', text: f.data };
    case 'BO': return { format: 'Aztec', text: f.data };
    case 'BQ': return { format: 'QRCode', text: f.data.replace(/^[HQML]?[AM]?,/, '') };
    case 'BD': return { format: 'MaxiCode', text: maxicodeRead(f.data, Number(p[0] || '2')) };
    case 'BX': {
      const esc = p[6];
      if (!esc) return { format: 'DataMatrix', text: f.data };
      const text = f.data.split(`${esc}1`).join(GS);
      return { format: 'DataMatrix', text: text.startsWith(GS) ? text.slice(1) : text };
    }
    default: return null;
  }
}

const printable = (s: string): string => s.replace(/\\&/g, '').replace(/[^\x21-\x7e]/g, '');

async function picture(job: ReturnType<typeof zpl>['job']): Promise<Ink> {
  const { page } = await renderRaster(job.canvases, { canvasIndex: 0 });
  const black = new Uint8Array(page.width * page.height);
  for (let y = 0; y < page.height; y++) for (let x = 0; x < page.width; x++) if (page.get(x, y)) black[y * page.width + x] = 1;
  return { width: page.width, height: page.height, black };
}

/** zpl-renderer-js centres a label narrower than its 4-inch head (^PW679) on the head: place ours the same way. */
function centred(ink: Ink, headWidth: number): Ink {
  if (ink.width >= headWidth) return ink;
  const left = Math.floor((headWidth - ink.width) / 2);
  const black = new Uint8Array(headWidth * ink.height);
  for (let y = 0; y < ink.height; y++) black.set(ink.black.subarray(y * ink.width, (y + 1) * ink.width), y * headWidth + left);
  return { width: headWidth, height: ink.height, black };
}

describe('carrier labels', () => {
  it.each(LABELS)('%s: every text printed, every code scans to its data, the picture matches zpl-renderer-js', async (file) => {
    const text = readFileSync(new URL(file, DIR), 'latin1');
    const { job } = zpl(Uint8Array.from(text, (c) => c.charCodeAt(0)));
    // Every label of the file (some print two).
    const items = job.canvases.flatMap((c) => c.items);
    const fields = fieldsOf(text);

    const printed = printable(items.map((i) => (i.type === 'text' ? i.text : '')).join(''));
    // Fields placed past the 4 x 6 in label (some of these labels are longer) print nowhere.
    const onLabel = fields.filter((f) => !f.origin || (f.origin.x < 812 && f.origin.y < 1218));
    for (const f of onLabel) if (f.kind === 'text') expect(printed, `text "${f.text}"`).toContain(printable(f.text));

    const pictures: Bitmap[] = items.filter((i): i is ImageElement => i.type === 'image').map(bitmapOf);
    const scans = new Map<string, Promise<(string | null)[]>>();
    const scanned = (format: string) => {
      if (!scans.has(format)) scans.set(format, Promise.all(pictures.map((b) => (format === 'MaxiCode' ? decodeMaxiCode(b) : zxingCpp(b, format)))));
      return scans.get(format)!;
    };
    for (const f of onLabel) {
      if (f.kind !== 'code') continue;
      if (CUT_ON_EVERY_RENDERER.has(`${file} ^${f.command} ${f.data}`)) continue;
      const want = expectedScan(f);
      expect(want, `^${f.command} is a symbology this test reads`).not.toBeNull();
      expect(await scanned(want!.format), `^${f.command} ${JSON.stringify(f.data)}`).toContain(want!.text);
    }

    // zpl-renderer-js prints ^POI labels upright (a Zebra turns them, as Slipstream does): turn ours back to compare.
    const ours = await picture(job);
    if (/\^POI/.test(text)) ours.black.reverse();
    const ref = await reference(text);
    const score = overlap(centred(ours, ref.width), ref, 2);
    expect(score, `overlap with zpl-renderer-js`).toBeGreaterThanOrEqual(0.8);
  }, 60_000);
});
