/**
 * Realistic EPL2 jobs as a Zebra 2844 / GK420d (203 dpi) receives them from shipping and
 * warehouse software. Shared with the end-to-end tests (printed over TCP): import the byte
 * arrays, send them, compare the document.
 */

import { concatBytes, latin1 as toBytes } from '../../support/printer-context.ts';

const CRLF = '\r\n';

const job = (...lines: string[]): string => lines.map((l) => l + CRLF).join('');

/** UPS-style MaxiCode message (AIM format 01, year 96) for a tracking number. */
export function upsMaxiCodeData(tracking: string): string {
  const RS = '\u001e', GS = '\u001d', EOT = '\u0004';
  return `[)>${RS}01${GS}96152382802${GS}840${GS}001${GS}${tracking}${GS}UPSN${GS}1234E1${GS}097${GS}${GS}1/1${GS}10.1${GS}N${GS}${GS}PITTSBURGH${GS}PA${RS}${EOT}`;
}

/**
 * A 4x6 inch carrier shipping label: 20 text fields, frame lines, a Code 128 tracking bar code
 * and a MaxiCode. One label (P1).
 */
export function shippingLabel(tracking = '1Z12345E0205271688'): string {
  const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return job(
    '',
    'N',
    'q812',
    'Q1218,24',
    'ZT',
    'S3',
    'D10',
    'I8,A,001',
    'A30,20,0,4,1,1,N,"ACME WIDGETS INC"',
    'A30,50,0,3,1,1,N,"SHIPPING DEPT 12"',
    'A30,76,0,3,1,1,N,"1500 INDUSTRIAL PKWY"',
    'A30,102,0,3,1,1,N,"CLEVELAND OH 44135"',
    'A560,20,0,4,1,1,N,"5 LBS"',
    'A560,50,0,3,1,1,N,"1 OF 1"',
    'A560,76,0,3,1,1,N,"DWT: 12,8,6"',
    'LO20,140,772,4',
    'A30,160,0,2,1,1,N,"SHIP TO:"',
    'A60,190,0,4,1,1,N,"JANE DOE"',
    'A60,222,0,4,1,1,N,"NORTHWIND TRADERS"',
    'A60,254,0,4,1,1,N,"634 ALPHA DR"',
    'A60,286,0,4,2,2,N,"PITTSBURGH PA 15238"',
    'LO20,350,772,4',
    `b40,380,M,"${esc(upsMaxiCodeData(tracking))}"`,
    'A300,380,0,5,1,1,N,"PA 152 9-02"',
    'A300,440,0,3,1,1,N,"UPS GROUND"',
    'LO20,600,772,4',
    'A30,620,0,4,1,1,N,"UPS GROUND"',
    `A30,660,0,3,1,1,N,"TRACKING #: ${tracking.slice(0, 2)} ${tracking.slice(2, 5)} ${tracking.slice(5, 8)} ${tracking.slice(8, 10)} ${tracking.slice(10, 14)} ${tracking.slice(14)}"`,
    'LO20,690,772,4',
    `B80,720,0,1,3,6,200,N,"${tracking}"`,
    'LO20,960,772,4',
    'A30,980,0,2,1,1,N,"BILLING: P/P"',
    'A30,1006,0,2,1,1,N,"REF 1: PO 4500012345"',
    'A30,1032,0,2,1,1,N,"REF 2: ORDER 88123"',
    'A560,1180,0,1,1,1,N,"XOL 26.11.01"',
    'P1',
  );
}

export const SHIPPING_LABEL_TRACKING = '1Z12345E0205271688';
export const shippingLabelBytes: Uint8Array = toBytes(shippingLabel(SHIPPING_LABEL_TRACKING));

/** A 2 x 1 inch retail product label with an EAN-13 (check digit computed by the printer), two copies. */
export const productLabelBytes: Uint8Array = toBytes(
  job(
    '',
    'N',
    'q406',
    'Q203,24',
    'A20,10,0,3,1,1,N,"ORGANIC GREEN TEA 20CT"',
    'A20,36,0,2,1,1,N,"SKU 100-2231"',
    'B60,64,0,E30,2,4,80,B,"400638133393"',
    'A280,10,0,4,1,1,R," $4.99 "',
    'P1,2',
  ),
);
export const PRODUCT_EAN13 = '4006381333931';

/**
 * Serialized asset tags from a stored form: a variable (part number) and a counter (serial),
 * five labels, the counter advancing by one between labels.
 */
export const serializedFormBytes: Uint8Array = toBytes(
  job(
    '',
    'FK"ASSET"',
    'FS"ASSET"',
    'V00,15,N,"Part number"',
    'C0,6,N,+1,"First serial"',
    'q406',
    'Q203,24',
    'A20,10,0,3,1,1,N,"ASSET TAG"',
    'A20,40,0,4,1,1,N,V00',
    'A20,74,0,3,1,1,N,"S/N "C0',
    'B20,104,0,1,2,4,60,N,V00"-"C0',
    'FE',
    'FR"ASSET"',
    '?',
    'WIDGET-42',
    '000100',
    'P5',
  ),
);
export const SERIALIZED_FIRST = 100;
export const SERIALIZED_COUNT = 5;

/** A 64 x 64 dot company logo: a dotted rule, a ring with a bar across, as GW raster rows (0 = black). */
export function logoRaster(): { widthBytes: number; height: number; data: Uint8Array } {
  const size = 64, widthBytes = 8;
  const data = new Uint8Array(widthBytes * size).fill(0xff);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - 31.5, y - 31.5);
      const black = (d <= 31 && d >= 22) || (y >= 28 && y < 36 && x >= 8 && x < 56);
      if (black) data[y * widthBytes + (x >> 3)] &= ~(0x80 >> (x & 7));
    }
  }
  // Top row: a dotted rule whose bytes are CR and LF, as real rasters often contain.
  for (let i = 0; i < widthBytes; i++) data[i] = i % 2 === 0 ? 0x0d : 0x0a;
  return { widthBytes, height: size, data };
}

/** A label with a GW logo (the raster contains CR and LF bytes) beside the company name. */
export const logoLabelBytes: Uint8Array = (() => {
  const { widthBytes, height, data } = logoRaster();
  return concatBytes(
    job('', 'N', 'q812', 'Q300,24'),
    `GW20,20,${widthBytes},${height},`,
    data,
    CRLF,
    job('A100,40,0,5,1,1,N,"SLIPSTREAM"', 'A100,100,0,3,1,1,N,"Label printer emulation"', 'P1'),
  );
})();

export const fixtures = {
  shippingLabel: shippingLabelBytes,
  productLabel: productLabelBytes,
  serializedForm: serializedFormBytes,
  logoLabel: logoLabelBytes,
};
