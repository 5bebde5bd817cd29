import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/**
 * One receipt, made by receipt-printer-encoder in each printer language it speaks: the same
 * content must print the same on an Epson (ESC/POS) and on a Star (StarPRNT, Star Line Mode).
 */

export type EncoderLanguage = 'esc-pos' | 'star-prnt' | 'star-line';

/** A w x h RGBA image: a black border 2 px wide around a white inside. */
export function framedImage(w: number, h: number): { data: Uint8ClampedArray; width: number; height: number } {
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  }
  return { data, width: w, height: h };
}

export const RECEIPT_CODES = {
  qr: 'https://slipstream.example/r/42',
  pdf417: 'PDF417 data 123',
  ean13: '4006381333931',
  code128: 'SLIP-128-XYZ',
} as const;

/** The text lines of the receipt, as a reader of the paper sees them (tables included). */
export const RECEIPT_LINES = [
  'Plain line',
  'Bold line',
  'Underlined',
  'Inverted',
  'Big',
  'Centered',
  'Größe: 12,50 € – café',
  'Привет мир, Ёж',
  'Καλημέρα κόσμε',
  '± ° ½ µ',
];

type EncoderOptions = NonNullable<ConstructorParameters<typeof ReceiptPrinterEncoder>[0]>;

export function starReceipt(language: EncoderLanguage, printerModel?: EncoderOptions['printerModel']): Uint8Array {
  const enc = new ReceiptPrinterEncoder({
    language,
    columns: 48,
    ...(printerModel ? { printerModel } : {}),
  } as EncoderOptions);
  enc
    .initialize()
    .codepage('auto')
    .line('Plain line')
    .bold(true).line('Bold line').bold(false)
    .underline(true).line('Underlined').underline(false)
    .invert(true).line('Inverted').invert(false)
    .size(2, 2).line('Big').size(1, 1)
    .align('center').line('Centered').align('left');
  for (const l of RECEIPT_LINES.slice(6)) enc.line(l);
  enc
    .table(
      [{ width: 36, marginRight: 2, align: 'left' }, { width: 10, align: 'right' }],
      [['Espresso', '2,50'], ['Croissant', '1,90'], ['Total', '4,40']],
    )
    .image(framedImage(64, 48), 64, 48, 'threshold')
    .barcode(RECEIPT_CODES.ean13, 'ean13', 60)
    .barcode(RECEIPT_CODES.code128, 'code128', 60)
    .qrcode(RECEIPT_CODES.qr, { model: 2, size: 6, errorlevel: 'm' })
    .pdf417(RECEIPT_CODES.pdf417)
    .cut()
    .line('Second receipt')
    .pulse()
    .cut();
  return enc.encode();
}

/**
 * A job as Star's raster drivers (TSP100 family) send it: raster mode, a 576-dot page of
 * rows whose bytes include LF and ESC values, a vertical move, EOT (cut) and quit.
 * `enterAt`: where raster mode begins (a command boundary).
 */
export function starRasterJob(): { bytes: Uint8Array; enterAt: number } {
  const head = [0x1b, 0x40, 0x1b, 0x2a, 0x72, 0x52];
  const parts: number[] = [...head, 0x1b, 0x2a, 0x72, 0x41];
  for (let y = 0; y < 120; y++) {
    parts.push(0x62, 72, 0);
    for (let x = 0; x < 72; x++) parts.push((x + y) % 3 === 0 ? 0x0a : (x * y) & 0xff);
  }
  parts.push(0x1b, 0x2a, 0x72, 0x59, 0x31, 0x30, 0x00, 0x1b, 0x0c, 0x04, 0x1b, 0x2a, 0x72, 0x42);
  return { bytes: Uint8Array.from(parts), enterAt: head.length };
}
