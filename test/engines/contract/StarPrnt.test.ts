/** The engine contract for StarPrnt, with receipts from receipt-printer-encoder (a real client library). */
import { runEngineContract } from './contract.ts';
import { starRasterJob, starReceipt } from '../star/receipts.ts';

const raster = starRasterJob();

runEngineContract('StarPrnt', {
  jobs: [
    { name: 'star-tsp100iv receipt', bytes: starReceipt('star-prnt', 'star-tsp100iv') },
    { name: 'star-mc-print2 receipt', bytes: starReceipt('star-prnt', 'star-mc-print2') },
    { name: 'raster driver job', bytes: raster.bytes, queryAt: raster.enterAt },
  ],
  // ESC ACK SOH: the 9-byte automatic status, header 1 = 0x23.
  statusQuery: { bytes: Uint8Array.of(0x1b, 0x06, 0x01), isReply: (r) => r.length === 9 && r[0] === 0x23 },
});
