/**
 * Per-model corpus throughput: the receipt-printer-encoder corpus receipt (six scripts, a
 * total, QR, UPC-A, cut) run through the engine as a printer of each model, plus CJK and Thai
 * receipts from receiptline, and the text decoders alone. `npm run bench -- corpus`.
 */
import { createRequire } from 'node:module';
import { createProtocolSession } from '../src/engines/index.ts';
import { getModel, modelContext, type MultiByteEncoding } from '../src/engines/models/index.ts';
import { decodeMultiByte, decodeSingleByte } from '../src/engines/text/index.ts';
import { testPrinterContext } from '../test/support/printer-context.ts';
import { ENCODER_MODELS, encoderReceipt } from '../test/engines/corpus/receipts.ts';

const require = createRequire(import.meta.url);
const receiptline = require('receiptline') as { transform(doc: string, printer: Record<string, unknown>): string };

function perSecond(work: () => void, minMs: number): number {
  for (let i = 0; i < 20; i++) work(); // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    for (let i = 0; i < 10; i++) work();
    n += 10;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

function printJob(modelId: string, bytes: Uint8Array, multiByteEncoding?: MultiByteEncoding): () => void {
  const model = getModel(modelId)!;
  const ctx = { ...testPrinterContext({ widthInDots: model.defaultWidthInDots }), ...modelContext(model, multiByteEncoding) };
  return () => {
    const session = createProtocolSession('EscPos', () => ctx);
    session.push(bytes);
    session.finish();
  };
}

function line(name: string, bytes: number, perSec: number): void {
  console.log(`${name.padEnd(44)} ${perSec.toFixed(0).padStart(7)} receipts/s  ${((bytes * perSec) / 1e6).toFixed(2).padStart(6)} MB/s  (${bytes} bytes)`);
}

export async function run(): Promise<void> {
  console.log('receipt-printer-encoder corpus receipt, per model:');
  for (const id of ENCODER_MODELS) {
    const bytes = encoderReceipt(id);
    line(id, bytes.length, perSecond(printJob(id, bytes), 400));
  }
  console.log('receiptline receipts:');
  const cjk = '^^^RECEIPT\n欢迎光临\n合计 | 128.00\n谢谢惠顾\n'.repeat(8);
  for (const [encoding, mb] of [['gb18030', 'Gb18030'], ['big5', 'Big5'], ['ksc5601', 'KsC5601'], ['shiftjis', 'ShiftJis']] as const) {
    const bytes = Uint8Array.from(receiptline.transform(cjk, { cpl: 48, encoding, command: 'escpos' }), (c) => c.charCodeAt(0) & 0xff);
    line(`receiptline ${encoding} on epson-tm-m30iii`, bytes.length, perSecond(printJob('epson-tm-m30iii', bytes, mb), 400));
  }
  const thai = Uint8Array.from(receiptline.transform('สวัสดีครับ ขอบคุณที่ใช้บริการ\n'.repeat(20), { cpl: 48, encoding: 'tis620', command: 'escpos' }), (c) => c.charCodeAt(0) & 0xff);
  line('receiptline tis620 on epson-tm-m30iii', thai.length, perSecond(printJob('epson-tm-m30iii', thai), 400));

  console.log('text decoders alone (64 KB):');
  const single = Uint8Array.from({ length: 65536 }, (_, i) => 0x20 + (i % 0xe0));
  const singleRate = perSecond(() => decodeSingleByte('cp851', single), 400);
  console.log(`decodeSingleByte cp851: ${((singleRate * single.length) / 1e6).toFixed(1)} MB/s`);
  const gb = new Uint8Array(require('iconv-lite').encode('欢迎光临合计谢谢惠顾'.repeat(3300), 'gb18030'));
  const gbRate = perSecond(() => decodeMultiByte('Gb18030', gb), 400);
  console.log(`decodeMultiByte Gb18030: ${((gbRate * gb.length) / 1e6).toFixed(1)} MB/s`);
}
