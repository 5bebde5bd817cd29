/**
 * Replies an EPL2 printer sends back to the host: UQ (configuration), ^ee (immediate error
 * report), error reporting after US (format chosen by eR), and the listings of FI / GI / EI.
 * Error codes (EPL2 Programming Guide, ^ee): 00 no error, 01 syntax error, 02 object exceeded
 * label border, 03 bar code data length error, 07 out of paper or ribbon, 08 duplicate name,
 * 09 name not found, 11 print head up (open).
 */
import type { OperationalFlags } from '../canvas/printer-context.ts';
import type { LabelSetup } from './state.ts';

const enc = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};

export const ERROR_CODES: Record<string, string> = {
  '00': 'no error',
  '01': 'syntax error',
  '02': 'object exceeded label border',
  '03': 'bar code data length error',
  '04': 'insufficient memory to store data',
  '07': 'out of paper or ribbon',
  '08': 'duplicate name',
  '09': 'name not found',
  '11': 'print head up (open)',
};

/** Codes reflecting the printer's operational flags right now. */
export function flagCodes(flags: OperationalFlags): string[] {
  const codes: string[] = [];
  if (flags.isPaperOut) codes.push('07');
  if (flags.isCoverOpen) codes.push('11');
  return codes;
}

/** ^ee: "00" CR LF, or the current codes joined by commas. */
export function immediateErrorReport(codes: string[]): Uint8Array {
  const unique = [...new Set(codes)].sort();
  return enc(`${unique.length ? unique.join(',') : '00'}\r\n`);
}

export interface ErrorReporting {
  enabled: boolean;
  /** eR p1: the error/status character. */
  char: string;
  /** eR p2: 0 standard, 1 character only, 2 character and code. */
  mode: number;
}

/**
 * One error report while US is active. Mode 0 (standard): NAK, the two-digit code, CR LF.
 * Mode 1: the eR character, CR LF. Mode 2: the eR character, the code, CR LF.
 */
export function errorReport(rep: ErrorReporting, code: string): Uint8Array {
  if (rep.mode === 1) return enc(`${rep.char}\r\n`);
  if (rep.mode === 2) return enc(`${rep.char}${code}\r\n`);
  return enc(`\u0015${code}\r\n`);
}

export interface ConfigInfo {
  setup: LabelSetup;
  widthInDots: number;
  heightInDots: number | null;
  errorReporting: boolean;
  forms: number;
  graphics: number;
  formBytes: number;
  graphicBytes: number;
}

const pad = (n: number, w: number): string => String(Math.max(0, Math.round(n))).padStart(w, '0');

/** UQ: configuration lines like a Zebra 2844 / GK420 answers, CR LF terminated. */
export function configurationReply(c: ConfigInfo): Uint8Array {
  const s = c.setup;
  const width = s.width ?? c.widthInDots;
  const length = s.length ?? c.heightInDots ?? 0;
  const freeK = (used: number): string => ((512 * 1024 - used) / 1024).toFixed(1).padStart(5, '0');
  const lines = [
    'UKQ1935HLU     V4.70.1A (Slipstream EPL2 emulation, 203 dpi)',
    'S/N: 00SLIPSTREAM',
    'Serial port:96,N,8,1',
    'Image buffer size:0245K',
    `Fmem:${(c.formBytes / 1024).toFixed(1).padStart(5, '0')}K,${freeK(c.formBytes)}K avl`,
    `Gmem:${pad(c.graphicBytes / 1024, 3)}K,${freeK(c.graphicBytes)}K avl`,
    'Emem:000K,0512K avl',
    `I${s.eightBit ? 8 : 7},${s.codePage.id},001 rY JF WY`,
    `S${s.speed ?? 4} D${pad(s.density ?? 8, 2)} R${pad(s.refX, 3)},${pad(s.refY, 3)} Z${s.topFirst ? 'T' : 'B'} U${c.errorReporting ? 'S' : 'N'}`,
    `q${width} Q${length},${s.gap || '024'}`,
    `Option:${s.options.length ? s.options.join(',') : 'D'}`,
    `Forms:${c.forms} Graphics:${c.graphics}`,
    '',
  ];
  return enc(lines.join('\r\n'));
}

/** FI / GI / EI listing: one name per line, then the free memory line. */
export function listingReply(title: string, names: string[], usedBytes: number): Uint8Array {
  const lines = [...names, `${title}: ${names.length}, ${Math.max(0, 512 * 1024 - usedBytes)} bytes free`, ''];
  return enc(lines.join('\r\n'));
}
