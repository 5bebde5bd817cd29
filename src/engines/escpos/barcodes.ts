import type { BarcodeResult } from '../raster/barcode.ts';
import { initialDataBarStacked, renderDataBarStacked, type DataBarStackedSettings } from './gs1-databar-2d.ts';
import { bwipEscape, gtin14, isCode39Basic, renderLinearSymbol, renderMatrixSymbol, type LinearSymbol } from '../raster/symbols.ts';

/**
 * Translation of ESC/POS barcode commands (GS k, GS ( k) into the shared rasteriser's
 * requests (bwip-js symbology ids), and the human-readable interpretation (HRI) text a
 * printer prints with them.
 */

export interface LinearSpec extends LinearSymbol {
  name: string;
  /** HRI text; empty: the rasteriser's (with computed check digits). */
  hri: string;
  wideRatio?: number;
}

const latin1 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
};

const SYMBOLOGY_NAMES: Record<number, string> = {
  0: 'UPC-A', 1: 'UPC-E', 2: 'EAN-13', 3: 'EAN-8', 4: 'CODE39', 5: 'ITF', 6: 'CODABAR',
  65: 'UPC-A', 66: 'UPC-E', 67: 'EAN-13', 68: 'EAN-8', 69: 'CODE39', 70: 'ITF', 71: 'CODABAR',
  72: 'CODE93', 73: 'CODE128', 74: 'GS1-128', 75: 'GS1 DataBar Omnidirectional',
  76: 'GS1 DataBar Truncated', 77: 'GS1 DataBar Limited', 78: 'GS1 DataBar Expanded', 79: 'CODE128 auto',
};

export function symbologyName(m: number): string {
  return SYMBOLOGY_NAMES[m] ?? `symbology ${m}`;
}

/**
 * ESC/POS CODE128 data: "{A", "{B", "{C" select code sets (in set C each byte is a value
 * 0..99, two digits), "{1".."{4" are FNC1..FNC4, "{S" shift, "{{" a literal brace.
 */
function code128(data: Uint8Array): { text: string; hri: string; fnc: boolean } | string {
  let set = '';
  let text = '', hri = '', fnc = false;
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (c === 0x7b /* { */ && i + 1 < data.length) {
      const n = String.fromCharCode(data[++i]);
      switch (n) {
        case 'A': case 'B': case 'C': set = n; continue;
        case 'S': continue;
        case '1': text += '^FNC1'; fnc = true; continue;
        case '2': text += '^FNC2'; fnc = true; continue;
        case '3': text += '^FNC3'; fnc = true; continue;
        case '4': text += '^FNC4'; fnc = true; continue;
        case '{': text += '{'; hri += '{'; continue;
        default: return `invalid CODE128 escape {${n}`;
      }
    }
    if (set === '') return 'CODE128 data must start with a code set ({A, {B or {C)';
    if (set === 'C') {
      if (c > 99) return `CODE128 code set C value ${c} out of range`;
      const two = String(c).padStart(2, '0');
      text += two;
      hri += two;
    } else {
      text += bwipEscape(c);
      hri += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : ' ';
    }
  }
  return { text, hri, fnc };
}

