/**
 * Receipts from `@node-escpos/core` (node-escpos 3.x) with a capturing adapter, on an XPrinter
 * model. Its `qrcode()` sends the Chinese-brand 2D commands (`GS Z 2`, QR Code, then
 * `ESC Z version level size nL nH data`), and its text goes out in the code page the job
 * selects, with no `FS .`: an international unit starts in single-byte mode and prints it.
 */
import { describe, expect, it } from 'vitest';
import { Printer } from '@node-escpos/core';
import { bitmapOf, imageElements, printedLines, runJob } from './run-job.ts';
import { zxingCpp } from '../zpl/helpers.ts';
import { decodedCodes } from './decode-codes.ts';

async function capture(encoding: string, build: (printer: Printer<[]>) => void): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const adapter = {
    write: (d: Buffer, cb?: (e?: Error | null) => void) => { chunks.push(Buffer.from(d)); cb?.(null); },
    open: (cb?: (e?: Error | null) => void) => cb?.(null),
    close: (cb?: (e?: Error | null) => void) => cb?.(null),
    read: () => undefined,
  };
  const printer = new Printer(adapter as never, { encoding });
  build(printer);
  await printer.flush();
  return new Uint8Array(Buffer.concat(chunks));
}

const URL = 'https://slipstream.example/r/4711?t=12.50';

describe('@node-escpos/core', () => {
  it('a PC858 receipt with a QR Code on an XPrinter: text as sent, the QR decodes, no errors', async () => {
    const data = await capture('cp858', (p) => {
      p.setCharacterCodeTable(19); // PC858 in XPrinter's numbering
      p.align('lt').text('Café crème  2 x 3,20 €');
      p.text('Größe: ½ kg — Ñandú');
      p.align('ct').qrcode(URL, 0, 'M', 6);
      p.text('Merci !');
      p.cut();
    });
    expect(Buffer.from(data).includes(Buffer.from([0x1d, 0x5a, 0x02, 0x1b, 0x5a]))).toBe(true);
    const job = runJob(data, 'xprinter-xp-n160ii');
    expect(job.errorMessages).toEqual([]);
    expect(printedLines(job)).toEqual(['Café crème 2 x 3,20 €', 'Größe: ½ kg ? Ñandú', 'Merci !']);
    expect(decodedCodes(job)).toEqual([URL]);
  });

  it('QR Code versions and levels: each decodes to its data', async () => {
    for (const [version, level, size] of [[3, 'L', 4], [0, 'H', 8], [10, 'Q', 3]] as const) {
      const text = `v${version}${level}-0123456789-ABC`;
      const data = await capture('cp858', (p) => { p.qrcode(text, version, level, size); p.cut(); });
      const job = runJob(data, 'xprinter-xp-t80q');
      expect(job.errorMessages, text).toEqual([]);
      const img = job.canvases.flatMap((c) => c.items).find((e) => e.type === 'image');
      expect(img && img.type === 'image' ? img.width : 0).toBeGreaterThan(20);
      expect(decodedCodes(job)).toEqual([text]);
    }
  });

  it('GS Z 0 / GS Z 1 then ESC Z print PDF417 and DataMatrix, decoding to their data', async () => {
    const GS1 = 'PDF-\u001d417 data 12345';
    const escZ = (type: number, v: number, r: number, k: number, text: string): number[] => {
      const d = [...Buffer.from(text, 'latin1')];
      return [0x1d, 0x5a, type, 0x1b, 0x5a, v, r, k, d.length & 255, d.length >> 8, ...d, 0x0a];
    };
    const bytes = Uint8Array.from([0x1b, 0x40, 0x1d, 0x77, 2, ...escZ(0, 4, 2, 3, GS1), ...escZ(1, 0, 0, 4, 'DM 0123456789'), 0x1d, 0x56, 0x00]);
    const job = runJob(bytes, 'pos-5890');
    expect(job.errorMessages).toEqual([]);
    const pictures = imageElements(job).map(bitmapOf);
    expect(pictures).toHaveLength(2);
    expect(await zxingCpp(pictures[0], 'PDF417')).toBe(GS1);
    expect(await zxingCpp(pictures[1], 'DataMatrix')).toBe('DM 0123456789');
  });

  it('on an Epson (no ESC Z) the 2D code commands are reported, not printed as text', async () => {
    const data = await capture('cp858', (p) => { p.text('Total 9,90 €'); p.qrcode(URL, 0, 'M', 6); p.cut(); });
    const job = runJob(data, 'epson-tm-t88vi');
    expect(job.errorMessages.some((e) => /ESC Z.*not a command of EPSON TM-T88VI|not a command/i.test(e))).toBe(true);
    expect(printedLines(job).join('\n')).not.toContain('slipstream.example');
  });
});
