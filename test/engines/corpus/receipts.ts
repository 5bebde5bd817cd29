/**
 * Receipts of the corpus that the tests and bench/corpus.bench.ts share.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

export const ENCODER_LINES = [
  'Grüße aus Köln 12,50 €',
  'Καλημέρα κόσμε',
  'Доброе утро, Москва',
  'Günaydın İstanbul şğı',
  'Zażółć gęślą jaźń',
  // No '§': the library encodes it as PC437's 0x15 (NAK), a control code a printer does not print.
  '£ ¥ ° ± ½ © ¿ ¡',
];
export const QR = 'https://slipstream.example/r/42';
export const UPCA = '012345678905';

/** ESC/POS models of receipt-printer-encoder the corpus prints on (Star models: their own issue). */
export const ENCODER_MODELS = [
  'epson-tm-t88vi', 'epson-tm-t20iii', 'epson-tm-m30iii', 'epson-tm-p20ii', 'epson-tm-t88v', 'epson-tm-t88iv',
  'bixolon-srp350iii', 'citizen-ct-s310ii', 'xprinter-xp-n160ii', 'pos-5890', 'sunmi-p2se', 'fujitsu-fp1000',
  'hp-a779', 'youku-58t', 'pos-8360',
];

/** The corpus receipt from receipt-printer-encoder for one model: every script, a total, QR, UPC-A, cut. */
export function encoderReceipt(modelId: string): Uint8Array {
  const encoder = new ReceiptPrinterEncoder({ printerModel: modelId as never });
  encoder.initialize().codepage('auto');
  for (const line of ENCODER_LINES) encoder.line(line);
  encoder.bold(true).line('TOTAL 42,00').bold(false);
  encoder.qrcode(QR, { model: 2, size: 6, errorlevel: 'm' });
  encoder.barcode(UPCA, 'upca', 60);
  encoder.cut();
  return encoder.encode();
}
