import { describe, expect, it } from 'vitest';
import { BarcodeFormat } from '@zxing/library';
import { LINEAR_TYPE_CODES } from '../../../src/engines/epl/barcodes.ts';
import { bitmapOf, images, lines, qrDecode, run, texts, zxingDecode } from './helpers.ts';
import { decodeMaxiCode } from '../raster/maxicode-decode.ts';

const print = (...body: string[]) => run(lines('N', 'q812', 'Q800,24', ...body, 'P1')).job;

describe('B (linear bar codes) decode as the right symbology', () => {
  const cases: Array<[string, string, BarcodeFormat, string, string?]> = [
    ['1', 'ABC-123', BarcodeFormat.CODE_128, 'ABC-123'],
    ['1A', 'ABC123', BarcodeFormat.CODE_128, 'ABC123'],
    ['1B', 'abc123', BarcodeFormat.CODE_128, 'abc123'],
    ['1C', '12345678', BarcodeFormat.CODE_128, '12345678'],
    ['3', 'CODE39', BarcodeFormat.CODE_39, 'CODE39'],
    ['9', 'CODE93', BarcodeFormat.CODE_93, 'CODE93'],
    ['E30', '400638133393', BarcodeFormat.EAN_13, '4006381333931'],
    ['E80', '9638507', BarcodeFormat.EAN_8, '96385074'],
    ['UA0', '03600029145', BarcodeFormat.UPC_A, '036000291452'],
    ['2', '12345670', BarcodeFormat.ITF, '12345670'],
    ['K', 'A12345B', BarcodeFormat.CODABAR, '12345'],
    ['R14', '0001234567890', BarcodeFormat.RSS_14, '00012345678905'],
  ];
  for (const [type, data, format, expected] of cases) {
    it(`${type} ${data}`, () => {
      const job = print(`B20,20,0,${type},2,5,120,B,"${data}"`);
      expect(job.errorMessages).toEqual([]);
      const [img] = images(job.canvases[0]);
      expect(img).toMatchObject({ x: 20, y: 20 });
      const r = zxingDecode(bitmapOf(img), [format]);
      expect(r?.format).toBe(format);
      expect(r?.text).toContain(expected);
    });
  }

  it('0: Code 128 UCC shipping container code adds AI 00 and the check digit', () => {
    const job = print('B20,20,0,0,2,4,120,B,"00123456789012345"');
    const r = zxingDecode(bitmapOf(images(job.canvases[0])[0]), [BarcodeFormat.CODE_128]);
    expect(r?.text).toBe('00' + '001234567890123452');
  });

  it('1E: UCC/EAN-128 starts with FNC1', () => {
    const job = print('B20,20,0,1E,2,4,120,N,"0100012345678905"');
    expect(job.errorMessages).toEqual([]);
    const r = zxingDecode(bitmapOf(images(job.canvases[0])[0]), [BarcodeFormat.CODE_128]);
    expect(r?.text).toBe('0100012345678905');
  });

  it('human readable text is a text element under the bars', () => {
    const job = print('B100,50,0,E30,2,4,100,B,"400638133393"');
    const [img] = images(job.canvases[0]);
    const [hr] = texts(job.canvases[0]);
    expect(hr.text).toBe('4006381333931');
    expect(hr.y).toBeGreaterThanOrEqual(img.y + img.height);
    expect(hr.x + hr.width / 2).toBeCloseTo(img.x + img.width / 2, -1);
    expect(print('B100,50,0,E30,2,4,100,N,"400638133393"').canvases[0].items.some((i) => i.type === 'text')).toBe(false);
  });

  it('narrow and wide widths and height are applied', () => {
    const narrow2 = images(print('B0,0,0,3,2,4,77,N,"A"').canvases[0])[0];
    const narrow3 = images(print('B0,0,0,3,3,6,77,N,"A"').canvases[0])[0];
    expect(narrow2.height).toBe(77);
    expect(narrow3.width / narrow2.width).toBeCloseTo(1.5, 1);
    const ratio3 = images(print('B0,0,0,3,2,6,77,N,"A"').canvases[0])[0];
    expect(ratio3.width).toBeGreaterThan(narrow2.width);
  });

  it('rotation 1 turns the symbol about its start point', () => {
    const job = print('B300,100,1,1,2,4,80,B,"ROT"');
    const [img] = images(job.canvases[0]);
    const [hr] = texts(job.canvases[0]);
    expect(img.rotation).toBe('90');
    expect(img).toMatchObject({ x: 300 - 80, y: 100, width: 80 });
    expect(hr.rotation).toBe('90');
    expect(hr.x + hr.width).toBeLessThanOrEqual(img.x);
  });

  it('every EPL2 bar code selection renders with valid data', () => {
    const data: Record<string, string> = {
      '0': '00123456789012345', '1': 'ABC', '1A': 'ABC', '1B': 'abc', '1C': '1234', '1D': 'AB12345678DE', '1E': '0100012345678905',
      '2': '1234', '2C': '1234', '2D': '1234', '2G': '12345678901', '2M': '1234', '2U': '1234567890123',
      '3': 'ABC', '3C': 'ABC', '9': 'ABC', E30: '400638133393', E32: '40063813339312', E35: '40063813339312345',
      E80: '9638507', E82: '963850712', E85: '963850712345', K: 'A123B', L: '1234', M: '1234', M1: '1234', M3: '1234',
      P: '12345', PL: '12345678901', J: '1234567', UA0: '03600029145', UA2: '0360002914512', UA5: '0360002914512345',
      UE0: '0425261', UE2: '042526112', UE5: '042526112345', R14: '0001234567890', RL: '0001234567890', RS: '0001234567890',
      RT: '0001234567890', RO: '0001234567890', RX: '(01)00012345678905(10)ABC',
    };
    for (const code of LINEAR_TYPE_CODES) {
      const job = print(`B10,10,0,${code},2,4,100,B,"${data[code]}"`);
      expect([code, job.errorMessages]).toEqual([code, []]);
      expect(images(job.canvases[0])).toHaveLength(1);
    }
  });

  it('invalid data is reported and the rest of the label prints', () => {
    const job = print('B10,10,0,E30,2,4,100,B,"ABC"', 'A10,200,0,2,1,1,N,"still here"');
    expect(job.errorMessages.join('\n')).toMatch(/Line 4: B: bar code not printed: EAN-13/);
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['still here']);
  });

  it('unknown selections and bad parameters are malformed', () => {
    const job = print('B10,10,0,ZZ,2,4,100,B,"1"', 'B10,10,0,1,0,4,100,B,"1"', 'B10,10,0,1,2,4,100,X,"1"');
    expect(job.errorMessages).toHaveLength(3);
  });
});

