/**
 * Star engine throughput beside its ESC/POS twin, same run: the same receipts made by
 * receipt-printer-encoder in esc-pos, star-prnt (TSP100IV) and star-line (TSP650II), rendered
 * by the ESC/POS and Star engines. Rounds alternate the engines so both see the same load on
 * the shared cores, and time is the process's CPU time (not wall time, which other processes
 * on the two cores stretch); the figure is the best round, the median beside it.
 * `npm run bench -- star`.
 * Target: Star within 20 % of ESC/POS.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import type { PrinterContext, ProtocolSession } from '../src/engines/canvas/printer-context.ts';
import { createEscPosSession } from '../src/engines/escpos/index.ts';
import { createStarSession } from '../src/engines/star/index.ts';
import { starReceipt, type EncoderLanguage } from '../test/engines/star/receipts.ts';
import { testPrinterContext } from '../test/support/printer-context.ts';

const ctx: PrinterContext = testPrinterContext();

type Engine = 'EscPos' | 'StarPrnt' | 'StarLine';
const ENGINES: { engine: Engine; language: EncoderLanguage; model?: string }[] = [
  { engine: 'EscPos', language: 'esc-pos' },
  { engine: 'StarPrnt', language: 'star-prnt', model: 'star-tsp100iv' },
  { engine: 'StarLine', language: 'star-line', model: 'star-tsp650ii' },
];

/** A text-heavy receipt: 60 item lines in a two-column table, styles, totals, cut. */
function textReceipt(language: EncoderLanguage, model?: string): Uint8Array {
  const enc = new ReceiptPrinterEncoder({ language, columns: 48, ...(model ? { printerModel: model } : {}) } as never);
  enc.initialize().codepage('auto').align('center').size(2, 2).line('SLIPSTREAM CAFE').size(1, 1).align('left');
  const rows: string[][] = [];
  for (let i = 1; i <= 60; i++) rows.push([`${String(i).padStart(2)} x Item number ${i} description`, `${(i * 1.37).toFixed(2)} €`]);
  enc.table([{ width: 36, marginRight: 2, align: 'left' }, { width: 10, align: 'right' }], rows);
  enc.bold(true).line('TOTAL'.padEnd(40, '.') + ' 99,99').bold(false).underline(true).line('Thank you').underline(false).cut();
  return enc.encode();
}

const session = (engine: Engine): ProtocolSession =>
  engine === 'EscPos' ? createEscPosSession(() => ctx) : createStarSession(engine, () => ctx);

function once(engine: Engine, data: Uint8Array): void {
  const s = session(engine);
  s.push(data);
  s.finish();
}

/** Receipts per CPU second of one engine, over about `ms` milliseconds of CPU time. */
function rate(engine: Engine, data: Uint8Array, ms: number): number {
  let n = 0;
  const c0 = process.cpuUsage();
  let used = 0;
  while (used < ms * 1000) {
    for (let i = 0; i < 10; i++) once(engine, data);
    n += 10;
    const c = process.cpuUsage(c0);
    used = c.user + c.system;
  }
  return (n * 1e6) / used;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function compare(name: string, make: (language: EncoderLanguage, model?: string) => Uint8Array): void {
  const inputs = ENGINES.map((e) => ({ ...e, data: make(e.language, e.model) }));
  for (const e of inputs) for (let i = 0; i < 30; i++) once(e.engine, e.data); // warm-up
  const rounds: Record<Engine, number[]> = { EscPos: [], StarPrnt: [], StarLine: [] };
  for (let r = 0; r < 15; r++) for (const e of inputs) rounds[e.engine].push(rate(e.engine, e.data, 200));
  const best = (xs: number[]): number => Math.max(...xs);
  const escpos = best(rounds.EscPos);
  for (const e of inputs) {
    const v = best(rounds[e.engine]);
    const rel = e.engine === 'EscPos' ? '' : `  ${((v / escpos) * 100).toFixed(0)} % of ESC/POS ${v >= escpos * 0.8 ? 'OK' : 'MISSED (target within 20 %)'}`;
    console.log(`${name} ${e.engine.padEnd(8)}: ${v.toFixed(0).padStart(6)} receipts/CPU-s (median ${median(rounds[e.engine]).toFixed(0)}, ${e.data.length} bytes)${rel}`);
  }
}

export async function run(): Promise<void> {
  compare('text receipt (60-line table)            ', textReceipt);
  compare('full receipt (text, image, EAN-13, CODE128, QR, PDF417)', (l, m) => starReceipt(l, m as never));
}
