import { zlibSync } from 'fflate';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A well-formed 8-bit greyscale PNG of `width` x `height` whose IDAT inflates to `inflatedBytes`. */
export function pngBomb(width = 64, height = 64, inflatedBytes = 64 * 1024 * 1024): Uint8Array {
  return pngWithData(width, height, new Uint8Array(inflatedBytes));
}

/** A well-formed 8-bit greyscale PNG whose IDAT holds `raw` (filter bytes included). */
export function pngWithData(width: number, height: number, raw: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlibSync(raw, { level: 9 })), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/** A BMP header claiming 60,000 x 60,000 pixels at 24 bits with almost no data. */
export function bmpBomb(): Uint8Array {
  const bmp = new Uint8Array(54 + 64);
  const v = new DataView(bmp.buffer);
  bmp.set([0x42, 0x4d]);
  v.setUint32(2, bmp.length, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, 60_000, true);
  v.setInt32(22, 60_000, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  return bmp;
}
