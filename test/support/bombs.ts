/**
 * Jobs that cost far more to render than their size suggests (issue 17's adversarial run),
 * for the robustness benchmark and the bomb tests. Each is valid ESC/POS or EPL that a real
 * printer would accept; sizes are the issue's or the protocol's maximum.
 */
const cat = (...parts: (Buffer | number[] | string)[]) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

export interface Bomb {
  name: string;
  protocol: 'EscPos' | 'Epl';
  bytes: () => Buffer;
}

/** 20,000 GS v 0 rasters of 8x1 dots (the 240 KB job). */
function tinyRasters(): Buffer {
  const one = Buffer.from([0x1d, 0x76, 0x30, 0x00, 0x01, 0x00, 0x01, 0x00, 0xaa, 0x0a, 0x0a, 0x0a]);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: 20_000 }, () => one)]);
}

/** ~584 KB of CODE128 barcodes (GS k 73). */
function barcodes(): Buffer {
  const data = Buffer.from('{B' + 'SLIPSTREAM-0123456789'.repeat(2));
  const one = cat([0x1d, 0x68, 0xa0, 0x1d, 0x77, 0x02, 0x1d, 0x6b, 0x49, data.length], data, '\n');
  const n = Math.ceil((584 * 1024) / one.length);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: n }, () => one)]);
}

/** ~2.9 MB of large QR codes (GS ( k: model 2, module 16, 1,500 bytes each). */
function largeQr(): Buffer {
  const payload = Buffer.from('Q'.repeat(1500));
  const store = cat([0x1d, 0x28, 0x6b, (payload.length + 3) & 0xff, (payload.length + 3) >> 8, 0x31, 0x50, 0x30], payload);
  const one = cat([0x1d, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00], [0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 0x10], store, [0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30]);
  const n = Math.ceil((2.9 * 1024 * 1024) / one.length);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: n }, () => one)]);
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

/** ESC * 24-dot double density, 576 columns, 4,000 lines. */
function escStar(): Buffer {
  const n = 576;
  const line = cat([0x1b, 0x2a, 0x21, n & 0xff, n >> 8], Buffer.alloc(n * 3, 0x0f), '\n');
  return Buffer.concat([Buffer.from([0x1b, 0x40, 0x1b, 0x33, 0x18]), ...Array.from({ length: 4000 }, () => line)]);
}

/** Page mode with the largest print area, filled with text, printed (FF), 200 times. */
function pageMode(): Buffer {
  const page = cat([0x1b, 0x4c, 0x1b, 0x57, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], 'PAGE MODE '.repeat(400), [0x0c]);
  return Buffer.concat([Buffer.from([0x1b, 0x40]), ...Array.from({ length: 200 }, () => page)]);
}

/** EPL GW: a 2,000-dot-high graphic of 100 bytes per row on each of 20 labels. */
function eplGw(): Buffer {
  const w = 100, h = 2000;
  const label = cat('N\n', `GW0,0,${w},${h},`, Buffer.alloc(w * h, 0x0f), '\nP1\n');
  return Buffer.concat(Array.from({ length: 20 }, () => label));
}

/** EPL GM: store a 1 MB PCX-sized form graphic 8 times. */
function eplGm(): Buffer {
  const data = Buffer.alloc(1024 * 1024, 0x11);
  return Buffer.concat(Array.from({ length: 8 }, (_, i) => cat(`GM"BOMB${i}",${data.length}\n`, data, '\n')));
}

export const BOMBS: Bomb[] = [
  { name: 'tiny rasters', protocol: 'EscPos', bytes: tinyRasters },
  { name: 'barcodes', protocol: 'EscPos', bytes: barcodes },
  { name: 'large QR', protocol: 'EscPos', bytes: largeQr },
  { name: 'huge GS v 0', protocol: 'EscPos', bytes: hugeGsV0 },
  { name: 'GS 8 L', protocol: 'EscPos', bytes: gs8L },
  { name: 'ESC *', protocol: 'EscPos', bytes: escStar },
  { name: 'page mode', protocol: 'EscPos', bytes: pageMode },
  { name: 'EPL GW', protocol: 'Epl', bytes: eplGw },
  { name: 'EPL GM', protocol: 'Epl', bytes: eplGm },
];

export { bmpBomb, pngBomb } from './png-bomb.ts';
