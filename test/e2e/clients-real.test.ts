/**
 * Real ESC/POS client libraries printing over TCP to Slipstream printers through the real
 * bridge and Worker: node-thermal-printer, escpos + escpos-network, receiptio + receiptline.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import { inject } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { documentText, listDocuments, until } from '../bridge-unit/support/e2e.ts';

const require = createRequire(import.meta.url);
void inject('baseUrl');
let api: Api;

beforeAll(async () => {
  api = (await createWorkspaceAndLogin('real clients')).api;
});

async function newPrinter() {
  const p = await createPrinter(api);
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

function documentsWith(id: string, pred: (d: any) => boolean, what: string) {
  return until(async () => {
    const docs = (await listDocuments(api, id)).filter(pred);
    return docs.length ? docs : null;
  }, 15_000, what, 100);
}

describe('real clients over TCP', () => {
  it('node-thermal-printer prints a receipt', async () => {
    const { ThermalPrinter, PrinterTypes, CharacterSet } = require('node-thermal-printer');
    const { id, port } = await newPrinter();
    const printer = new ThermalPrinter({ type: PrinterTypes.EPSON, interface: `tcp://127.0.0.1:${port}`, characterSet: CharacterSet.PC437_USA, options: { timeout: 5000 } });
    expect(await printer.isPrinterConnected()).toBe(true);
    printer.alignCenter();
    printer.bold(true);
    printer.println('SLIPSTREAM CAFE');
    printer.bold(false);
    printer.alignLeft();
    printer.leftRight('Flat white', '3.40');
    printer.leftRight('Croissant', '2.10');
    printer.drawLine();
    printer.leftRight('TOTAL', '5.50');
    printer.cut();
    const bytes: Buffer = printer.getBuffer();
    await printer.execute();
    const [doc] = await documentsWith(id, (d) => d.bytesReceived > 0, 'the node-thermal-printer receipt');
    expect(doc.bytesReceived).toBe(bytes.length);
    expect(doc.clientAddress).toBe('127.0.0.1');
    const text = documentText(doc);
    for (const s of ['SLIPSTREAM CAFE', 'Flat white', '3.40', 'TOTAL', '5.50']) expect(text).toContain(s);
  });

  it('escpos (escpos-network adapter) prints and reads the four DLE EOT statuses', async () => {
    const escpos = require('escpos');
    const Network = require('escpos-network');
    const { id, port } = await newPrinter();
    await api('PATCH', `/api/printers/${id}/operational-flags`, { isPaperNearEnd: true });
    const device = new Network('127.0.0.1', port);
    await new Promise<void>((resolve, reject) => device.open((err: unknown) => (err ? reject(err) : resolve())));
    const printer = new escpos.Printer(device, { encoding: 'ascii' });
    // escpos 2.5.x has no getStatuses() (that arrived with the 3.0 alphas); this is the same
    // exchange: DLE EOT 1..4 written through the adapter, one reply byte each, via adapter.read.
    const replies: number[] = [];
    let wake: (() => void) | null = null;
    device.read((buf: Buffer) => {
      replies.push(...buf);
      wake?.();
    });
    const statuses: Record<string, number> = {};
    const names = ['printer', 'offlineCause', 'errorCause', 'rollPaperSensor'];
    for (const n of [1, 2, 3, 4]) {
      const want = n;
      await new Promise<void>((resolve) => {
        wake = () => replies.length >= want && resolve();
        device.write(Buffer.from([0x10, 0x04, n]));
      });
      statuses[names[n - 1]] = replies[n - 1];
    }
    expect(statuses).toEqual({ printer: 0x16, offlineCause: 0x12, errorCause: 0x12, rollPaperSensor: 0x1e });
    printer.align('ct').text('escpos says hello').cut();
    await new Promise<void>((resolve) => printer.close(() => resolve()));
    const [doc] = await documentsWith(id, (d) => d.bytesReceived > 0, 'the escpos job');
    expect(doc.bytesSent).toBe(4);
    expect(documentText(doc)).toContain('escpos says hello');
  });

  /** receiptio always dials port 9100; point that at the printer's port for this call. */
  async function receiptio(markdown: string, port: number, options = '-d 127.0.0.1 -c 42 -t 20'): Promise<string> {
    const original = net.connect;
    (net as any).connect = (...args: any[]) => (args[0] === 9100 ? (original as any)(port, ...args.slice(1)) : (original as any)(...args));
    try {
      return await require('receiptio').print(markdown, options);
    } finally {
      (net as any).connect = original;
    }
  }

  const receipt = `^^^RECEIPT

12/18/2026, 11:22:33 AM
Asparagus | 1| 1.00
Broccoli  | 2| 2.00
Carrot    | 3| 3.00
---
^TOTAL | ^6.00`;

  it('receiptio sends a receiptline receipt: status handshake succeeds and it reports success', async () => {
    const { id, port } = await newPrinter();
    const result = await receiptio(receipt, port);
    expect(result).toBe('success');
    const docs = await documentsWith(id, (d) => documentText(d).includes('Broccoli'), 'the receiptio receipt');
    expect(documentText(docs[0])).toContain('TOTAL');
    expect(docs[0].bytesSent).toBeGreaterThan(0);
  }, 60_000);

  it('receiptio reports the paper-out error and prints nothing', async () => {
    const { id, port } = await newPrinter();
    await api('PATCH', `/api/printers/${id}/operational-flags`, { isPaperOut: true });
    const result = await receiptio(receipt, port);
    expect(result).toBe('paperempty');
    await new Promise((r) => setTimeout(r, 500));
    for (const d of await listDocuments(api, id)) expect(documentText(d)).not.toContain('Broccoli');
  }, 60_000);
});
