import { escapeXml } from '../xml/tree.ts';
import type { DrawerState, OperationalFlags } from '../canvas/printer-context.ts';

export const EPOS_PRINT_NAMESPACE = 'http://www.epson-pos.com/schemas/2011/03/epos-print';

/** What the answer of a TM printer depends on: its flags and drawer at the end of the job. */
export interface EposPrinterState {
  flags: OperationalFlags;
  drawer1State: DrawerState;
}

/** The `<response>` of an ePOS-Print request. */
export interface EposResult {
  success: boolean;
  /** Empty on success; an ePOS-Print error code otherwise (EPTR_COVER_OPEN, SchemaError, …). */
  code: string;
  /** The ASB status as a 32-bit number (ePOSPrint.ASB_* bits). */
  status: number;
}

/**
 * The printer's ASB status as ePOS-Print reports it: the four ASB bytes, first byte lowest
 * (ASB_OFF_LINE 0x8, ASB_COVER_OPEN 0x20, ASB_AUTORECOVER_ERR 0x4000, ASB_RECEIPT_NEAR_END
 * 0x20000, ASB_RECEIPT_END 0x80000), ASB_PRINT_SUCCESS (0x2) when the job printed, and
 * ASB_DRAWER_KICK (0x4) while the drawer is closed (pin 3 high, as DLE EOT 1 says). The fixed
 * bits are those a TM printer sends: a healthy TM answers `251658262` (0x0F000016).
 */
export function eposStatus(p: EposPrinterState, printed: boolean): number {
  const f = p.flags;
  let b1 = 0x10;
  if (printed) b1 |= 0x02;
  if (p.drawer1State === 'Closed') b1 |= 0x04;
  if (f.isOffline || f.isCoverOpen || f.isPaperOut || f.hasError) b1 |= 0x08;
  if (f.isCoverOpen) b1 |= 0x20;
  let b2 = 0;
  if (f.hasError) b2 |= 0x40;
  let b3 = 0;
  if (f.isPaperNearEnd) b3 |= 0x03;
  if (f.isPaperOut) b3 |= 0x0c;
  return (b1 | (b2 << 8) | (b3 << 16) | (0x0f << 24)) >>> 0;
}

/**
 * The answer to a job: printed unless the printer cannot print (cover open, paper out,
 * offline, error: the same conditions that keep a TM from printing), or the document broke
 * the schema.
 */
export function eposResult(p: EposPrinterState, schemaError: boolean): EposResult {
  if (schemaError) return { success: false, code: 'SchemaError', status: eposStatus(p, false) };
  const f = p.flags;
  const code = f.isCoverOpen ? 'EPTR_COVER_OPEN'
    : f.isPaperOut ? 'EPTR_REC_EMPTY'
      : f.hasError ? 'EPTR_AUTOMATICAL'
        : f.isOffline ? 'EX_TIMEOUT'
          : '';
  return { success: code === '', code, status: eposStatus(p, code === '') };
}


/** The SOAP envelope a TM printer answers with. */
export function eposResponseEnvelope(r: EposResult, printjobid: string | null): string {
  const header = printjobid !== null
    ? `<s:Header><parameter xmlns="${EPOS_PRINT_NAMESPACE}"><devid>local_printer</devid><printjobid>${escapeXml(printjobid)}</printjobid></parameter></s:Header>`
    : '';
  return '<?xml version="1.0" encoding="utf-8"?>'
    + '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">'
    + header
    + `<s:Body><response success="${r.success}" code="${escapeXml(r.code)}" status="${r.status}" battery="0" xmlns="${EPOS_PRINT_NAMESPACE}"></response></s:Body>`
    + '</s:Envelope>';
}
