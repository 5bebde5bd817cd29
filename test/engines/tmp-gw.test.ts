import { it } from 'vitest';
import { createProtocolSession, newPrinterMemory } from '../../src/engines/index.ts';
import { BOMBS } from '../support/bombs.ts';
import { context } from './escpos/helpers.ts';
it('timing', () => {
  for (const name of ['EPL GW', 'ESC *', 'huge GS v 0', 'large QR', 'tiny rasters']) {
    const bomb = BOMBS.find((b) => b.name === name)!;
    const data = bomb.bytes();
    const s = createProtocolSession(bomb.protocol, () => ({ ...context(), widthInDots: bomb.protocol === 'Epl' ? 812 : 576, heightInDots: bomb.protocol === 'Epl' ? 1218 : null } as any), newPrinterMemory());
    let max = 0, maxAt = 0; const slice = 16384;
    for (let o = 0; o < data.length; o += slice) { const t = performance.now(); s.push(data.subarray(o, o + slice)); const d = performance.now() - t; if (d > max) { max = d; maxAt = o; } }
    let steps = 0, maxStep = 0;
    while (s.finishStep?.()) { const t = performance.now(); steps++; const d = performance.now() - t; maxStep = Math.max(maxStep, d); }
    const t = performance.now(); const job = s.finish(); const fin = performance.now() - t;
    console.log(name, 'max push', max.toFixed(0), 'at', maxAt, 'steps', steps, 'finish', fin.toFixed(0), 'errors', job.errorMessages.slice(0,2), 'images', job.canvases.flatMap(c=>c.items).filter(e=>e.type==='image').length);
  }
}, 120000);
