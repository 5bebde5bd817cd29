/** Bit images (ESC K, ESC L, ESC X, ESC k), raster graphics (ESC GS S) and NV logos (ESC FS q / ESC FS p). */
import { NUL_TERMINATED, fixed, type LenFn, type Outcome } from '../../core/commands.ts';
import { cropWidth, fsQImages, tooLarge } from '../../escpos/images.ts';
import { Bitmap } from '../../raster/bitmap.ts';
import type { StarMachine } from '../machine.ts';
import { ESC, FS, GS, ch, digit, type StarFamily } from '../define.ts';

/** `ESC x n1 n2 d1..dk` with k = (n1 + n2 * 256) * perColumn. */
const columns = (perColumn: number): LenFn => (b, n) => (n < 4 ? 4 : 4 + (b[2] + b[3] * 256) * perColumn);

/** ESC GS S m xL xH yL yH n d1..dk, k = x bytes * y rows. */
const escGsS: LenFn = (b, n) => (n < 9 ? 9 : 9 + (b[4] + b[5] * 256) * (b[6] + b[7] * 256));

/** ESC FS q n [xL xH yL yH d1..dk]1..n with k = x * y * 8 (Epson's FS q layout behind ESC). */
const escFsQ: LenFn = (b, n) => {
  if (n < 4) return 4;
  let pos = 4;
  for (let i = 0; i < b[3]; i++) {
    if (n < pos + 4) return pos + 4;
    pos += 4 + (b[pos] + b[pos + 1] * 256) * (b[pos + 2] + b[pos + 3] * 256) * 8;
  }
  return pos;
};

/** Logo and bit image print modes 0..3: normal, double wide, double high, both. */
const MODE_SCALE: [number, number, string][] = [[1, 1, 'normal'], [2, 1, 'double wide'], [1, 2, 'double high'], [2, 2, 'double wide and high']];

/** An image on the current line (bit images print in line with text and merge band by band). */
function inline(m: StarMachine, bmp: Bitmap, raw: string, b: Uint8Array, name: string, what: string): Outcome {
  const text = `${what} ${bmp.width}x${bmp.height} dots`;
  m.layout.addInlineImage(bmp, m.src(raw, [name, text], b.length), true);
  return { text };
}

function bitImage(name: string, what: string, perColumn: number, scaleX: number, scaleY: number) {
  return (m: StarMachine, b: Uint8Array, raw: string): Outcome => {
    const cols = b[2] + b[3] * 256;
    if (cols === 0) return { text: `${what}: no columns`, kind: 'malformed', error: `${name} with no columns` };
    const bmp = Bitmap.fromColumns(cols, perColumn, b, 4);
    return inline(m, scaleX === 1 && scaleY === 1 ? bmp : bmp.scale(scaleX, scaleY), raw, b, name, what);
  };
}

