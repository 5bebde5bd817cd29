/** The engine contract for ZPL II, with a carrier-style label, a product label and jszpl labels. */
import { carrierLabelBytes, jszplLabels, productLabelBytes, uspsLabelText } from '../zpl/fixtures.ts';
import { runEngineContract } from './contract.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

runEngineContract('Zpl', {
  jobs: [
    { name: 'carrier label', bytes: carrierLabelBytes },
    { name: 'product label', bytes: productLabelBytes },
    { name: 'USPS-style label', bytes: enc(uspsLabelText) },
    ...jszplLabels().map((l) => ({ name: l.name, bytes: enc(l.zpl) })),
  ],
  // ~HS: three STX … ETX CR LF strings; string 1 starts with the communication settings.
  statusQuery: {
    bytes: enc('~HS'),
    isReply: (r) => /^\u0002\d{3},[01],[01],\d{4},\d{3},[01],[01],[01],000,[01],[01],[01]\u0003\r\n\u0002\d{3},/.test(new TextDecoder().decode(r)),
  },
});
