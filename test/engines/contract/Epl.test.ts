/** The engine contract for EPL2, with the label fixtures shared with the end-to-end tests. */
import { logoLabelBytes, productLabelBytes, shippingLabelBytes } from '../epl/fixtures.ts';
import { runEngineContract } from './contract.ts';

runEngineContract('Epl', {
  jobs: [
    { name: 'shipping label', bytes: shippingLabelBytes },
    { name: 'product label', bytes: productLabelBytes },
    // After the GW raster (whose data holds LF bytes), before the text fields.
    { name: 'logo label', bytes: logoLabelBytes, queryAt: logoLabelBytes.length - 'A100,100,0,3,1,1,N,"Label printer emulation"\r\nP1\r\n'.length },
  ],
  // ^ee: the error report, "00" CR LF on an idle printer.
  statusQuery: { bytes: new TextEncoder().encode('^ee\r\n'), isReply: (r) => new TextDecoder().decode(r) === '00\r\n' },
});
