/** The engine contract for StarLine, with receipts from receipt-printer-encoder (a real client library). */
import { runEngineContract } from './contract.ts';
import { starReceipt } from '../star/receipts.ts';

runEngineContract('StarLine', {
  jobs: [
    { name: 'star-tsp650ii receipt', bytes: starReceipt('star-line', 'star-tsp650ii') },
    { name: 'star-line receipt, no model', bytes: starReceipt('star-line') },
  ],
  // ENQ: one status byte, bit 4 fixed at 0.
  statusQuery: { bytes: Uint8Array.of(0x05), isReply: (r) => r.length === 1 && (r[0] & 0x10) === 0 },
});
