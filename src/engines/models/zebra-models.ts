import type { CodeTableNumbering, PrinterFont, PrinterModel } from './types.ts';

/**
 * Zebra label printers, hand-written: no package holds their data. Sources: Zebra's EPL2
 * Programming Guide (fonts 1-5, the `I` command's code pages), the ZPL II Programming Guide
 * (font matrices, `^CI` character sets, `~HI` reply) and the printers' spec sheets (dpi,
 * maximum print width 4.09 in / 104 mm; ZT411 600 dpi: 4.0 in).
 */

/** EPL2 resident fonts at 203 dpi: glyph cell in dots (EPL2 guide, "Text (Fonts)"). */
const EPL_FONTS: readonly PrinterFont[] = [
  { name: '1', widthInDots: 8, heightInDots: 12 },
  { name: '2', widthInDots: 10, heightInDots: 16 },
  { name: '3', widthInDots: 12, heightInDots: 20 },
  { name: '4', widthInDots: 14, heightInDots: 24 },
  { name: '5', widthInDots: 32, heightInDots: 48 },
];

/**
 * ZPL bitmap font matrices (ZPL II guide, "Font Matrices", H x W in dots). The matrices of A-D,
 * F, G, GS and the default size of the scalable font 0 are the same dot counts at every
 * resolution; E (OCR-B) and H (OCR-A) are drawn per resolution: 8 dot/mm E 28x15, H 21x13;
 * 12 dot/mm E 42x20, H 34x22. 24 dot/mm: twice the 12 dot/mm OCR matrices (derived here,
 * so the characters keep their physical size; the guide's table stops at 12 dot/mm).
 */
function zplFonts(dpi: 203 | 300 | 600): PrinterFont[] {
  const ocr = dpi === 203 ? { e: [15, 28], h: [13, 21] } : dpi === 300 ? { e: [20, 42], h: [22, 34] } : { e: [40, 84], h: [44, 68] };
  const font = (name: string, widthInDots: number, heightInDots: number): PrinterFont => ({ name, widthInDots, heightInDots });
  return [
    font('A', 5, 9),
    font('B', 7, 11),
    font('C', 10, 18),
    font('D', 10, 18),
    font('E', ocr.e[0], ocr.e[1]),
    font('F', 13, 26),
    font('G', 40, 60),
    font('H', ocr.h[0], ocr.h[1]),
    font('GS', 24, 24),
    font('0', 12, 15),
  ];
}

/** EPL `I p1,p2,p3`: p2 → code page (EPL2 guide, I command). */
const EPL_CODE_TABLES: CodeTableNumbering = {
  '0': 'cp437',
  '1': 'cp850',
  '2': 'cp852',
  '3': 'cp860',
  '4': 'cp863',
  '5': 'cp865',
  '6': 'cp857',
  '7': 'cp861',
  '8': 'cp862',
  '9': 'cp855',
  '10': 'cp866',
  '11': 'cp737',
  '12': 'cp851',
  '13': 'cp869',
  A: 'windows1252',
  B: 'windows1250',
  C: 'windows1251',
  D: 'windows1253',
  E: 'windows1254',
  F: 'windows1255',
};

/**
 * ZPL `^CI n` single-byte character sets (ZPL II guide, ^CI). 0-12 are Zebra Code Page 850
 * with national replacements at a few ASCII positions (the ZPL engine applies those); 13 is
 * Code Page 850 itself. The Unicode and Asian sets (^CI14-17, 24, 26, 28-30) are not code
 * tables: the ZPL engine decodes them (src/engines/zpl/charsets.ts).
 */
const ZPL_CODE_TABLES: CodeTableNumbering = {
  ...Object.fromEntries(Array.from({ length: 14 }, (_, n) => [String(n), 'cp850'])),
  '27': 'windows1252',
  '31': 'windows1250',
  '33': 'windows1251',
  '34': 'windows1253',
  '35': 'windows1254',
  '36': 'windows1255',
};

/** Max print width 4.09 in (104 mm) rounded down to whole bytes, 4.0 in on the 600 dpi ZT411. */
const WIDTH_BY_DPI = { 203: 832, 300: 1248, 600: 2400 } as const;

const ZEBRA = 'Zebra';
const MAKER = 'Zebra Technologies';

function zebra(id: string, family: string, dpi: 203 | 300 | 600, firmware: string, withEpl: boolean): PrinterModel {
  const dpiLabel = dpi === 203 ? '203 dpi' : `${dpi} dpi`;
  return {
    id,
    vendor: ZEBRA,
    name: withEpl ? `${ZEBRA} ${family}` : `${ZEBRA} ${family} ${dpiLabel}`,
    protocols: withEpl ? ['Epl', 'Zpl'] : ['Zpl'],
    dpi,
    defaultWidthInDots: WIDTH_BY_DPI[dpi],
    fonts: withEpl ? [...EPL_FONTS, ...zplFonts(dpi)] : zplFonts(dpi),
    codeTables: withEpl ? { Epl: EPL_CODE_TABLES, Zpl: ZPL_CODE_TABLES } : { Zpl: ZPL_CODE_TABLES },
    // ZPL selects UTF-8 per label with ^CI28. Zebra sells units with Asian fonts: their
    // encoding is what ^CI16 (EUC-CN on a GB 18030 unit) and ^CI26 decode.
    multiByteEncodings: ['ShiftJis', 'Gb18030', 'Big5', 'KsC5601', 'Utf8'],
    defaultMultiByteEncoding: 'None',
    printsEscZ2dCodes: false,
    // ~HI answers "<model>-<dpi>dpi,<firmware>,<dots per mm>,<memory>": the model part (hand-written).
    identity: { maker: MAKER, modelName: `${family}-${dpi === 203 ? 200 : dpi}dpi`, firmware },
  };
}

export const ZEBRA_MODELS: readonly PrinterModel[] = [
  zebra('zebra-gk420d', 'GK420d', 203, 'V61.17.17Z', true),
  zebra('zebra-zd421-203', 'ZD421', 203, 'V93.21.26Z', false),
  zebra('zebra-zd421-300', 'ZD421', 300, 'V93.21.26Z', false),
  zebra('zebra-zt411-203', 'ZT411', 203, 'V92.21.26Z', false),
  zebra('zebra-zt411-300', 'ZT411', 300, 'V92.21.26Z', false),
  zebra('zebra-zt411-600', 'ZT411', 600, 'V92.21.26Z', false),
];
