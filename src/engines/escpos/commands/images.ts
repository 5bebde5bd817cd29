/** Bit images, raster images, NV bit images, downloaded images and graphics (GS ( L / GS 8 L). */
import { arg, fixed, type LenFn, type Outcome } from '../../core/commands.ts';
import { Bitmap } from '../../raster/bitmap.ts';
import {
  cropWidth, escStarImage, fsQImages, graphicsImage, gsQ0Image, gsStarImage, gsV0Image, scaleMode, tooLarge,
} from '../images.ts';
import type { EscPosMachine } from '../machine.ts';
import { ESC, FS, GS, ch, type EscPosFamily } from './define.ts';

const escStar: LenFn = (b, n) => {
  if (n < 5) return 5;
  const cols = b[3] + b[4] * 256;
  const m = b[2];
  return 5 + cols * (m === 32 || m === 33 ? 3 : 1);
};
const gsV0: LenFn = (b, n) => {
  if (n < 3) return 3;
  if (b[2] !== 0x30 && b[2] !== 0) return 3; // GS v <other>: malformed, stop here
  if (n < 8) return 8;
  return 8 + (b[4] + b[5] * 256) * (b[6] + b[7] * 256);
};
const gsStar: LenFn = (b, n) => (n < 4 ? 4 : 4 + b[2] * b[3] * 8);
const gsQ0: LenFn = (b, n) => {
  if (n < 3) return 3;
  if (b[2] !== 0x30) return 3;
  if (n < 8) return 8;
  return 8 + (b[4] + b[5] * 256) * (b[6] + b[7] * 256);
};
/** FS q n [xL xH yL yH d1..dk]1..n with k = x*y*8. */
const fsQ: LenFn = (b, n) => {
  if (n < 3) return 3;
  let pos = 3;
  for (let i = 0; i < b[2]; i++) {
    if (n < pos + 4) return pos + 4;
    pos += 4 + (b[pos] + b[pos + 1] * 256) * (b[pos + 2] + b[pos + 3] * 256) * 8;
  }
  return pos;
};
/** GS 8 L p1 p2 p3 p4 ... */
const gs8: LenFn = (b, n) => (n < 3 ? 3 : b[2] !== 0x4c /* L */ ? 3 : n < 7 ? 7 : 7 + b[3] + b[4] * 0x100 + b[5] * 0x10000 + b[6] * 0x1000000);

/** Print a block image cropped to the paper, described by `text`. */
function block(m: EscPosMachine, bmp: Bitmap, name: string, text: string, raw: string, length: number): Outcome {
  if (bmp.width > m.width) {
    // Said, not only done: a picture sized for another printer (or a bomb) should not pass unnoticed.
    m.doc.error(`${name}: an image ${bmp.width} dots wide is wider than the ${m.width}-dot paper; the part beyond it is not printed`);
  }
  m.layout.placeBlock(cropWidth(bmp, m.width), m.src(raw, [name, text], length));
  return { text };
}

