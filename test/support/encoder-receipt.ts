import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

type Model = NonNullable<ConstructorParameters<typeof ReceiptPrinterEncoder>[0]>['printerModel'];

/**
 * A receipt made by receipt-printer-encoder (a real client library) in one of its languages,
 * 48 columns, for its default printer or `printerModel`: sizes, styles, a table, a rule, an
 * EAN-13, a QR Code and a cut.
 */
export function encoderReceipt(language: 'esc-pos' | 'star-prnt' | 'star-line', printerModel?: Model): Uint8Array {
  return new ReceiptPrinterEncoder({ language, columns: 48, ...(printerModel && { printerModel }) })
    .initialize()
    .align('center').size(2, 2).line('SLIPSTREAM CAFE').size(1, 1)
    .align('left').bold(true).line('Bold').bold(false).italic(true).line('Italic').italic(false)
    .underline(true).line('Underlined').underline(false).invert(true).line('Inverted').invert(false)
    .table([{ width: 36 }, { width: 10, align: 'right' }], [['Espresso', '2.50'], ['Croissant', '3.10']])
    .rule()
    .barcode('3130630574613', 'ean13', 60)
    .qrcode('https://example.com/r/1')
    .cut()
    .encode();
}
