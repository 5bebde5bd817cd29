import { describe, expect, it } from 'vitest';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import {
  DEFAULT_MODEL_IDS,
  PRINTER_MODELS,
  codeTablesFor,
  defaultModelFor,
  getModel,
  modelSpeaks,
  type ModelProtocol,
} from '../../../src/engines/models/index.ts';
import { isSupportedTable } from '../../../src/engines/text/index.ts';

const ZEBRA_IDS = ['zebra-gk420d', 'zebra-zd421-203', 'zebra-zd421-300', 'zebra-zt411-203', 'zebra-zt411-300', 'zebra-zt411-600'];

describe('printer model registry', () => {
  it("holds every id of receipt-printer-encoder's printerModels, with its name, plus the Zebra models", () => {
    const ids = PRINTER_MODELS.map((m) => m.id);
    for (const { id, name } of ReceiptPrinterEncoder.printerModels) {
      expect(ids).toContain(id);
      // The package leaves the vendor of white-label models empty (" POS-5890"); we say "Generic".
      expect(getModel(id)!.name.endsWith(name.trim())).toBe(true);
    }
    for (const id of ZEBRA_IDS) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(ReceiptPrinterEncoder.printerModels.length + ZEBRA_IDS.length);
  });

  it('defaults per protocol as docs/contract/extensions.md names them, each speaking its protocol', () => {
    expect(DEFAULT_MODEL_IDS).toEqual({
      EscPos: 'epson-tm-t88vi',
      StarPrnt: 'star-tsp100iv',
      StarLine: 'star-tsp650ii',
      Epl: 'zebra-gk420d',
      Zpl: 'zebra-zd421-203',
    });
    for (const protocol of Object.keys(DEFAULT_MODEL_IDS) as ModelProtocol[]) {
      expect(modelSpeaks(defaultModelFor(protocol), protocol)).toBe(true);
    }
    expect(modelSpeaks(getModel('zebra-gk420d')!, 'Zpl')).toBe(true);
    expect(modelSpeaks(getModel('zebra-zd421-203')!, 'Epl')).toBe(false);
    expect(modelSpeaks(getModel('epson-tm-t88vi')!, 'StarPrnt')).toBe(false);
    expect(getModel('no-such-printer')).toBeUndefined();
  });

  it('every code table a model numbers is one the text decoders know', () => {
    for (const model of PRINTER_MODELS) {
      for (const protocol of model.protocols) {
        for (const [number, table] of Object.entries(codeTablesFor(model, protocol))) {
          expect(isSupportedTable(table), `${model.id} ${protocol} ${number} → ${table}`).toBe(true);
        }
      }
    }
  });

  it('numbers code tables as each vendor does (Epson ESC t 11 = PC851, Bixolon / XPrinter / POS-5890 differ)', () => {
    expect(codeTablesFor(getModel('epson-tm-t88vi')!, 'EscPos')).toMatchObject({ '0': 'cp437', '11': 'cp851', '12': 'cp853', '13': 'cp857', '17': 'cp866', '18': 'cp852', '20': 'thai42' });
    expect(codeTablesFor(getModel('bixolon-srp350iii')!, 'EscPos')).toMatchObject({ '17': 'cp866', '18': 'cp852', '21': 'cp862' });
    expect(codeTablesFor(getModel('xprinter-xp-n160ii')!, 'EscPos')).toMatchObject({ '7': 'windows1253', '17': 'cp866' });
    const pos5890Greek = Object.entries(codeTablesFor(getModel('pos-5890')!, 'EscPos')).find(([, t]) => t === 'cp851')![0];
    expect(Number(pos5890Greek)).toBeGreaterThan(11);
    expect(codeTablesFor(getModel('epson-tm-t88ii')!, 'EscPos')['11']).toBeUndefined();
    expect(codeTablesFor(getModel('zebra-gk420d')!, 'Epl')['12']).toBe('cp851');
    expect(codeTablesFor(getModel('zebra-gk420d')!, 'Zpl')['27']).toBe('windows1252');
  });

  it("fonts carry the vendors' dot sizes; the print area holds receipt-printer-encoder's line", () => {
    const t88 = getModel('epson-tm-t88vi')!;
    expect(t88.dpi).toBe(180);
    expect(t88.defaultWidthInDots).toBe(512);
    expect(t88.fonts).toContainEqual({ name: 'Font A', widthInDots: 12, heightInDots: 24 });
    expect(t88.fonts).toContainEqual({ name: 'Font B', widthInDots: 9, heightInDots: 17 });
    expect(getModel('star-tsp100iv')!.defaultWidthInDots).toBe(576);
    expect(getModel('pos-5890')!.defaultWidthInDots).toBe(384);
    expect(getModel('zebra-gk420d')!.fonts).toContainEqual({ name: '1', widthInDots: 8, heightInDots: 12 });
    expect(getModel('zebra-zt411-300')!.dpi).toBe(300);
    for (const { id } of ReceiptPrinterEncoder.printerModels) {
      const encoder = new ReceiptPrinterEncoder({ printerModel: id as never });
      expect(getModel(id)!.defaultWidthInDots, id).toBeGreaterThanOrEqual(encoder.printableWidth);
      for (const f of getModel(id)!.fonts) expect(f.widthInDots > 0 && f.heightInDots > 0).toBe(true);
    }
  });

  it('multi-byte: the default is None or one of the listed encodings; identity names the model', () => {
    for (const m of PRINTER_MODELS) {
      expect(m.defaultMultiByteEncoding === 'None' || m.multiByteEncodings.includes(m.defaultMultiByteEncoding), m.id).toBe(true);
      expect(m.identity.maker.length).toBeGreaterThan(0);
      expect(m.identity.firmware.length).toBeGreaterThan(0);
    }
    expect(getModel('epson-tm-t88vi')!.identity).toMatchObject({ maker: 'EPSON', modelName: 'TM-T88VI' });
    expect(getModel('star-tsp100iv')!.identity.modelName).toBe('TSP100IV');
    expect(getModel('zebra-zd421-300')!.identity.modelName).toBe('ZD421-300dpi');
  });
});
