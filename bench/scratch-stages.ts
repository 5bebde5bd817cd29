import { createEscPosSession } from '../src/engines/escpos/index.ts';
import { testPrinterContext } from '../test/support/printer-context.ts';
import { textReceipt } from './escpos.bench.ts';
import { leanElement } from '../src/worker/services/lean-document.ts';
import { packDocument } from '../src/worker/services/packed-document.ts';
import { renderText } from '../src/engines/render/index.ts';
import { gzipSync, gunzipSync } from 'node:zlib';
import * as fflate from 'fflate';

const ctx = testPrinterContext();
const data = textReceipt();
const job = () => { const s = createEscPosSession(() => ctx); s.push(data); return s.finish(); };
const j = job();
const dtoOf = (j: any) => ({ id: 'x', printJobId: 'y', printerId: 'z', timestamp: new Date().toISOString(), protocol: 'EscPos',
  canvases: j.canvases.map((c: any) => ({ widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }), items: c.items.map((el: any) => leanElement(el)) })),
  clientAddress: '1', bytesReceived: 1, bytesSent: 0 });
const dto = dtoOf(j);
const packed = packDocument(dto as any);
const full = JSON.stringify(dto);
console.log('elements', j.canvases[0].items.length, 'packed', packed.length, 'json', full.length);
const enc = new TextEncoder();
const pb = enc.encode(packed);
function t(name: string, f: () => unknown, ms = 1500) {
  for (let i = 0; i < 50; i++) f();
  let n = 0; const t0 = performance.now(); let t1 = t0;
  while (t1 - t0 < ms) { for (let i = 0; i < 20; i++) f(); n += 20; t1 = performance.now(); }
  console.log(name.padEnd(36), ((t1 - t0) * 1000 / n).toFixed(1), 'us');
}
t('engine', job);
t('lean dto', () => dtoOf(j));
t('renderText', () => renderText(dto.canvases as any));
t('pack (incl stringify)', () => packDocument(dto as any));
t('JSON.stringify(dto)', () => JSON.stringify(dto));
t('TextEncoder packed', () => enc.encode(packed));
for (const level of [1, 3, 6]) t(`zlib gzip L${level}`, () => gzipSync(pb, { level }));
for (const level of [1, 3, 6]) t(`zlib gzip L${level} memLevel9`, () => gzipSync(pb, { level, memLevel: 9 }));
for (const level of [1, 6]) t(`fflate gzip L${level}`, () => fflate.gzipSync(pb, { level: level as any }));
for (const level of [1, 6]) t(`fflate gzip L${level} mem 8`, () => fflate.gzipSync(pb, { level: level as any, mem: 8 }));
for (const level of [1, 3, 6]) console.log(`size zlib L${level}`, gzipSync(pb, { level }).length, 'fflate', fflate.gzipSync(pb, { level: level as any }).length);
const gz = gzipSync(pb);
t('fflate gunzip', () => fflate.gunzipSync(gz));
t('zlib gunzip', () => gunzipSync(gz));
