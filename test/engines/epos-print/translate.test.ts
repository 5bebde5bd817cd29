import { describe, expect, it } from 'vitest';
import { translateEposPrint, eposResult, eposResponseEnvelope } from '../../../src/engines/epos-print/index.ts';
import { all, bitmapOf, debugs, images, printedText, render, texts } from '../escpos/helpers.ts';
import { zxingCpp } from '../zpl/helpers.ts';

const envelope = (body: string, header = '') =>
  `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">${header}<s:Body>`
  + `<epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print">${body}</epos-print></s:Body></s:Envelope>`;

function print(body: string) {
  const t = translateEposPrint(envelope(body));
  if (!t.ok) throw new Error(t.error);
  return render(t.bytes);
}

const descriptions = (body: string) => debugs(print(body)).map((d) => d.commandDescription.join(' '));

describe('ePOS-Print XML through the ESC/POS engine', () => {
  it('prints text with its styles, sizes, alignment and non-ASCII characters', () => {
    const job = print('<text lang="en" smooth="true">Hello &amp; Grüße&#10;</text><text em="true" ul="true" dw="true" dh="true" align="center">BIG&#10;</text><text reverse="true" width="3" height="4">R&#10;</text><text font="font_b">small&#10;</text>');
    const t = texts(job);
    expect(printedText(job)).toContain('Hello & Grüße');
    const big = t.find((e) => e.text === 'BIG')!;
    expect(big).toMatchObject({ isBold: true, isUnderline: true, charScaleX: 2, charScaleY: 2 });
    expect(big.x).toBeGreaterThan(100); // centred on 576 dots
    expect(t.find((e) => e.text === 'R')).toMatchObject({ isReverse: true, charScaleX: 3, charScaleY: 4 });
    expect(t.find((e) => e.text === 'small')!.fontName).toBe('FontB');
  });

  it('prints a barcode and a QR code that decode to their content', async () => {
    const job = print('<barcode type="ean13" hri="below" width="3" height="60">4901234567894</barcode><feed/><symbol type="qrcode_model_2" level="level_m" width="5">https://slipstream.example/r/1</symbol>');
    const [bar, qr] = images(job).map(bitmapOf);
    expect(await zxingCpp(bar, 'EAN13')).toBe('4901234567894');
    expect(await zxingCpp(qr, 'QRCode')).toBe('https://slipstream.example/r/1');
  });

  it('prints a raster image (mono and gray16) as the dots sent', () => {
    const job = print('<image width="16" height="2">//8AAA==</image><image width="4" height="1" mode="gray16">D/A=</image>');
    const imgs = images(job);
    expect(imgs.map((i) => [i.width, i.height])).toEqual([[16, 2], [8, 1]]); // raster widths are whole bytes
    expect(bitmapOf(images(job)[1]).pixels.slice(0, 4)).toEqual(Uint8Array.from([1, 0, 0, 1])); // tones 0, 15, 15, 0: 0 is black
  });

  it('runs cut, drawer pulse, sound, logo, hline, page mode, reset and raw commands', () => {
    const d = descriptions('<text>x&#10;</text><hline x1="0" x2="300" style="thick"/><logo key1="48" key2="49"/><page><area x="0" y="0" width="400" height="200"/><direction dir="left_to_right"/><position x="10" y="40"/><text>in page</text><line x1="0" y1="0" x2="100" y2="0"/><rectangle x1="0" y1="0" x2="50" y2="50" style="thin"/></page><cut type="feed"/><pulse drawer="drawer_2" time="pulse_200"/><sound pattern="pattern_a" repeat="1"/><command>1b 40</command><reset/><recovery/><layout type="receipt"/>');
    const joined = d.join('\n');
    for (const s of ['ESC L', 'ESC W', 'GS V', 'ESC p', 'ESC ( ', 'GS ( L', 'ESC @', 'GS v']) expect(joined).toContain(s);
    const job = print('<text>a&#10;</text><cut type="feed"/><pulse drawer="drawer_1" time="pulse_100"/>');
    expect(job.canvases.length).toBeGreaterThanOrEqual(1);
    expect(printedText(job)).toContain('a');
    expect(all(print('<page><text>in page</text></page>')).some((e) => e.type === 'text' && e.text === 'in page')).toBe(true);
  });

  it('answers SchemaError for what breaks the schema, without throwing', () => {
    for (const bad of [
      envelope('<text width="9">a</text>'),
      envelope('<bogus/>'),
      envelope('<image width="8" height="2">!!</image>'),
      envelope('<image width="8" height="3">/wA=</image>'),
      envelope('<command>1g</command>'),
      envelope('<cut type="sideways"/>'),
      '<epos-print><text>',
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>',
      '',
    ]) {
      const t = translateEposPrint(bad);
      expect(t.ok, bad).toBe(false);
      if (!t.ok) expect(t.error.length).toBeGreaterThan(10);
    }
  });

  it('reads the print job id from the SOAP header and answers with it', () => {
    const t = translateEposPrint(envelope('<text>a</text>', '<s:Header><parameter xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print"><printjobid>J-42</printjobid></parameter></s:Header>'));
    expect(t.printjobid).toBe('J-42');
  });
});

describe('the ePOS-Print answer', () => {
  const ok = { flags: { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false }, drawer1State: 'Closed' as const };
  it('is what a healthy TM sends', () => {
    expect(eposResult(ok, false)).toEqual({ success: true, code: '', status: 251658262 });
    const xml = eposResponseEnvelope(eposResult(ok, false), 'J1');
    expect(xml).toMatch(/<response success="true" code="" status="251658262" battery="0"/);
    expect(xml).toContain('<printjobid>J1</printjobid>');
  });
  it('names paper out, cover open and errors with the ASB bits set', () => {
    const paper = eposResult({ ...ok, flags: { ...ok.flags, isPaperOut: true } }, false);
    expect(paper).toMatchObject({ success: false, code: 'EPTR_REC_EMPTY' });
    expect(paper.status & 0x80000).toBeTruthy();
    expect(paper.status & 0x2).toBe(0);
    const cover = eposResult({ ...ok, flags: { ...ok.flags, isCoverOpen: true } }, false);
    expect(cover).toMatchObject({ success: false, code: 'EPTR_COVER_OPEN' });
    expect(cover.status & 0x20).toBeTruthy();
    expect(eposResult({ ...ok, flags: { ...ok.flags, isOffline: true } }, false)).toMatchObject({ success: false, code: 'EX_TIMEOUT' });
    expect(eposResult(ok, true)).toMatchObject({ success: false, code: 'SchemaError' });
  });
});