export const IMAGES: EscPosFamily = [
  {
    prefix: [ESC, ch('*')], name: 'ESC *', summary: 'Select bit-image mode', length: escStar, header: 5,
    run(m, b, raw) {
      const img = escStarImage(b);
      if (!img) return { text: `Bit image: invalid mode ${b[2]}`, kind: 'malformed', error: `invalid bit image mode ${b[2]}` };
      const desc = ['ESC *', `Bit image, ${img.mode}, ${img.bitmap.width}x${img.bitmap.height} dots`];
      m.layout.addInlineImage(img.bitmap, m.src(raw, desc, b.length), true);
      return { text: desc[1] };
    },
  },
  {
    prefix: [GS, ch('v')], name: 'GS v', summary: 'Print raster bit image (GS v 0)', length: gsV0, header: 8,
    run(m, b, raw) {
      if (b.length < 8) return { text: `Raster bit image: invalid function ${b[2]}`, kind: 'malformed', error: `GS v ${b[2]} not supported` };
      const [sx, sy] = scaleMode(b[3]);
      const dots = (b[4] + b[5] * 256) * 8 * sx * (b[6] + b[7] * 256) * sy;
      // Not decoded at all when the job cannot afford it (the summary says so).
      if (!m.doc.budget.fits(dots) && !m.doc.spend(dots)) return { text: 'Not drawn: the job is over its rendering budget' };
      const img = gsV0Image(b);
      if (!img) return { text: `Raster bit image: invalid mode ${b[3]}`, kind: 'malformed', error: `invalid raster mode ${b[3]}` };
      return block(m, img.bitmap, 'GS v 0', `Raster bit image ${img.bitmap.width}x${img.bitmap.height} dots (${img.scale})`, raw, b.length);
    },
  },
  {
    prefix: [GS, ch('Q')], name: 'GS Q', summary: 'Print variable vertical size bit image (GS Q 0)', length: gsQ0, header: 8,
    run(m, b, raw) {
      const img = gsQ0Image(b);
      if (!img) return { text: 'Variable vertical size bit image: invalid', kind: 'malformed', error: 'invalid GS Q 0 image' };
      return block(m, img.bitmap, 'GS Q 0', `Variable vertical size bit image ${img.bitmap.width}x${img.bitmap.height} (${img.scale})`, raw, b.length);
    },
  },
  {
    prefix: [GS, ch('*')], name: 'GS *', summary: 'Define downloaded bit image', length: gsStar, header: 4,
    run(m, b) {
      if (b[2] === 0 || b[3] === 0) return { text: 'Define downloaded bit image: zero size', kind: 'malformed', error: 'zero-sized bit image' };
      m.downloadedImage = gsStarImage(b);
      return { text: `Define downloaded bit image ${m.downloadedImage.width}x${m.downloadedImage.height} dots` };
    },
  },
  {
    prefix: [GS, ch('/')], name: 'GS /', summary: 'Print downloaded bit image', length: fixed(3),
    run(m, b, raw) {
      if (!m.downloadedImage) return { text: 'Print downloaded bit image: none defined', kind: 'malformed', error: 'no downloaded bit image defined' };
      const [sx, sy, scale] = scaleMode(arg(b));
      return block(m, m.downloadedImage.scale(sx, sy), 'GS /', `Print downloaded bit image (${scale})`, raw, b.length);
    },
  },
  {
    prefix: [FS, ch('p')], name: 'FS p', summary: 'Print NV bit image', length: fixed(4),
    run(m, b, raw) {
      const slot = b[2], mode = b[3];
      if (mode > 3 && (mode < 48 || mode > 51)) return { text: `Print NV bit image: invalid mode ${mode}`, kind: 'malformed', error: `invalid NV image mode ${mode}` };
      const bmp = m.nvLookup(slot);
      if (!bmp) return { text: `Print NV bit image ${slot}: slot empty`, kind: 'malformed', error: `NV image slot ${slot} is empty` };
      const [sx, sy, scale] = scaleMode(mode);
      return block(m, bmp.scale(sx, sy), 'FS p', `Print NV bit image ${slot} (${scale}) ${bmp.width * sx}x${bmp.height * sy} dots`, raw, b.length);
    },
  },
  {
    prefix: [FS, ch('q')], name: 'FS q', summary: 'Define NV bit image', length: fsQ, header: 3,
    run(m, b) {
      const n = b[2];
      if (n === 0) return { text: 'Define NV bit images: none', kind: 'malformed', error: 'FS q with n = 0' };
      const images = fsQImages(b);
      images.forEach((img, i) => m.nvDefine(i + 1, img));
      return { text: `Define NV bit images 1..${n} (${images.map((i) => `${i.width}x${i.height}`).join(', ')})` };
    },
  },
  {
    prefix: [GS, ch('8')], name: 'GS 8', summary: 'Graphics with a 4-byte length (GS 8 L)', length: gs8, header: 11,
    run(m, b, raw) {
      if (b[2] !== 0x4c) return { text: `GS 8 ${b[2]} not supported`, kind: 'unknown' };
      return graphics(m, b, 7, raw);
    },
  },
];

/**
 * NV graphics key codes (GS ( L, two printable bytes) map onto the printer's NV image slots
 * 1..255: two ASCII digits "01".."99" are that slot; any other key hashes into 100..255.
 */
export function nvKeyToSlot(kc1: number, kc2: number): number {
  if (kc1 >= 0x30 && kc1 <= 0x39 && kc2 >= 0x30 && kc2 <= 0x39) {
    const v = (kc1 - 0x30) * 10 + (kc2 - 0x30);
    if (v >= 1) return v;
  }
  return 100 + ((kc1 * 95 + kc2) % 156);
}

/** `7 code <decimal digits>`: the capacity replies of the graphics functions. */
function digits(code: number, v: number): Uint8Array {
  const s = String(v);
  const out = new Uint8Array(s.length + 3);
  out[0] = 0x37; out[1] = code;
  for (let i = 0; i < s.length; i++) out[2 + i] = s.charCodeAt(i);
  return out;
}