describe('b (2D bar codes)', () => {
  it('QR Code with scale and error correction', () => {
    const job = print('b50,60,Q,m2,s5,eH,"https://example.com/track?id=42"');
    expect(job.errorMessages).toEqual([]);
    const [img] = images(job.canvases[0]);
    expect(img).toMatchObject({ x: 50, y: 60 });
    expect(img.width % 5).toBe(0);
    expect(qrDecode(bitmapOf(img))).toBe('https://example.com/track?id=42');
    // Options may be run together.
    const again = images(print('b50,60,Q,s4eL,"HELLO"').canvases[0])[0];
    expect(qrDecode(bitmapOf(again))).toBe('HELLO');
  });

  it('PDF417 fits the maximum area', () => {
    const job = print('b20,20,P,700,300,x3,y9,"PDF417 SAMPLE DATA 0123456789"');
    expect(job.errorMessages).toEqual([]);
    const [img] = images(job.canvases[0]);
    expect(img.width).toBeLessThanOrEqual(700);
    expect(zxingDecode(bitmapOf(img), [BarcodeFormat.PDF_417])?.text).toBe('PDF417 SAMPLE DATA 0123456789');
    const auto = images(print('b20,20,P,400,200,f0,"AUTO"').canvases[0])[0];
    expect(auto.width).toBeLessThanOrEqual(400);
    expect(auto.height).toBeLessThanOrEqual(200);
    expect(zxingDecode(bitmapOf(auto), [BarcodeFormat.PDF_417])?.text).toBe('AUTO');
  });

  it('PDF417 as a Zebra places and sizes it: centred in the area, 6..3-dot modules, rotated areas transposed', () => {
    // Module width: the largest of 6, 5, 4, 3 that fits; bar height 4 x module.
    const [big] = images(print('b20,20,P,800,400,"AUTO"').canvases[0]);
    expect(big.image.widthInDots % 6).toBe(0);
    expect(big.image.heightInDots % 24).toBe(0);
    expect(zxingDecode(bitmapOf(big), [BarcodeFormat.PDF_417])?.text).toBe('AUTO');
    // f1 (default): centred in the 800x400 area.
    expect(big.x).toBe(20 + Math.floor((800 - big.width) / 2));
    expect(big.y).toBe(20 + Math.floor((400 - big.height) / 2));
    // Rotated 90 degrees in a tall 200x600 area: the symbol runs down the label and fits it.
    const rotated = print('b20,20,P,200,600,o1,"ROTATED PDF417"');
    expect(rotated.errorMessages).toEqual([]);
    const [side] = images(rotated.canvases[0]);
    expect(side.rotation).toBe('90');
    expect(side.width).toBeLessThanOrEqual(200);
    expect(side.height).toBeLessThanOrEqual(600);
    // Too much data for the area even with 3-dot modules: an error, nothing printed.
    const tooBig = print(`b20,20,P,120,40,"${'X'.repeat(200)}"`);
    expect(tooBig.errorMessages.join()).toMatch(/does not fit 120x40 dots even with 3-dot modules/);
    expect(images(tooBig.canvases[0])).toHaveLength(0);
  });

  it('Data Matrix with module size', () => {
    const job = print('b30,30,D,h6,"DATAMATRIX 42"');
    expect(job.errorMessages).toEqual([]);
    const [img] = images(job.canvases[0]);
    expect(img.width % 6).toBe(0);
    expect(zxingDecode(bitmapOf(img), [BarcodeFormat.DATA_MATRIX])?.text).toBe('DATAMATRIX 42');
  });

  it('Aztec with scaling', () => {
    const job = print('b30,30,A,d4,"AZTEC CODE"');
    expect(job.errorMessages).toEqual([]);
    const [img] = images(job.canvases[0]);
    expect(zxingDecode(bitmapOf(img), [BarcodeFormat.AZTEC])?.text).toBe('AZTEC CODE');
  });

  it('MaxiCode modes 2 and 3 from EPL "class,country,postal,message" data', () => {
    const job = print('b20,20,M,"300,840,93065,1692,This is MaxiCode"', 'b300,20,M,m3,"300,826,SW1A1AA,London"');
    expect(job.errorMessages).toEqual([]);
    const imgs = images(job.canvases[0]);
    expect(imgs).toHaveLength(2);
    for (const img of imgs) {
      expect(img.width).toBe(210);
      expect(img.height).toBeGreaterThan(190);
      expect(bitmapOf(img).countBlack()).toBeGreaterThan(1000);
    }
    expect(print('b20,20,M,m2,"300,840,ABCDE,x"').errorMessages.join()).toMatch(/numeric postal code/);
  });

  const maxi = async (line: string): Promise<string | null> => {
    const job = print(line);
    expect(job.errorMessages).toEqual([]);
    return decodeMaxiCode(bitmapOf(images(job.canvases[0])[0]));
  };

  it('MaxiCode in every mode of the EPL2 guide decodes to its data (zxing-cpp)', async () => {
    const RS = '\u001e', GS = '\u001d', EOT = '\u0004';
    // Mode 2: numeric postal code, a 5-digit ZIP and its +4 as the guide writes "93065,1692".
    expect(await maxi('b20,20,M,"300,840,93065,1692,This is MaxiCode"')).toBe(`930651692${GS}840${GS}300${GS}This is MaxiCode`);
    // Mode 3: alphanumeric postal code, up to 6 characters.
    expect(await maxi('b20,20,M,m3,"300,826,SW1A1A,London"')).toBe(`SW1A1A${GS}826${GS}300${GS}London`);
    // Modes 4 and 6: the message alone.
    expect(await maxi('b20,20,M,m4,"Standard symbol"')).toBe('Standard symbol');
    expect(await maxi('b20,20,M,m6,"READER PROGRAM"')).toBe('READER PROGRAM');
    // The guide's AIM-formatted shipping example (primary message in cl,co,pc, the AIM secondary
    // message after it, "!" padding): it printed nothing before ("secondary message is too long").
    const aim = `[)>${RS}01${GS}98XXXZZFDAAF${GS}SHIP${GS}309${GS}${GS}1/1${GS}10${GS}N${GS}${GS}CAMARILLO${GS}CA${GS}${RS}${EOT}!!!!!!!!!!!!!!!!!!!!!!!`;
    expect(await maxi(`b20,400,M,m2,"001,840,93065,1692,${aim}"`)).toBe(
      `[)>${RS}01${GS}98930651692${GS}840${GS}001${GS}XXXZZFDAAF${GS}SHIP${GS}309${GS}${GS}1/1${GS}10${GS}N${GS}${GS}CAMARILLO${GS}CA${GS}${RS}${EOT}!!!!!!!!!!!!!!!!!!!!!!!`,
    );
  });

  it('unknown 2D types and bad options are malformed', () => {
    const job = print('b10,10,Z,"x"', 'b10,10,Q,s0,"x"', 'b10,10,Q,"x');
    expect(job.errorMessages).toHaveLength(3);
  });
});
