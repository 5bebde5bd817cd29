/** The engine contract for ESC/POS, with receipts from receipt-printer-encoder (a real client library). */
import { runEngineContract } from './contract.ts';
import { encoderReceipt } from '../../support/encoder-receipt.ts';

runEngineContract('EscPos', {
  jobs: [
    { name: 'epson-tm-t88vi receipt', bytes: encoderReceipt('esc-pos', 'epson-tm-t88vi') },
    { name: 'bixolon-srp350iii receipt', bytes: encoderReceipt('esc-pos', 'bixolon-srp350iii') },
  ],
  // DLE EOT 1: printer status, one byte 0xx1x010.
  statusQuery: { bytes: Uint8Array.of(0x10, 0x04, 0x01), isReply: (r) => r.length === 1 && (r[0] & 0x93) === 0x12 },
});
