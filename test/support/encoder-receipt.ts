import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/**
 * A receipt made by receipt-printer-encoder (a real client library) in one of its languages,
 * 48 columns: sizes, styles, a table, a rule, an EAN-13, a QR Code and a cut.
 */
export function encoderReceipt(language: 'esc-pos' | 'star-prnt' | 'star-line'): Uint8Array {
  return new ReceiptPrinterEncoder({ language, columns: 48 })
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
