/**
 * Jobs that cost far more to render than their size suggests (issue 17's adversarial run), and
 * heavy legitimate ones (issue 25), for the robustness benchmark and the bomb tests. Each is
 * valid ESC/POS, EPL or ZPL that a real printer would accept; sizes are the issue's or the
 * protocol's maximum. Pictures differ from each other (a job of one picture repeated is
 * cheap: the service stores it once), as a real driver's bands or a POS's symbols do.
 */
const cat = (...parts: (Buffer | number[] | string)[]) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

export interface Bomb {
  name: string;
  protocol: 'EscPos' | 'Epl' | 'Zpl';
  bytes: () => Buffer;
  /**
   * A legitimate job, however heavy, is drawn whole (no error on its document); a bomb is cut
   * by the job's cost budget, with an error saying so.
   */
  drawnWhole?: true;
}

/** 20,000 distinct GS v 0 rasters of 2x2 bytes (16x2 dots; issue 25's 240 KB job). */
export function tinyRasters(n = 20_000): Buffer {
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: n }, (_, i) =>
    Buffer.from([0x1d, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, i & 0xff, (i >> 8) & 0xff, 0x5a, (i * 7) & 0xff]))]);
}

/** ~584 KB of CODE128 barcodes (GS k 73), each with its own data. */
function barcodes(): Buffer {
  const one = (i: number) => {
    const data = Buffer.from('{B' + `SLIPSTREAM-${String(i).padStart(10, '0')}`.repeat(2));
    return cat([0x1d, 0x68, 0xa0, 0x1d, 0x77, 0x02, 0x1d, 0x6b, 0x49, data.length], data, '\n');
  };
  const n = Math.ceil((584 * 1024) / one(0).length);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: n }, (_, i) => one(i))]);
}

/** ~2.9 MB of large QR codes (GS ( k: model 2, module 16, 1,500 bytes each, each its own). */
function largeQr(): Buffer {
  const one = (i: number) => {
    const payload = Buffer.from(String(i).padStart(8, '0') + 'Q'.repeat(1492));
    const store = cat([0x1d, 0x28, 0x6b, (payload.length + 3) & 0xff, (payload.length + 3) >> 8, 0x31, 0x50, 0x30], payload);
    return cat([0x1d, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00], [0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 0x10], store, [0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30]);
  };
  const n = Math.ceil((2.9 * 1024 * 1024) / one(0).length);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: n }, (_, i) => one(i))]);
}

/** One GS v 0 raster of the largest size (65,535 x 8 bytes per row of 65,535 rows) with data for 4 MB of it. */
function hugeGsV0(): Buffer {
  const w = 72, h = 60_000;
  return cat([0x1b, 0x40, 0x1d, 0x76, 0x30, 0x00, w & 0xff, w >> 8, h & 0xff, h >> 8], Buffer.alloc(w * h, 0x55));
}

/** GS 8 L: store raster graphics of 2,400 x 2,400 dots, then print it (GS ( L fn 50). */
function gs8L(): Buffer {
  const x = 2400, y = 2400;
  const data = Buffer.alloc((x / 8) * y, 0x33);
  const len = data.length + 10;
  return cat([0x1b, 0x40, 0x1d, 0x38, 0x4c, len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff, (len >> 24) & 0xff, 0x30, 0x70, 0x30, 0x01, 0x01, 0x31, x & 0xff, x >> 8, y & 0xff, y >> 8], data, [0x1d, 0x28, 0x4c, 0x02, 0x00, 0x30, 0x32]);
}

/** ESC * 24-dot double density, 576 columns, 4,000 lines, each its own. */
function escStar(): Buffer {
  const n = 576;
  const line = (i: number) => cat([0x1b, 0x2a, 0x21, n & 0xff, n >> 8], Buffer.alloc(n * 3, 0x0f).fill(i & 0xff, 0, 2).fill(i >> 8, 2, 4), '\n');
  return Buffer.concat([Buffer.from([0x1b, 0x40, 0x1b, 0x33, 0x18]), ...Array.from({ length: 4000 }, (_, i) => line(i))]);
}

/** Page mode with the largest print area, filled with text, printed (FF), 200 times. */
function pageMode(): Buffer {
  const page = cat([0x1b, 0x4c, 0x1b, 0x57, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], 'PAGE MODE '.repeat(400), [0x0c]);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: 200 }, () => page)]);
}

/** EPL GW: a 2,000-dot-high graphic of 100 bytes per row on each of 20 labels, each its own. */
function eplGw(): Buffer {
  const w = 100, h = 2000;
  const label = (i: number) => cat('N\n', `GW0,0,${w},${h},`, Buffer.alloc(w * h, 0x0f).fill(i, 0, 8), '\nP1\n');
  return Buffer.concat(Array.from({ length: 20 }, (_, i) => label(i)));
}

/** EPL GM: store a 1 MB PCX-sized form graphic 8 times. */
function eplGm(): Buffer {
  const data = Buffer.alloc(1024 * 1024, 0x11);
  return Buffer.concat(Array.from({ length: 8 }, (_, i) => cat(`GM"BOMB${i}",${data.length}\n`, data, '\n')));
}

/** 16 MiB of receipt text lines (the largest job `MAX_JOB_BYTES` allows). */
function text16MiB(): Buffer {
  const line = Buffer.from('Line 000000: 1 x Widget ........ 9.99\n');
  return Buffer.concat(Array.from({ length: Math.floor((16 << 20) / line.length) }, () => line));
}

/** A 4x6" ZPL label (812 x 1218 dots) with 200 CODE128 bar codes, each its own. */
function label200Barcodes(): Buffer {
  const fields = Array.from({ length: 200 }, (_, i) => `^FO${20 + (i % 4) * 200},${20 + Math.floor(i / 4) * 23}^BY1^BCN,18,N,N,N^FD${String(i).padStart(6, '0')}^FS`);
  return Buffer.from(`^XA^PW812^LL1218${fields.join('')}^XZ`);
}

export const BOMBS: Bomb[] = [
  { name: 'tiny rasters', protocol: 'EscPos', bytes: tinyRasters, drawnWhole: true },
  { name: 'barcodes', protocol: 'EscPos', bytes: barcodes },
  { name: 'large QR', protocol: 'EscPos', bytes: largeQr },
  { name: 'huge GS v 0', protocol: 'EscPos', bytes: hugeGsV0 },
  { name: 'GS 8 L', protocol: 'EscPos', bytes: gs8L },
  { name: 'ESC *', protocol: 'EscPos', bytes: escStar },
  { name: 'page mode', protocol: 'EscPos', bytes: pageMode },
  { name: 'EPL GW', protocol: 'Epl', bytes: eplGw },
  { name: 'EPL GM', protocol: 'Epl', bytes: eplGm },
  { name: '16 MiB text', protocol: 'EscPos', bytes: text16MiB },
  { name: 'label, 200 barcodes', protocol: 'Zpl', bytes: label200Barcodes, drawnWhole: true },
];

/** The 48 MiB import (24 MiB of bytes as hex, cut at MAX_JOB_BYTES), its JSON request body encoded. */
export function importBody(): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify({ data: Buffer.alloc(24 * 1024 * 1024, 0x41).toString('hex'), format: 'Hex' }));
}

export { bmpBomb, pngBomb } from './png-bomb.ts';
