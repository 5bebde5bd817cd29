import type { DrawerState, OperationalFlags } from '../canvas/printer-context.ts';

/**
 * Star status replies, computed from the printer's state at the moment a query arrives.
 * Bit layouts from Star's command specifications (STAR Line Mode and StarPRNT, appendix
 * "Status Specifications"): the ENQ and EOT status bytes, and the Automatic Status (ASB)
 * read by StarIO-based drivers (ESC ACK SOH, ESC RS a).
 *
 * Pure: no state of its own. The session passes the ETB counter it keeps.
 */

export interface StarStatusInput {
  flags: OperationalFlags;
  drawer1State: DrawerState;
  /** The receive buffer is full: the printer reports itself offline. */
  bufferFull: boolean;
  /** ETB commands counted since ESC @ / the connection began (5 bits, wraps at 32). */
  etbCounter: number;
  /** An ETB was executed and not yet reported (printer status 1, bit 1). */
  etbExecuted: boolean;
}

/**
 * The drawer's compulsion switch reads "closed" (bit set) while the drawer is open: Star's
 * default "drawer open status" is High, so StarIO reports `compulsionSwitch` as the drawer
 * being open. Star wires one sensor, on the drawer-1 connector.
 */
const drawerOpen = (s: StarStatusInput): boolean => s.drawer1State !== 'Closed';

/** Anything that stops printing takes the printer offline (as on the real unit). */
const offline = (s: StarStatusInput): boolean =>
  s.flags.isOffline || s.flags.isCoverOpen || s.flags.isPaperOut || s.flags.hasError || s.bufferFull;

/** Number of bytes of the ASB Slipstream sends: header 1, header 2 and printer status 1..7. */
export const ASB_LENGTH = 9;
/** ASB version 3: "up to printer status 7 (9th byte) loaded" (header 2 = 0x06). */
const ASB_VERSION = 3;

/**
 * Header 1: bit 0 fixed 1, bits 1-3 and 5 the transmitted byte count (its bits 0-2 in bits
 * 1-3, its bit 3 in bit 5): 7 bytes → 0x0F, 9 bytes → 0x23.
 */
export function asbHeader1(byteCount: number): number {
  return 0x01 | ((byteCount & 0x07) << 1) | ((byteCount & 0x08) << 2);
}

/** Header 2: the ASB version in bits 1-3 and 5 (the same packing); bit 7 (length follows) clear. */
export function asbHeader2(version: number): number {
  return ((version & 0x07) << 1) | ((version & 0x08) << 2);
}

/**
 * The Automatic Status (9 bytes).
 * - status 1 (3rd byte): bit 5 cover open, bit 3 offline, bit 2 compulsion switch (drawer
 *   open), bit 1 ETB executed.
 * - status 2 (4th): bit 5 non-recoverable error (Slipstream's "error" flag).
 * - status 3 (5th): reception buffer overflow, page-mode command error, BM error: never set.
 * - status 4 (6th): bit 3 paper end, bit 2 paper near end (inner sensor).
 * - status 5 (7th): 0. status 6 (8th): the ETB counter, bits 0-2 in 1-3, bits 3-4 in 5-6.
 * - status 7 (9th): 0.
 * Every status byte keeps bits 0, 4 and 7 clear, so a driver can tell it from header 1.
 */
export function starAsb(s: StarStatusInput): Uint8Array {
  let st1 = 0;
  if (s.flags.isCoverOpen) st1 |= 0x20;
  if (offline(s)) st1 |= 0x08;
  if (drawerOpen(s)) st1 |= 0x04;
  if (s.etbExecuted) st1 |= 0x02;
  const st2 = s.flags.hasError ? 0x20 : 0;
  let st4 = 0;
  if (s.flags.isPaperOut) st4 |= 0x08;
  if (s.flags.isPaperNearEnd) st4 |= 0x04;
  const etb = s.etbCounter & 0x1f;
  const st6 = ((etb & 0x07) << 1) | ((etb & 0x18) << 2);
  return Uint8Array.of(asbHeader1(ASB_LENGTH), asbHeader2(ASB_VERSION), st1, st2, 0, st4, 0, st6, 0);
}

/**
 * ENQ status (1 byte): bit 7 compulsion switch, bit 5 reception buffer empty, bit 3 paper
 * end, bit 2 other errors (non-recoverable error or cover open); bit 4 fixed 0; bits 0-1
 * (serial parity/framing errors) and 6 (buffer overflow) never set over a network.
 */
export function starEnq(s: StarStatusInput): number {
  let v = 0;
  if (drawerOpen(s)) v |= 0x80;
  if (!s.bufferFull) v |= 0x20;
  if (s.flags.isPaperOut) v |= 0x08;
  if (s.flags.hasError || s.flags.isCoverOpen) v |= 0x04;
  return v;
}

/** EOT status (1 byte): bit 4 fixed 1, bit 3 paper end, bit 2 paper near end (inner); bit 0 fixed 0. */
export function starEot(s: StarStatusInput): number {
  let v = 0x10;
  if (s.flags.isPaperOut) v |= 0x08;
  if (s.flags.isPaperNearEnd) v |= 0x04;
  return v;
}

/**
 * Reply to ESC # * LF NUL ("inquire printer version"): `ESC # * , <model> <version> LF NUL`,
 * as Star's manual shows it ("ESC # *,HSP7000 Ver. 1.0 LF NUL").
 */
export function starVersionReply(modelName: string, firmware: string): Uint8Array {
  const text = `,${modelName} ${firmware}`;
  const out = new Uint8Array(3 + text.length + 2);
  out[0] = 0x1b;
  out[1] = 0x23;
  out[2] = 0x2a;
  for (let i = 0; i < text.length; i++) out[3 + i] = text.charCodeAt(i) & 0x7f;
  out[out.length - 2] = 0x0a;
  out[out.length - 1] = 0x00;
  return out;
}
