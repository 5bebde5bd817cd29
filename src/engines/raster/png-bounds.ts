/**
 * A PNG's image data must not inflate to more than its header says (unchecked, a 995 KB upload
 * whose IDAT inflates to ~1 GB takes workerd to 3.6 GB). Checked before the
 * decoder runs: the IDAT stream is inflated in small pieces, counting, and abandoned as soon as
 * it passes the size that width, height, colour type and bit depth allow. Pure TypeScript.
 */
import { Unzlib } from 'fflate';

/** Compressed bytes handed to the inflater at once: deflate expands at most ~1032:1, so one piece yields about a megabyte at most. */
const PIECE = 1024;

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function u32be(b: Uint8Array, o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}

/** The most bytes the IDAT stream of this header can legitimately inflate to (Adam7 included). */
export function maxInflatedPngBytes(width: number, height: number, colorType: number, bitDepth: number, interlace: number): number | null {
  const channels = CHANNELS[colorType];
  if (!channels || ![1, 2, 4, 8, 16].includes(bitDepth)) return null;
  const rowBytes = Math.ceil((width * channels * bitDepth) / 8);
  const plain = height * (1 + rowBytes);
  // Adam7: seven passes, each row with its own filter byte and rounding up to whole bytes.
  return interlace === 1 ? plain + 7 * (height + 8) * 2 : plain;
}

/** Null when the PNG's data stays within what its header allows; otherwise why not. */
export function pngInflationProblem(bytes: Uint8Array): string | null {
  const width = u32be(bytes, 16), height = u32be(bytes, 20);
  const bitDepth = bytes[24], colorType = bytes[25], interlace = bytes[28];
  const limit = maxInflatedPngBytes(width, height, colorType, bitDepth, interlace);
  if (limit === null) return `invalid PNG: unsupported colour type ${colorType} with bit depth ${bitDepth}`;
  let inflated = 0;
  let over = false;
  const inflater = new Unzlib((chunk) => {
    inflated += chunk.length;
    if (inflated > limit) over = true;
  });
  // Walk the chunks: length (4), type (4), data, CRC (4).
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = u32be(bytes, offset);
    const type = String.fromCharCode(bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7]);
    const start = offset + 8;
    const end = start + length;
    if (end > bytes.length) break; // truncated: the decoder reports it
    if (type === 'IDAT') {
      for (let p = start; p < end && !over; p += PIECE) inflater.push(bytes.subarray(p, Math.min(end, p + PIECE)));
      if (over) return `image data too large: it inflates beyond the ${limit} bytes a ${width}x${height} image needs`;
    }
    if (type === 'IEND') break;
    offset = end + 4;
  }
  return null;
}