/** GS k: returns the rasteriser request or an error message. */
export function linearFromEscPos(m: number, data: Uint8Array): LinearSpec | string {
  const s = latin1(data);
  const name = symbologyName(m);
  const digits = /^[0-9]+$/.test(s);
  switch (m) {
    case 0: case 65:
      if (!digits || (s.length !== 11 && s.length !== 12)) return `${name} needs 11 or 12 digits`;
      return { name, bcid: 'upca', text: s, hri: '' };
    case 1: case 66: {
      if (!digits || ![6, 7, 8, 11, 12].includes(s.length)) return `${name} needs 6, 7, 8, 11 or 12 digits`;
      const t = s.length === 6 ? '0' + s : s;
      return { name, bcid: 'upce', text: t, hri: '' };
    }
    case 2: case 67:
      if (!digits || (s.length !== 12 && s.length !== 13)) return `${name} needs 12 or 13 digits`;
      return { name, bcid: 'ean13', text: s, hri: '' };
    case 3: case 68:
      if (!digits || (s.length !== 7 && s.length !== 8)) return `${name} needs 7 or 8 digits`;
      return { name, bcid: 'ean8', text: s, hri: '' };
    case 4: case 69: {
      const body = s.replace(/^\*/, '').replace(/\*$/, '');
      if (!isCode39Basic(body) || body.length === 0) return `${name}: invalid data`;
      return { name, bcid: 'code39', text: body, hri: `*${body}*`, wideRatio: 2.5 };
    }
    case 5: case 70:
      if (!digits || s.length % 2 !== 0 || s.length === 0) return `${name} needs an even number of digits`;
      return { name, bcid: 'interleaved2of5', text: s, hri: s, wideRatio: 2.5 };
    case 6: case 71:
      if (!/^[A-Da-d][0-9\-$:/.+]*[A-Da-d]$/.test(s)) return `${name} needs start and stop characters A-D`;
      return { name, bcid: 'rationalizedCodabar', text: s.toUpperCase(), hri: s, wideRatio: 2.5 };
    case 72: {
      if (s.length === 0) return `${name}: no data`;
      const basic = isCode39Basic(s);
      let t = '';
      for (let i = 0; i < data.length; i++) t += bwipEscape(data[i]);
      return basic ? { name, bcid: 'code93', text: s, hri: s } : { name, bcid: 'code93ext', text: t, hri: s.replace(/[^\x20-\x7e]/g, ' '), options: { parse: true } };
    }
    case 73: {
      const r = code128(data);
      if (typeof r === 'string') return r;
      if (r.text.length === 0) return `${name}: no data`;
      return { name, bcid: 'code128', text: r.text, hri: r.hri, options: { parse: true, parsefnc: true } };
    }
    case 74: {
      if (s.includes('(')) return { name, bcid: 'gs1-128', text: s, hri: s };
      let t = '^FNC1';
      let hri = '';
      for (let i = 0; i < data.length; i++) {
        if (data[i] === 0x7b && data[i + 1] === 0x31) { t += '^FNC1'; i++; continue; }
        t += bwipEscape(data[i]);
        hri += String.fromCharCode(data[i]);
      }
      return { name, bcid: 'code128', text: t, hri, options: { parse: true, parsefnc: true } };
    }
    case 75: case 76: case 77: {
      const d = s.replace(/^\(01\)/, '').replace(/^01(?=\d{14}$)/, '');
      const gtin = /^\d{13,14}$/.test(d) ? gtin14(d) : null;
      if (!gtin) return `${name} needs 13 digits`;
      const bcid = m === 75 ? 'databaromni' : m === 76 ? 'databartruncated' : 'databarlimited';
      return { name, bcid, text: `(01)${gtin}`, hri: `(01)${gtin}` };
    }
    case 78: {
      if (!s.startsWith('(')) return `${name} needs application identifiers in parentheses`;
      return { name, bcid: 'databarexpanded', text: s, hri: s };
    }
    case 79:
      if (s.length === 0) return `${name}: no data`;
      {
        let t = '';
        for (let i = 0; i < data.length; i++) t += bwipEscape(data[i]);
        return { name, bcid: 'code128', text: t, hri: s.replace(/[^\x20-\x7e]/g, ' '), options: { parse: true } };
      }
    default:
      return `unknown barcode system ${m}`;
  }
}

/** GS k: the symbol of `spec` (cached: a POS prints the same codes on receipt after receipt). */
export function renderLinear(spec: LinearSpec, moduleWidth: number, height: number): BarcodeResult {
  return renderLinearSymbol({ bcid: spec.bcid, text: spec.text, options: spec.options }, moduleWidth, height, spec.wideRatio);
}

/** GS ( k symbol settings, kept per symbology until ESC @. */
export interface SymbolSettings {
  qrModel: number; // 49 model 1, 50 model 2, 51 micro
  qrSize: number;
  qrEc: number; // 48..51
  qrData: Uint8Array | null;
  pdfColumns: number;
  pdfRows: number;
  pdfModule: number;
  pdfRowHeight: number;
  pdfEcLevel: number | null;
  pdfTruncated: boolean;
  pdfData: Uint8Array | null;
  maxiMode: number;
  maxiData: Uint8Array | null;
  aztecCompact: boolean;
  aztecLayers: number;
  aztecModule: number;
  aztecEc: number;
  aztecData: Uint8Array | null;
  dmRect: boolean;
  dmColumns: number;
  dmRows: number;
  dmModule: number;
  dmData: Uint8Array | null;
  databar: DataBarStackedSettings;
}

