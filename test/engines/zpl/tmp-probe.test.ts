import { it } from 'vitest';
import { zpl, images, bitmapOf, zxingCpp } from './helpers.ts';
it('probe', async () => {
  for (const [fh, d] of [['^FH', '[)>_1e01_1d02_1d840'], ['^FH\\', '[)>\\1E01\\1D02\\1D840'], ['^FH', '[)>_1E01_1D02_1D8_5F40'], ['', '[)>\u001e01\u001d02~1D840']]) {
    const run = zpl(`^XA^FO20,20^BY2,3^B7N,10,5,,,N${fh}^FD${d}^FS^XZ`);
    const ims = images(run.job.canvases[0]);
    console.log(fh, d, JSON.stringify(await zxingCpp(bitmapOf(ims[0]), 'PDF417')), run.job.errorMessages);
  }
});
