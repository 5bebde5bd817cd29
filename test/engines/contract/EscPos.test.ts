/** The engine contract for ESC/POS, with receipts from receipt-printer-encoder (a real client library). */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { runEngineContract } from './contract.ts';

type Model = NonNullable<ConstructorParameters<typeof ReceiptPrinterEncoder>[0]>['printerModel'];

function receipt(model: Model): Uint8Array {
  const enc = new ReceiptPrinterEncoder({ language: 'esc-pos', printerModel: model, columns: 48 });
  return enc
    .initialize()
    .align('center').size(2, 2).line('SLIPSTREAM CAFE').size(1, 1)
    .align('left').bold(true).line('Bold').bold(false).italic(true).line('Italic').italic(false)
    .underline(true).line('Underlined').underline(false)
    .table([{ width: 36 }, { width: 10, align: 'right' }], [['Espresso', '2.50'], ['Croissant', '3.10']])
    .rule()
    .barcode('3130630574613', 'ean13', 60)
    .qrcode('https://example.com/r/1')
    .cut()
    .encode();
}

runEngineContract('EscPos', {
  jobs: [
    { name: 'epson-tm-t88vi receipt', bytes: receipt('epson-tm-t88vi') },
    { name: 'bixolon-srp350iii receipt', bytes: receipt('bixolon-srp350iii') },
  ],
  // DLE EOT 1: printer status, one byte 0xx1x010.
  statusQuery: { bytes: Uint8Array.of(0x10, 0x04, 0x01), isReply: (r) => r.length === 1 && (r[0] & 0x93) === 0x12 },
});