export function initialSymbolSettings(): SymbolSettings {
  return {
    qrModel: 50, qrSize: 3, qrEc: 48, qrData: null,
    pdfColumns: 0, pdfRows: 0, pdfModule: 3, pdfRowHeight: 3, pdfEcLevel: null, pdfTruncated: false, pdfData: null,
    maxiMode: 50, maxiData: null,
    aztecCompact: false, aztecLayers: 0, aztecModule: 3, aztecEc: 23, aztecData: null,
    dmRect: false, dmColumns: 0, dmRows: 0, dmModule: 3, dmData: null,
    databar: initialDataBarStacked(),
  };
}

export const SYMBOL_NAMES: Record<number, string> = {
  48: 'PDF417', 49: 'QR Code', 50: 'MaxiCode', 51: 'GS1 DataBar (2D)', 52: 'Composite', 53: 'Aztec Code', 54: 'DataMatrix',
};

/** The data stored for the symbol of `cn` (what printing it encodes). */
export function storedSymbolData(cn: number, s: SymbolSettings): Uint8Array | null {
  switch (cn) {
    case 49: return s.qrData;
    case 48: return s.pdfData;
    case 50: return s.maxiData;
    case 53: return s.aztecData;
    case 54: return s.dmData;
    case 51: return s.databar.data;
    default: return null;
  }
}

/** Render the stored symbol of `cn` for a print area `areaWidth` dots wide. */
export function renderStoredSymbol(cn: number, s: SymbolSettings, areaWidth: number): BarcodeResult {
  switch (cn) {
    case 51:
      return renderDataBarStacked(s.databar, areaWidth);
    case 49: {
      if (!s.qrData || s.qrData.length === 0) return { ok: false, error: 'QR Code: no data stored' };
      const ec = ['L', 'M', 'Q', 'H'][s.qrEc - 48] ?? 'L';
      const bcid = s.qrModel === 51 ? 'microqrcode' : 'qrcode';
      const text = latin1(s.qrData), moduleSize = Math.max(1, s.qrSize);
      return renderMatrixSymbol({ bcid, text, moduleSize, options: { eclevel: ec } });
    }
    case 48: {
      if (!s.pdfData || s.pdfData.length === 0) return { ok: false, error: 'PDF417: no data stored' };
      const options: Record<string, string | number | boolean> = {};
      if (s.pdfColumns > 0) options.columns = s.pdfColumns;
      if (s.pdfRows > 0) options.rows = s.pdfRows;
      if (s.pdfEcLevel !== null) options.eclevel = s.pdfEcLevel;
      return renderMatrixSymbol({
        bcid: s.pdfTruncated ? 'pdf417compact' : 'pdf417',
        text: latin1(s.pdfData),
        moduleSize: s.pdfModule,
        rowHeight: s.pdfModule * s.pdfRowHeight,
        options,
      });
    }
    case 50: {
      if (!s.maxiData || s.maxiData.length === 0) return { ok: false, error: 'MaxiCode: no data stored' };
      const mode = s.maxiMode >= 50 && s.maxiMode <= 54 ? s.maxiMode - 48 : 4;
      const text = latin1(s.maxiData);
      const res = renderMatrixSymbol({ bcid: 'maxicode', text, moduleSize: 7, options: { mode } });
      // Modes 2 and 3 need a structured carrier message; plain data prints in mode 4.
      if (!res.ok && (mode === 2 || mode === 3)) return renderMatrixSymbol({ bcid: 'maxicode', text, moduleSize: 7, options: { mode: 4 } });
      return res;
    }
    case 53: {
      if (!s.aztecData || s.aztecData.length === 0) return { ok: false, error: 'Aztec Code: no data stored' };
      const options: Record<string, string | number | boolean> = { eclevel: s.aztecEc };
      if (s.aztecCompact) options.format = 'compact';
      if (s.aztecLayers > 0) options.layers = s.aztecLayers;
      return renderMatrixSymbol({ bcid: 'azteccode', text: latin1(s.aztecData), moduleSize: s.aztecModule, options });
    }
    case 54: {
      if (!s.dmData || s.dmData.length === 0) return { ok: false, error: 'DataMatrix: no data stored' };
      const options: Record<string, string | number | boolean> = {};
      if (s.dmRect) options.format = 'rectangle';
      if (s.dmColumns > 0) options.columns = s.dmColumns;
      if (s.dmRows > 0) options.rows = s.dmRows;
      return renderMatrixSymbol({ bcid: 'datamatrix', text: latin1(s.dmData), moduleSize: s.dmModule, options });
    }
    default:
      return { ok: false, error: `${SYMBOL_NAMES[cn] ?? 'symbol ' + cn} printing is not supported` };
  }
}
