/**
 * What a ZPL printer answers to host queries, in the formats of the ZPL II Programming Guide:
 *
 * - ~HS: three strings, each STX … ETX CR LF (vol. 1, "Host Status Return");
 * - ~HQES: the error and warning flag groups (Zebra Programming Guide, ~HQ "ES");
 * - ~HI: "model,version,dots/mm,memory,options";
 * - ~HM: "total,maximum,available" RAM in KB;
 * - ~HQHA: the MAC address block;
 * - ^HH: the configuration label as text.
 *
 * Pure functions of the printer's flags and the session state at the moment of the query.
 */
import type { OperationalFlags } from '../canvas/printer-context.ts';

export const STX = '\u0002', ETX = '\u0003';

export function ascii(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/** What the status replies report besides the operational flags. */
export interface StatusInfo {
  flags: OperationalFlags;
  /** ~PS pause (kept in printer memory) — reported as the pause flag. */
  paused: boolean;
  /** Label length in dots (^LL, else the printer's). */
  labelLengthInDots: number;
  /** Formats received but not printed yet (a format being received counts as partial). */
  formatsInBuffer: number;
  partialFormat: boolean;
  bufferFull: boolean;
  /** Labels still to print in the current batch (^PQ). */
  labelsRemaining: number;
  graphicsStored: number;
  /** ^MM print mode letter (T tear-off, P peel, R rewind, A applicator, C cutter, ...). */
  printMode: string;
  /** ^MT: thermal transfer (T) or direct thermal (D). */
  thermalTransfer: boolean;
  /** ^MN: continuous media (N) instead of die-cut/gap. */
  continuousMedia: boolean;
}

const pad = (n: number, width: number): string => String(Math.max(0, Math.min(Math.floor(n), 10 ** width - 1))).padStart(width, '0');
const bit = (b: boolean): string => (b ? '1' : '0');

/**
 * ~HS string 1 `aaa,b,c,dddd,eee,f,g,h,iii,j,k,l`: communication settings (9600 8N1, no
 * handshake: 014... as a 3-digit decimal of the bit field), paper out, pause, label length,
 * formats in buffer, buffer full, diagnostic mode, partial format, unused 000, corrupt RAM,
 * under and over temperature.
 */
export function hostStatus(s: StatusInfo): Uint8Array {
  // Bits: 8-bit data (a3 = 1), 1 stop bit (a4 = 1), 9600 baud (a2 a1 a0 = 110): 0b000011110 = 030.
  const comm = '030';
  // A paused printer and an offline one both stop printing: a Zebra that is offline shows as paused.
  const paused = s.paused || s.flags.isOffline;
  const one = `${comm},${bit(s.flags.isPaperOut)},${bit(paused)},${pad(s.labelLengthInDots, 4)},${pad(s.formatsInBuffer, 3)},${bit(s.bufferFull)},0,${bit(s.partialFormat)},000,0,0,0`;
  // String 2 `mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www`: function settings (m7 continuous media, m0
  // thermal transfer), unused, head up, ribbon out, thermal transfer, print mode, print width
  // mode, label waiting, labels remaining, format while printing (always 1), graphics stored.
  const functions = (s.continuousMedia ? 0x80 : 0) | (s.thermalTransfer ? 0x01 : 0);
  const mode = PRINT_MODE_DIGIT[s.printMode] ?? 2;
  const two = `${pad(functions, 3)},0,${bit(s.flags.isCoverOpen)},0,${bit(s.thermalTransfer)},${mode},0,0,${pad(s.labelsRemaining, 8)},1,${pad(s.graphicsStored, 3)}`;
  // String 3 `xxxx,y`: password (0000), static RAM installed.
  const three = '0000,0';
  return ascii(`${STX}${one}${ETX}\r\n${STX}${two}${ETX}\r\n${STX}${three}${ETX}\r\n`);
}

/** ^MM letters to ~HS print mode digits (0 rewind, 1 peel-off, 2 tear-off, 3 cutter, 4 applicator). */
const PRINT_MODE_DIGIT: Record<string, number> = { R: 0, P: 1, T: 2, C: 3, A: 4, D: 3, K: 3, F: 2, L: 2, U: 2 };

/** ~HQES error flag bits (group 1, nibble 1 is the rightmost hex digit). */
export const HQES_ERRORS = {
  mediaOut: 0x00000001,
  ribbonOut: 0x00000002,
  headOpen: 0x00000004,
  cutterFault: 0x00000008,
  paused: 0x00010000,
} as const;

/** ~HQES warning flag bits. */
export const HQES_WARNINGS = {
  needCalibration: 0x00000001,
  cleanPrinthead: 0x00000002,
  replacePrinthead: 0x00000004,
  paperNearEnd: 0x00000008,
} as const;

const hex8 = (n: number): string => (n >>> 0).toString(16).toUpperCase().padStart(8, '0');

/**
 * ~HQES: `PRINTER STATUS` then `ERRORS:` and `WARNINGS:` lines, each "<0|1> <group 2> <group 1>"
 * with the leading digit 1 when any flag is set.
 */
export function extendedStatus(s: StatusInfo): Uint8Array {
  let errors = 0;
  if (s.flags.isPaperOut) errors |= HQES_ERRORS.mediaOut;
  if (s.flags.isCoverOpen) errors |= HQES_ERRORS.headOpen;
  if (s.paused || s.flags.isOffline) errors |= HQES_ERRORS.paused;
  let warnings = 0;
  if (s.flags.isPaperNearEnd) warnings |= HQES_WARNINGS.paperNearEnd;
  const line = (label: string, flags: number): string => `   ${label.padEnd(16)}${flags ? 1 : 0} ${hex8(0)} ${hex8(flags)}\r\n`;
  return ascii(`${STX}\r\n  PRINTER STATUS\r\n${line('ERRORS:', errors)}${line('WARNINGS:', warnings)}${ETX}\r\n`);
}

/** The printer's identity for ~HI, ^HH and ~HQ (from the printer model). */
export interface ZplIdentity {
  /** Model name as the printer reports it, e.g. "ZD421-203dpi". */
  model: string;
  firmware: string;
  dpi: 203 | 300 | 600;
  memoryKb: number;
  serial: string;
  mac: string;
}

const dotsPerMm = (dpi: number): number => (dpi >= 600 ? 24 : dpi >= 300 ? 12 : 8);

/** ~HI: `model,firmware,dots/mm,memory KB,options` in STX … ETX. */
export function hostIdentification(id: ZplIdentity): Uint8Array {
  return ascii(`${STX}${id.model},${id.firmware},${dotsPerMm(id.dpi)},${id.memoryKb}KB${ETX}\r\n`);
}

/** ~HM: total RAM, maximum available to the user, currently available (KB). */
export function hostMemory(id: ZplIdentity, capacityBytes: number, usedBytes: number): Uint8Array {
  const max = Math.floor(capacityBytes / 1024);
  const free = Math.max(0, Math.floor((capacityBytes - usedBytes) / 1024));
  return ascii(`${STX}${id.memoryKb},${max},${free}${ETX}\r\n`);
}

/** ~HQHA: the MAC address block. */
export function hardwareAddress(id: ZplIdentity): Uint8Array {
  return ascii(`${STX}\r\n  MAC ADDRESS\r\n   ${id.mac}\r\n${ETX}\r\n`);
}

/** ~HQSN: the serial number block. */
export function serialNumber(id: ZplIdentity): Uint8Array {
  return ascii(`${STX}\r\n  SERIAL NUMBER\r\n   ${id.serial}\r\n${ETX}\r\n`);
}

export interface ConfigurationInfo {
  identity: ZplIdentity;
  darkness: number;
  printWidth: number;
  labelLength: number;
  printMode: string;
  thermalTransfer: boolean;
  continuousMedia: boolean;
  formatPrefix: string;
  controlPrefix: string;
  delimiter: string;
  labelTop: number;
  leftPosition: number;
  speed: number;
}

const PRINT_MODE_NAME: Record<string, string> = { T: 'TEAR OFF', P: 'PEEL OFF', R: 'REWIND', A: 'APPLICATOR', C: 'CUTTER', D: 'DELAYED CUT', K: 'KIOSK' };
const sign = (n: number, w: number): string => `${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(w, '0')}`;
const hexOf = (c: string): string => c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');

/** The configuration label's lines, "value  NAME" as a Zebra prints them (^HH, ~WC). */
export function configurationLines(c: ConfigurationInfo): string[] {
  const rows: [string, string][] = [
    [`+${c.darkness.toFixed(1).padStart(4, '0')}`, 'DARKNESS'],
    [`${c.speed} IPS`, 'PRINT SPEED'],
    [sign(0, 3), 'TEAR OFF ADJUST'],
    [PRINT_MODE_NAME[c.printMode] ?? 'TEAR OFF', 'PRINT MODE'],
    [c.continuousMedia ? 'CONTINUOUS' : 'GAP/NOTCH', 'MEDIA TYPE'],
    [c.thermalTransfer ? 'THERMAL-TRANS.' : 'DIRECT-THERMAL', 'PRINT METHOD'],
    [String(c.printWidth), 'PRINT WIDTH'],
    [String(c.labelLength), 'LABEL LENGTH'],
    [`<>  ${hexOf(c.controlPrefix)}H`, 'CONTROL CHAR'],
    [`<>  ${hexOf(c.formatPrefix)}H`, 'COMMAND CHAR'],
    [`<>  ${hexOf(c.delimiter)}H`, 'DELIM. CHAR'],
    ['ZPL II', 'ZPL MODE'],
    [sign(c.labelTop, 3), 'LABEL TOP'],
    [sign(c.leftPosition, 4), 'LEFT POSITION'],
    [`${dotsPerMm(c.identity.dpi)}/MM FULL`, 'RESOLUTION'],
    [c.identity.firmware, 'FIRMWARE'],
    [c.identity.model, 'PRINTER MODEL'],
    [c.identity.serial, 'SERIAL NUMBER'],
    [c.identity.mac, 'MAC ADDRESS'],
  ];
  return rows.map(([v, k]) => `${v.padEnd(20)}${k}`);
}

/** ^HH: the configuration label's lines, STX … ETX as a Zebra sends them. */
export function configurationLabel(c: ConfigurationInfo): Uint8Array {
  const body = configurationLines(c).map((line) => `  ${line}\r\n`).join('');
  return ascii(`${STX}${body}${ETX}\r\n`);
}
