/**
 * Quiet where the printer is quiet (issue 13): commands a real Epson accepts silently print
 * as it does, without error messages; status polls are marked; cost budget.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { describe, expect, it } from 'vitest';
import { EscPosMachine } from '../../../src/engines/escpos/machine.ts';
import { Framer } from '../../../src/engines/core/framer.ts';
import { ESC_POS_COMMANDS } from '../../../src/engines/escpos/table.ts';
import { bytes, checkInvariants, context, debugs, DLE, ESC, GS, images, LF, render, texts } from './helpers.ts';

describe('quiet where the printer is quiet', () => {
  it("receipt-printer-encoder's italic (ESC 4 1 / ESC 4 0) prints italic, without errors", () => {
    const data = new ReceiptPrinterEncoder({ language: 'esc-pos' }).initialize().italic(true).line('Slanted').italic(false).line('Upright').encode();
    const job = render(data);
    expect(job.errorMessages).toEqual([]);
    expect(texts(job).find((t) => t.text === 'Slanted')?.isItalic).toBe(true);
    expect(texts(job).find((t) => t.text === 'Upright')?.isItalic).toBeUndefined();
  });

  it('GS w 0 and GS w 200 are clamped without an error', () => {
    for (const [n, module] of [[0, 1], [200, 6], [9, 6]] as const) {
      const job = render(bytes(GS, 'w', n, GS, 'h', 40, GS, 'k', 4, '*123*', 0));
      expect(job.errorMessages).toEqual([]);
      expect(debugs(job)[0].commandDescription[1]).toBe(`Barcode module width ${module} dots (${n} clamped)`);
      expect(images(job)).toHaveLength(1);
    }
  });

  it('a trailing cut and status query open no empty canvas', () => {
    const receipt = new ReceiptPrinterEncoder({ language: 'esc-pos' }).initialize().line('Total 1.00').cut().encode();
    const data = bytes(receipt, DLE, '\x04', 1, ESC, '@', LF);
    const job = render(data);
    checkInvariants(job, data.length);
    expect(job.canvases).toHaveLength(1);
    expect(job.isStatusPoll).toBe(false);
  });

  it('a job of DLE EOT queries and ESC @ is a status poll; one with text, a cut or a pulse is not', () => {
    const poll = bytes(ESC, '@', DLE, '\x04', 1, DLE, '\x04', 2, DLE, '\x04', 4);
    expect(render(poll).isStatusPoll).toBe(true);
    expect(render(bytes(poll, 'x')).isStatusPoll).toBe(false);
    expect(render(bytes(poll, GS, 'V', 1)).isStatusPoll).toBe(false);
    expect(render(bytes(poll, ESC, 'p', 0, 25, 250)).isStatusPoll).toBe(false);
    expect(render(bytes(poll, ESC, 'Z')).isStatusPoll).toBe(false); // an unknown command is an error, not a poll
    expect(render(new Uint8Array(0)).isStatusPoll).toBe(false);
  });
});

describe('job cost budget', () => {
  it('past the cost budget the rest is summarised with one error; bytes accounted, status still answered', () => {
    const ctx = context();
    const machine = new EscPosMachine(() => ctx, { maxCost: 2_000_000 });
    const framer = new Framer(ESC_POS_COMMANDS, machine);
    // 576x400 raster images, 230,400 dots each: the 9th does not fit.
    const image = bytes(GS, 'v0', 0, 72, 0, 144, 1, new Uint8Array(72 * 400).fill(0xaa));
    const parts = Array.from({ length: 12 }, () => image);
    for (const p of parts) framer.push(p);
    framer.push(bytes(DLE, '\x04', 1));
    expect(machine.takeOutput().replies).toHaveLength(1);
    framer.push(bytes('after', LF));
    framer.finish();
    const job = machine.finish();
    const total = image.length * 12 + 3 + 6;
    checkInvariants(job, total);
    expect(images(job).length).toBeLessThan(9);
    expect(job.errorMessages).toHaveLength(1);
    expect(job.errorMessages[0]).toMatch(/more than 2000000 units of rendering work/);
    expect(debugs(job).some((d) => d.debugType === 'elided')).toBe(true);
  });
});

describe('text as the model prints it', () => {
  it("ESC t 11 is PC851 Greek on a TM-T88VI (no approximation); a table the model lacks is an error naming it", async () => {
    const { getModel } = await import('../../../src/engines/models/index.ts');
    // "Καλημέρα" in PC851 (codepage-encoder's table, the one receipt-printer-encoder encodes with).
    const CodepageEncoder = (await import('@point-of-sale/codepage-encoder')).default;
    const greek = CodepageEncoder.encode('Καλημέρα', 'cp851');
    const tm = render(bytes(ESC, 't', 11, greek, LF), context({ model: getModel('epson-tm-t88vi') }));
    expect(texts(tm)[0].text).toBe('Καλημέρα');
    expect(tm.errorMessages).toEqual([]);
    expect(debugs(tm)[0].commandDescription[1]).not.toMatch(/approximat/);

    const hp = render(bytes(ESC, 't', 20, 'x', LF), context({ model: getModel('hp-a779') }));
    expect(hp.errorMessages).toHaveLength(1);
    expect(hp.errorMessages[0]).toMatch(/character code table 20 \(Thai Character Code 42\) is not on this printer model/);
  });

  it('Kanji mode decodes settings.multiByteEncoding: GB18030 boots in Kanji mode, Big5 after FS &', () => {
    const gb = render(bytes([0xc4, 0xe3, 0xba, 0xc3], LF), context({ multiByteEncoding: 'Gb18030' }));
    expect(texts(gb)[0].text).toBe('你好');
    const big5 = render(bytes(0x1c, '&', [0xa7, 0x41, 0xa6, 0x6e], LF), context({ multiByteEncoding: 'Big5' }));
    expect(texts(big5)[0].text).toBe('你好');
  });
});

describe('identity', () => {
  it("GS I 66 / 67 answer the model's maker and name", async () => {
    const { getModel } = await import('../../../src/engines/models/index.ts');
    const model = getModel('bixolon-srp350iii')!;
    const ctx = context({ model });
    const { createEscPosSession } = await import('../../../src/engines/escpos/index.ts');
    const replies = createEscPosSession(() => ctx).push(bytes(GS, 'I', 66, GS, 'I', 67)).replies.map((r) => new TextDecoder().decode(r));
    expect(replies).toEqual([`_${model.identity.maker}\0`, `_${model.identity.modelName}\0`]);
    expect(model.identity.maker).toBe('BIXOLON');
  });
});