export const GRAPHICS: StarFamily = [
  {
    // Raster mode is framed by raster.ts from the next byte on (the session switches framers).
    bytes: [ESC, ch('*'), ch('r'), ch('A')], name: 'ESC * r A', summary: 'Enter raster mode', length: fixed(4),
    run(m) {
      if (m.layout.pageMode) return { text: 'Enter raster mode: invalid in page mode', kind: 'malformed', error: 'ESC * r A is invalid in page mode' };
      if (m.layout.hasPendingData) m.layout.printLine(m.modes.lineSpacing);
      m.rasterMode = true;
      m.raster.take();
      m.raster.eotMode = 0;
      return { text: 'Enter raster mode' };
    },
  },
  {
    bytes: [ESC, ch('*'), ch('r')], name: 'ESC * r ...', summary: 'Raster mode command outside raster mode (ignored)',
    length: (b, n) => (n < 4 ? 4 : 'BCR'.includes(String.fromCharCode(b[3])) ? 4 : NUL_TERMINATED),
    run: (_m, b) => ({ text: `ESC * r ${String.fromCharCode(b[3])}: not in raster mode (ignored)` }),
  },
  // 8-dot images of wire-dot heritage: on the 8 dots/mm head each dot prints 2x2 (normal) or 1x2 (high density).
  { bytes: [ESC, ch('K')], name: 'ESC K n1 n2', summary: 'Normal density bit image (8-dot columns)', length: columns(1), header: 4, run: bitImage('ESC K', 'Normal density bit image', 1, 2, 2) },
  { bytes: [ESC, ch('L')], name: 'ESC L n1 n2', summary: 'High density bit image (8-dot columns)', length: columns(1), header: 4, run: bitImage('ESC L', 'High density bit image', 1, 1, 2) },
  { bytes: [ESC, ch('X')], name: 'ESC X n1 n2', summary: 'Fine density bit image (24-dot columns)', length: columns(3), header: 4, run: bitImage('ESC X', 'Fine density bit image', 3, 1, 1) },
  {
    bytes: [ESC, ch('k')], name: 'ESC k n1 n2', summary: 'Fine bit image (24 rows of n bytes)', length: columns(24), header: 4,
    run(m, b, raw) {
      const wb = b[2] + b[3] * 256;
      if (wb === 0) return { text: 'Fine bit image: no data', kind: 'malformed', error: 'ESC k with width 0' };
      return inline(m, Bitmap.fromPackedRows(wb, 24, b, 4), raw, b, 'ESC k', 'Fine bit image');
    },
  },
  {
    bytes: [ESC, GS, ch('S')], name: 'ESC GS S m xL xH yL yH n', summary: 'Print raster graphic data', length: escGsS, header: 9,
    run(m, b, raw) {
      const w = b[4] + b[5] * 256, h = b[6] + b[7] * 256;
      if (w === 0 || h === 0) return { text: 'Raster graphic: empty', kind: 'malformed', error: 'ESC GS S with zero width or height' };
      if (tooLarge(w * 8, h)) return { text: `Raster graphic ${w * 8}x${h}: too large`, kind: 'malformed', error: 'raster graphic too large' };
      const bmp = cropWidth(Bitmap.fromPackedRows(w, h, b, 9), m.width);
      const text = `Raster graphic ${w * 8}x${h} dots`;
      m.layout.placeBlock(bmp, m.src(raw, ['ESC GS S', text], b.length));
      return { text };
    },
  },
  {
    bytes: [ESC, FS, ch('q')], name: 'ESC FS q n', summary: 'Register logos (NV)', length: escFsQ, header: 4,
    run(m, b) {
      if (b[3] === 0) return { text: 'Register logos: none', kind: 'malformed', error: 'ESC FS q with n = 0' };
      const images = fsQImages(b.subarray(1));
      images.forEach((img, i) => m.nvDefine(i + 1, img));
      return { text: `Register logos 1..${b[3]} (${images.map((i) => `${i.width}x${i.height}`).join(', ')})` };
    },
  },
  {
    bytes: [ESC, FS, ch('p')], name: 'ESC FS p n m', summary: 'Print logo', length: fixed(5),
    run(m, b, raw) {
      const slot = b[3], mode = digit(b[4]);
      const scale = MODE_SCALE[mode];
      if (!scale) return { text: `Print logo: invalid mode ${b[4]}`, kind: 'malformed', error: `ESC FS p: mode ${b[4]} is not 0 to 3` };
      const bmp = m.nvLookup(slot);
      if (!bmp) return { text: `Print logo ${slot}: not registered`, kind: 'malformed', error: `logo ${slot} is not registered` };
      const [sx, sy, name] = scale;
      const text = `Print logo ${slot} (${name}) ${bmp.width * sx}x${bmp.height * sy} dots`;
      m.layout.placeBlock(cropWidth(bmp.scale(sx, sy), m.width), m.src(raw, ['ESC FS p', text], b.length));
      return { text };
    },
  },
];
