/**
 * EPL2 bar code selections (B command p4), mapped to the shared symbol adapters
 * (`../raster/symbols.ts`). This module only translates EPL's type codes and data into a
 * symbology, text and options; the data rules common to every protocol and the drawing are
 * shared.
 */
import { gs1CheckDigit, gtin14, isCode39Basic, isDigits, type LinearSymbol } from '../raster/symbols.ts';

export { gs1CheckDigit };

export interface LinearSpec extends LinearSymbol {
  /** True when the symbology has two bar widths (p5 narrow, p6 wide). */
  twoWidths: boolean;
}

export interface LinearType {
  code: string;
  name: string;
  build(data: string): { ok: true; spec: LinearSpec } | { ok: false; error: string };
}

const digitsOnly = isDigits;

function ok(spec: LinearSpec): { ok: true; spec: LinearSpec } {
  return { ok: true, spec };
}
function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

function eanUpc(
  name: string,
  bcid: 'ean13' | 'ean8' | 'upca' | 'upce',
  lengths: number[],
  addon: 0 | 2 | 5,
): (data: string) => { ok: true; spec: LinearSpec } | { ok: false; error: string } {
  return (data) => {
    const d = data.replace(/[\s-]/g, '');
    if (!digitsOnly(d)) return fail(`${name} data must be digits`);
    const main = d.length - addon;
    if (addon > 0 && main < 1) return fail(`${name} needs ${addon} add-on digits`);
    const mainPart = d.slice(0, main);
    if (!lengths.includes(mainPart.length)) {
      return fail(`${name} needs ${lengths.join(' or ')} digits${addon ? ` plus ${addon} add-on digits` : ''}, got ${d.length}`);
    }
    const text = addon ? `${mainPart} ${d.slice(main)}` : mainPart;
    // EPL2 offers add-ons on EAN-8 too, which GS1 calls non-standard.
    return ok({ bcid, text, twoWidths: false, options: addon && bcid === 'ean8' ? { permitaddon: true } : undefined });
  };
}

