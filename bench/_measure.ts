import { gzipSync } from 'node:zlib';
import { textReceipt } from './escpos.bench.ts';
import { createEscPosSession } from '../src/engines/escpos/index.ts';
import { testPrinterContext } from '../test/support/printer-context.ts';
import { leanSource, leanDebugExtras } from '../src/worker/services/lean-document.ts';
const raw = textReceipt();
const s = createEscPosSession(() => testPrinterContext());
s.push(raw);
const job = s.finish();
const items = job.canvases.flatMap((c) => c.items).map((el: any) => {
  const src = leanSource(el);
  const { commandRaw, commandDescription, lengthInBytes, parameters, ...rest } = el;
  return el.type === 'debug' ? { ...rest, ...leanDebugExtras(el), ...src } : { ...rest, ...src };
});
const json = JSON.stringify(items);
console.log('raw', raw.length, 'json', json.length, (json.length / raw.length).toFixed(1), 'gz', gzipSync(json).length, 'items', items.length);
const byType: Record<string, number> = {};
for (const el of items) byType[el.type + ':' + ((el as any).debugType ?? '')] = (byType[el.type + ':' + ((el as any).debugType ?? '')] ?? 0) + JSON.stringify(el).length;
console.log(byType);