/** GS ( L / GS 8 L: `base` is the index of m. */
export function graphics(m: EscPosMachine, b: Uint8Array, base: number, raw: string): Outcome {
  const end = b.length;
  if (end < base + 2) return { text: 'Graphics: missing function', kind: 'malformed', error: 'missing graphics function' };
  const fn = b[base + 1];
  const p = base + 2;
  switch (fn) {
    case 0: case 48:
      m.reply(digits(0x30, 1 << 20));
      return { text: 'Transmit NV graphics memory capacity' };
    case 1: case 49:
      return { text: 'Set reference dot density for graphics' };
    case 2: case 50: {
      if (!m.bufferGraphics) return { text: 'Print graphics in print buffer: none stored', kind: 'malformed', error: 'no graphics data stored' };
      const out = block(m, m.bufferGraphics, 'GS ( L', `Print graphics data ${m.bufferGraphics.width}x${m.bufferGraphics.height} dots`, raw, b.length);
      m.bufferGraphics = null;
      return out;
    }
    case 3: case 51:
      m.reply(digits(0x31, 1 << 20));
      return { text: 'Transmit remaining NV graphics capacity' };
    case 4: case 52:
      m.reply(digits(0x32, 1 << 20));
      return { text: 'Transmit remaining print buffer graphics capacity' };
    case 64:
      m.reply(Uint8Array.of(0x37, 0x72, 0x40, 0x00));
      return { text: 'Transmit NV graphics key code list' };
    case 65: {
      const slots = m.nvSlots();
      for (const s of slots) m.nvDelete(s);
      return { text: `Delete all NV graphics (${slots.size})` };
    }
    case 66: {
      if (end < p + 2) return { text: 'Delete NV graphics: missing key', kind: 'malformed', error: 'missing key code' };
      const slot = nvKeyToSlot(b[p], b[p + 1]);
      m.nvDelete(slot);
      return { text: `Delete NV graphics key "${String.fromCharCode(b[p], b[p + 1])}" (slot ${slot})` };
    }
    case 67: case 68: case 83: case 84: {
      // a kc1 kc2 b xL xH yL yH [c d...]
      if (end < p + 9) return { text: 'Define graphics: header too short', kind: 'malformed', error: 'graphics header too short' };
      const kc1 = b[p + 1], kc2 = b[p + 2];
      const w = b[p + 4] + b[p + 5] * 256, h = b[p + 6] + b[p + 7] * 256;
      if (w === 0 || h === 0 || tooLarge(w, h)) return { text: `Define graphics: invalid size ${w}x${h}`, kind: 'malformed', error: `invalid graphics size ${w}x${h}` };
      const column = fn === 68 || fn === 84;
      const data = b.subarray(0, end);
      let bmp = column ? Bitmap.fromColumns(w, Math.ceil(h / 8), data, p + 9) : Bitmap.fromPackedRows(Math.ceil(w / 8), h, data, p + 9);
      if (bmp.width !== w) bmp = cropWidth(bmp, w);
      if (bmp.height !== h) bmp = new Bitmap(bmp.width, h, bmp.pixels.slice(0, bmp.width * h));
      const key = String.fromCharCode(kc1, kc2);
      if (fn === 67 || fn === 68) {
        const slot = nvKeyToSlot(kc1, kc2);
        m.nvDefine(slot, bmp);
        return { text: `Define NV graphics key "${key}" (slot ${slot}) ${w}x${h} dots` };
      }
      m.downloadGraphics.set(key, bmp);
      return { text: `Define download graphics key "${key}" ${w}x${h} dots` };
    }
    case 69: case 85: {
      if (end < p + 4) return { text: 'Print graphics: missing parameters', kind: 'malformed', error: 'missing parameters' };
      const kc1 = b[p], kc2 = b[p + 1], sx = b[p + 2], sy = b[p + 3];
      const key = String.fromCharCode(kc1, kc2);
      const bmp = fn === 69 ? m.nvLookup(nvKeyToSlot(kc1, kc2)) : m.downloadGraphics.get(key);
      if (!bmp) return { text: `Print graphics key "${key}": not defined`, kind: 'malformed', error: `graphics key "${key}" not defined` };
      if ((sx !== 1 && sx !== 2) || (sy !== 1 && sy !== 2)) return { text: 'Print graphics: invalid scale', kind: 'malformed', error: 'invalid scale' };
      return block(m, bmp.scale(sx, sy), 'GS ( L', `Print ${fn === 69 ? 'NV' : 'download'} graphics key "${key}" x${sx} y${sy}`, raw, b.length);
    }
    case 80:
      m.reply(digits(0x33, 1 << 20));
      return { text: 'Transmit remaining download graphics capacity' };
    case 81:
      m.downloadGraphics.clear();
      return { text: 'Delete all download graphics' };
    case 82: {
      if (end >= p + 2) m.downloadGraphics.delete(String.fromCharCode(b[p], b[p + 1]));
      return { text: 'Delete download graphics' };
    }
    case 112: case 113: {
      const img = graphicsImage(b, p, end, fn === 113, true);
      if (!img) return { text: 'Store graphics data: invalid parameters', kind: 'malformed', error: 'invalid graphics parameters' };
      m.bufferGraphics = img.bitmap;
      return { text: `Store graphics data in print buffer ${img.bitmap.width}x${img.bitmap.height} dots (${fn === 112 ? 'raster' : 'column'})` };
    }
    default:
      return { text: `Graphics function ${fn} (not emulated)` };
  }
}