const TYPES: LinearType[] = [
  {
    code: '0',
    name: 'Code 128 UCC (shipping container code)',
    build: (data) => {
      const d = data.replace(/[\s-]/g, '');
      if (!digitsOnly(d)) return fail('Code 128 UCC data must be digits');
      let body: string;
      if (d.length === 17) body = d + gs1CheckDigit(d);
      else if (d.length === 18) body = d;
      else if (d.length === 19 && d.startsWith('00')) body = d.slice(2);
      else return fail(`Code 128 UCC needs 17 digits (18 with check digit), got ${d.length}`);
      return ok({ bcid: 'gs1-128', text: `(00)${body}`, twoWidths: false, humanReadable: `(00) ${body}` });
    },
  },
  { code: '1', name: 'Code 128 auto A, B, C', build: (d) => ok({ bcid: 'code128', text: d, twoWidths: false }) },
  { code: '1A', name: 'Code 128 subset A', build: (d) => ok({ bcid: 'code128', text: d, twoWidths: false }) },
  { code: '1B', name: 'Code 128 subset B', build: (d) => ok({ bcid: 'code128', text: d, twoWidths: false }) },
  {
    code: '1C',
    name: 'Code 128 subset C',
    build: (d) => (digitsOnly(d) ? ok({ bcid: 'code128', text: d, twoWidths: false }) : fail('Code 128 subset C data must be digits')),
  },
  {
    code: '1D',
    name: 'Code 128 Deutsche Post identcode',
    build: (data) => {
      const m = /^(..)(\d{8})DE$/.exec(data);
      if (!m) return fail('Deutsche Post Code 128 needs BBNNNNNNNNDE');
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += (m[2].charCodeAt(i) - 48) * (i % 2 === 0 ? 4 : 9);
      const check = (10 - (sum % 10)) % 10;
      const text = `${m[1]}${m[2]}${check}DE`;
      return ok({ bcid: 'code128', text, twoWidths: false });
    },
  },
  {
    code: '1E',
    name: 'UCC/EAN 128',
    build: (data) => ok({ bcid: 'code128', text: `^FNC1${data.replace(/\^/g, '^094')}`, options: { parsefnc: true }, twoWidths: false, humanReadable: data }),
  },
  {
    code: '2',
    name: 'Interleaved 2 of 5',
    build: (d) => (digitsOnly(d) ? ok({ bcid: 'interleaved2of5', text: d, twoWidths: true }) : fail('Interleaved 2 of 5 data must be digits')),
  },
  {
    code: '2C',
    name: 'Interleaved 2 of 5 with mod 10 check digit',
    build: (d) =>
      digitsOnly(d) ? ok({ bcid: 'interleaved2of5', text: d, options: { includecheck: true }, twoWidths: true, humanReadable: d }) : fail('Interleaved 2 of 5 data must be digits'),
  },
  {
    code: '2D',
    name: 'Interleaved 2 of 5 with human readable check digit',
    build: (d) =>
      digitsOnly(d)
        ? ok({ bcid: 'interleaved2of5', text: d, options: { includecheck: true, includecheckintext: true }, twoWidths: true })
        : fail('Interleaved 2 of 5 data must be digits'),
  },
  {
    code: '2G',
    name: 'German Postcode',
    build: (data) => {
      const d = data.replace(/[\s.-]/g, '');
      if (!digitsOnly(d)) return fail('German Postcode data must be digits');
      if (d.length === 13 || d.length === 14) return ok({ bcid: 'leitcode', text: d.slice(0, 13), twoWidths: true });
      if (d.length === 11 || d.length === 12) return ok({ bcid: 'identcode', text: d.slice(0, 11), twoWidths: true });
      return fail(`German Postcode needs 11 (Identcode) or 13 (Leitcode) digits, got ${d.length}`);
    },
  },
  {
    code: '2M',
    name: 'Matrix 2 of 5',
    build: (d) => (digitsOnly(d) ? ok({ bcid: 'matrix2of5', text: d, twoWidths: true }) : fail('Matrix 2 of 5 data must be digits')),
  },
  {
    code: '2U',
    name: 'UPC Interleaved 2 of 5',
    build: (data) => {
      const d = data.replace(/[\s-]/g, '');
      if (!digitsOnly(d)) return fail('UPC Interleaved 2 of 5 data must be digits');
      if (d.length === 13 || d.length === 14) return ok({ bcid: 'itf14', text: d, twoWidths: true });
      return ok({ bcid: 'interleaved2of5', text: d, twoWidths: true });
    },
  },
  {
    code: '3',
    name: 'Code 39 standard or extended',
    build: (d) => ok({ bcid: isCode39Basic(d) ? 'code39' : 'code39ext', text: d, twoWidths: true }),
  },
  {
    code: '3C',
    name: 'Code 39 with check digit',
    build: (d) => ok({ bcid: isCode39Basic(d) ? 'code39' : 'code39ext', text: d, options: { includecheck: true }, twoWidths: true }),
  },
  { code: '9', name: 'Code 93', build: (d) => ok({ bcid: isCode39Basic(d) ? 'code93' : 'code93ext', text: d, twoWidths: false }) },
  { code: 'E30', name: 'EAN-13', build: eanUpc('EAN-13', 'ean13', [12, 13], 0) },
  { code: 'E32', name: 'EAN-13 with 2 digit add-on', build: eanUpc('EAN-13', 'ean13', [12, 13], 2) },
  { code: 'E35', name: 'EAN-13 with 5 digit add-on', build: eanUpc('EAN-13', 'ean13', [12, 13], 5) },
  { code: 'E80', name: 'EAN-8', build: eanUpc('EAN-8', 'ean8', [7, 8], 0) },
  { code: 'E82', name: 'EAN-8 with 2 digit add-on', build: eanUpc('EAN-8', 'ean8', [7, 8], 2) },
  { code: 'E85', name: 'EAN-8 with 5 digit add-on', build: eanUpc('EAN-8', 'ean8', [7, 8], 5) },
  {
    code: 'K',
    name: 'Codabar',
    build: (data) => {
      let d = data.toUpperCase();
      if (!/^[A-D]/.test(d)) d = 'A' + d;
      if (!/[A-D]$/.test(d) || d.length < 2) d = d + 'A';
      if (!/^[A-D][0-9\-$:/.+]*[A-D]$/.test(d)) return fail('Codabar data must be digits and - $ : / . +');
      return ok({ bcid: 'rationalizedCodabar', text: d, twoWidths: true, humanReadable: data });
    },
  },
  {
    code: 'L',
    name: 'Plessey',
    build: (d) => (/^[0-9A-F]+$/.test(d) ? ok({ bcid: 'plessey', text: d, twoWidths: true }) : fail('Plessey data must be hex digits')),
  },
  {
    code: 'M',
    name: 'MSI with mod 10 check digit',
    build: (d) => (digitsOnly(d) ? ok({ bcid: 'msi', text: d, options: { includecheck: true, checktype: 'mod10' }, twoWidths: true }) : fail('MSI data must be digits')),
  },
  {
    code: 'M1',
    name: 'MSI-1 with mod 10 check digit',
    build: (d) => (digitsOnly(d) ? ok({ bcid: 'msi', text: d, options: { includecheck: true, checktype: 'mod10' }, twoWidths: true }) : fail('MSI data must be digits')),
  },
  {
    code: 'M3',
    name: 'MSI-3 with mod 10 check digit',
    build: (d) => (digitsOnly(d) ? ok({ bcid: 'msi', text: d, options: { includecheck: true, checktype: 'mod1010' }, twoWidths: true }) : fail('MSI data must be digits')),
  },
  {
    code: 'P',
    name: 'Postnet',
    build: (data) => {
      const d = data.replace(/-/g, '');
      if (!digitsOnly(d) || ![5, 6, 9, 11].includes(d.length)) return fail('Postnet needs 5, 9 or 11 digits');
      return ok({ bcid: 'postnet', text: d, twoWidths: false });
    },
  },
  {
    code: 'PL',
    name: 'USPS Planet',
    build: (data) => {
      const d = data.replace(/-/g, '');
      if (!digitsOnly(d) || ![11, 13].includes(d.length)) return fail('Planet needs 11 or 13 digits');
      return ok({ bcid: 'planet', text: d, twoWidths: false });
    },
  },
  {
    code: 'J',
    name: 'Japanese Postnet',
    build: (data) => {
      const d = data.replace(/-/g, (m) => m).toUpperCase().slice(0, 20);
      if (!/^[0-9A-Z-]+$/.test(d)) return fail('Japanese Postnet data must be alphanumeric');
      return ok({ bcid: 'japanpost', text: d, twoWidths: false });
    },
  },
  { code: 'UA0', name: 'UPC-A', build: eanUpc('UPC-A', 'upca', [11, 12], 0) },
  { code: 'UA2', name: 'UPC-A with 2 digit add-on', build: eanUpc('UPC-A', 'upca', [11, 12], 2) },
  { code: 'UA5', name: 'UPC-A with 5 digit add-on', build: eanUpc('UPC-A', 'upca', [11, 12], 5) },
  { code: 'UE0', name: 'UPC-E', build: eanUpc('UPC-E', 'upce', [6, 7, 8], 0) },
  { code: 'UE2', name: 'UPC-E with 2 digit add-on', build: eanUpc('UPC-E', 'upce', [6, 7, 8], 2) },
  { code: 'UE5', name: 'UPC-E with 5 digit add-on', build: eanUpc('UPC-E', 'upce', [6, 7, 8], 5) },
  { code: 'R14', name: 'RSS-14 (GS1 DataBar Omnidirectional)', build: gtin('databaromni') },
  { code: 'RL', name: 'RSS-14 Limited (GS1 DataBar Limited)', build: gtin('databarlimited') },
  { code: 'RS', name: 'RSS-14 Stacked (GS1 DataBar Stacked)', build: gtin('databarstacked') },
  { code: 'RT', name: 'RSS-14 Truncated (GS1 DataBar Truncated)', build: gtin('databartruncated') },
  { code: 'RO', name: 'RSS-14 Stacked Omnidirectional', build: gtin('databarstackedomni') },
  {
    code: 'RX',
    name: 'RSS Expanded (GS1 DataBar Expanded)',
    build: (data) => ok({ bcid: 'databarexpanded', text: data.startsWith('(') ? data : `(01)${data}`, twoWidths: false }),
  },
];

function gtin(bcid: LinearSymbol['bcid']): (data: string) => { ok: true; spec: LinearSpec } | { ok: false; error: string } {
  return (data) => {
    const g = gtin14(data);
    if (!g) return fail('RSS-14 needs a 13 digit item number (GTIN)');
    return ok({ bcid, text: `(01)${g}`, twoWidths: false, humanReadable: `(01)${g}` });
  };
}

const BY_CODE = new Map(TYPES.map((t) => [t.code, t]));

export function linearType(code: string): LinearType | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

export const LINEAR_TYPE_CODES: readonly string[] = TYPES.map((t) => t.code);
