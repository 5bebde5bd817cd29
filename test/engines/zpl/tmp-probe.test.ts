import { it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { zpl, bitmapOf, zxingCpp } from './helpers.ts';
import { pngOf } from '../../../src/engines/raster/png.ts';
it('probe', async () => {
  for (const [f, fmt] of [['fedex', 'PDF417'], ['usps', 'DataMatrix'], ['amazon', 'Code128'], ['porterbuddy', 'Code128'], ['icapaket', 'Code128']]) {
    const text = readFileSync(`test/engines/zpl/carrier-labels/${f}.zpl`, 'latin1');
    const { job } = zpl(Uint8Array.from(text, (c) => c.charCodeAt(0)));
    const ims = job.canvases[0].items.filter((i) => i.type === 'image');
    console.log(f, job.errorMessages);
    let k = 0;
    for (const im of ims) {
      const b = bitmapOf(im as never);
      writeFileSync(`/tmp/i29/img-${f}-${k++}.png`, pngOf(b).png);
      console.log(' ', (im as any).x, (im as any).y, b.width, b.height, (im as any).rotation, JSON.stringify(await zxingCpp(b, fmt)), (im as any).commandDescription?.join(' / ').slice(0, 80));
    }
  }
});
