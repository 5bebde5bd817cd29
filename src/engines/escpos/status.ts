import { defaultModelFor } from '../models/index.ts';
import type { PrinterContext } from '../canvas/printer-context.ts';

/**
 * Status replies computed from the printer context at the moment the query arrives
 * (bit layouts from decisions.md "ESC/POS status replies" and Epson's ESC/POS reference).
 */

const isOffline = (c: PrinterContext): boolean =>
  c.flags.isOffline || c.flags.isCoverOpen || c.flags.isPaperOut || c.flags.hasError || c.bufferFull;

/** Drawer kick-out connector pin 3 reads HIGH while drawer 1 is closed (decisions.md). */
const pin3High = (c: PrinterContext): boolean => c.drawer1State === 'Closed';

/** DLE EOT n, n = 1..4: one byte, bits 1 and 4 set, bits 0 and 7 clear. */
export function dleEot(n: number, c: PrinterContext): number | null {
  let v = 0x12;
  switch (n) {
    case 1:
      if (pin3High(c)) v |= 0x04;
      if (isOffline(c)) v |= 0x08;
      return v;
    case 2:
      if (c.flags.isCoverOpen) v |= 0x04;
      if (c.flags.isPaperOut) v |= 0x20;
      if (c.flags.hasError || c.flags.isCoverOpen) v |= 0x40;
      return v;
    case 3:
      if (c.flags.hasError) v |= 0x40;
      return v;
    case 4:
      if (c.flags.isPaperNearEnd) v |= 0x0c;
      if (c.flags.isPaperOut) v |= 0x60;
      return v;
    default:
      return null;
  }
}

/** GS r 1/49: paper sensors (bits 0,1 near end; bits 2,3 paper end). */
export function gsRPaper(c: PrinterContext): number {
  let v = 0;
  if (c.flags.isPaperNearEnd) v |= 0x03;
  if (c.flags.isPaperOut) v |= 0x0c;
  return v;
}

/** GS r 2/50: bit 0 drawer kick-out connector pin 3. */
export function gsRDrawer(c: PrinterContext): number {
  return pin3High(c) ? 0x01 : 0x00;
}

/**
 * Automatic Status Back: 4 bytes. First byte 0xx1xx00, the others 0xx0xxxx.
 * 1: bit 2 pin 3, bit 3 offline, bit 5 cover open.
 * 2: bit 3 autocutter error, bit 5 unrecoverable, bit 6 auto-recoverable error.
 * 3: bits 0,1 paper near end, bits 2,3 paper end.
 * 4: reserved (0).
 */
export function asb(c: PrinterContext): Uint8Array {
  let b1 = 0x10;
  if (pin3High(c)) b1 |= 0x04;
  if (isOffline(c)) b1 |= 0x08;
  if (c.flags.isCoverOpen) b1 |= 0x20;
  let b2 = 0;
  if (c.flags.hasError) b2 |= 0x40;
  let b3 = 0;
  if (c.flags.isPaperNearEnd) b3 |= 0x03;
  if (c.flags.isPaperOut) b3 |= 0x0c;
  return Uint8Array.of(b1, b2, b3, 0);
}

/** GS I n: printer ID, from the model's identity (the default ESC/POS model when none). Returns null for unsupported n. */
export function gsI(n: number, c: PrinterContext): Uint8Array | null {
  const { maker: MAKER, modelName: MODEL, firmware: FIRMWARE } = (c.model ?? defaultModelFor('EscPos')).identity;
  const block = (s: string): Uint8Array => {
    const out = new Uint8Array(s.length + 2);
    out[0] = 0x5f; // "_"
    for (let i = 0; i < s.length; i++) out[i + 1] = s.charCodeAt(i) & 0x7f;
    return out;
  };
  switch (n) {
    case 1: case 49: return Uint8Array.of(0x20); // model ID: TM-T88 family
    case 2: case 50: return Uint8Array.of(0x02 | (c.kanjiEncoding ? 0x01 : 0)); // autocutter, multi-byte chars
    case 3: case 51: return Uint8Array.of(0x30); // ROM version ID
    case 33: return block('0'); // type information (simplified)
    case 35: return block('0');
    case 36: return block('0');
    case 65: return block(FIRMWARE);
    case 66: return block(MAKER);
    case 67: return block(MODEL);
    case 68: return block('SLIPSTREAM0001');
    case 69: return block(c.kanjiEncoding ? 'JAPANESE' : 'PC437');
    case 111: return block('0');
    case 112: return block('0');
    default: return null;
  }
}
