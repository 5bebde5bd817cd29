/**
 * ^CW font identifiers and downloaded fonts (ZPL II Programming Guide, ^CW, ^A@, ~DU, ~DB,
 * ~DY): a name assigned to a stored font prints with that font; Slipstream draws downloaded
 * fonts as font 0 at the requested size and says so in the field's description.
 */
import { describe, expect, it } from 'vitest';
import type { TextElement } from '../../../src/engines/canvas/model.ts';
import { debugs, newZplPrinterMemory, texts, zpl } from './helpers.ts';

/** A TrueType download (~DU): the bytes are stored, not parsed. */
const DOWNLOAD_TTF = '~DUR:MYFONT.TTF,8,0001000000100080\r\n';

const geometry = (t: TextElement) => ({ x: t.x, y: t.y, width: t.width, height: t.height, fontName: t.fontName, text: t.text });
const description = (t: TextElement) => t.commandDescription.join(' ');

/** The one text element of a label, with the job's error messages. */
function field(src: string, memory = newZplPrinterMemory()): { t: TextElement; errors: string[] } {
  const { job } = zpl(src, { memory });
  const t = texts(job.canvases[0]);
  expect(t).toHaveLength(1);
  return { t: t[0], errors: job.errorMessages };
}

describe('^CW font identifiers', () => {
  it('a name assigned to a downloaded TrueType font prints as font 0 at the requested size, and says so', () => {
    const { t, errors } = field(`${DOWNLOAD_TTF}^XA^CWZ,R:MYFONT.TTF^FO20,30^AZN,40,30^FDDownloaded^FS^XZ`);
    expect(errors).toEqual([]);
    const reference = field('^XA^FO20,30^A0N,40,30^FDDownloaded^FS^XZ').t;
    expect(geometry(t)).toEqual(geometry(reference));
    expect(t.height).toBe(40);
    expect(description(t)).toMatch(/font Z = R:MYFONT\.TTF is a downloaded TrueType font, drawn as font 0 at the requested size/);
    expect(description(reference)).not.toMatch(/font 0 at the requested size/);
  });

  it('replacing a built-in letter: font A becomes the downloaded font; without the download the resident A prints with an error', () => {
    const replaced = field(`${DOWNLOAD_TTF}^XA^CWA,R:MYFONT.TTF^FO20,30^AAN,36,36^FDSwapped^FS^XZ`);
    expect(replaced.errors).toEqual([]);
    expect(replaced.t).toMatchObject({ fontName: 'ZplFont0', height: 36 });
    const missing = field('^XA^CWA,R:NOFONT.FNT^FO20,30^AAN,18,10^FDResident^FS^XZ');
    expect(missing.t).toMatchObject({ fontName: 'ZplFontA', height: 18 });
    expect(missing.errors.join()).toMatch(/font A is assigned to R:NOFONT\.FNT \(\^CW\), which is not in printer memory: the resident font A prints/);
  });

  it('the resident scalable font’s file (E:TT0003M_.FNT) is font 0, through ^CW and ^A@', () => {
    const viaId = field('^XA^CWQ,E:TT0003M_.FNT^FO20,30^AQN,50,40^FDResident 0^FS^XZ');
    const viaName = field('^XA^FO20,30^A@N,50,40,E:TT0003M_.FNT^FDResident 0^FS^XZ');
    const font0 = field('^XA^FO20,30^A0N,50,40^FDResident 0^FS^XZ');
    for (const r of [viaId, viaName]) {
      expect(r.errors).toEqual([]);
      expect(geometry(r.t)).toEqual(geometry(font0.t));
      expect(description(r.t)).toMatch(/TT0003M_\.FNT is the resident font 0/);
    }
  });

  it('^A@ with a font the printer does not hold prints font 0 and reports it', () => {
    const r = field('^XA^FO20,30^A@N,30,30,R:ARIAL.TTF^FDMissing^FS^XZ');
    expect(r.t).toMatchObject({ fontName: 'ZplFont0', height: 30 });
    expect(r.errors.join()).toMatch(/font R:ARIAL\.TTF is not in printer memory; font 0 is used/);
    const held = field(`${DOWNLOAD_TTF}^XA^FO20,30^A@N,30,30,R:MYFONT.TTF^FDHeld^FS^XZ`);
    expect(held.errors).toEqual([]);
    expect(description(held.t)).toMatch(/downloaded TrueType font, drawn as font 0/);
  });

  it('assignments and downloads last across connections (printer memory); ^CF takes an assigned name', () => {
    const memory = newZplPrinterMemory();
    expect(zpl(`${DOWNLOAD_TTF}^XA^CWX,R:MYFONT.TTF^XZ`, { memory }).job.errorMessages).toEqual([]);
    const r = field('^XA^CFX,44^FO20,30^FDDefault font X^FS^XZ', memory);
    expect(r.errors).toEqual([]);
    expect(r.t).toMatchObject({ fontName: 'ZplFont0', height: 44 });
    expect(description(r.t)).toMatch(/font X = R:MYFONT\.TTF is a downloaded TrueType font/);
  });

  it('bitmap (~DB) and ~DY TrueType downloads are named for what they are', () => {
    const bitmap = field('~DBR:TIMES.FNT,N,5,24,3,10,2,ZEBRA 1992,#0025.5.16.2.5.18.00FF00FFFF00FF00FFFF\r\n^XA^CWT,R:TIMES.FNT^FO10,10^ATN,30,20^FDBitmap^FS^XZ');
    expect(bitmap.errors).toEqual([]);
    expect(description(bitmap.t)).toMatch(/R:TIMES\.FNT is a downloaded bitmap font \(~DB\), drawn as font 0/);
    const dy = field('~DYE:ARIAL,A,T,4,,00010000\r\n^XA^CWY,E:ARIAL.TTF^FO10,10^AYN,30,30^FDOpenType^FS^XZ');
    expect(dy.errors).toEqual([]);
    expect(description(dy.t)).toMatch(/E:ARIAL\.TTF is a downloaded TrueType font/);
  });

  it('a ^CW name that is not one letter or digit is an error and assigns nothing', () => {
    const { job } = zpl('^XA^CWAB,R:MYFONT.FNT^FO10,10^AAN^FDA^FS^XZ');
    expect(job.errorMessages.join()).toMatch(/\^CW font name 'AB' is not one letter/);
    expect(texts(job.canvases[0])[0].fontName).toBe('ZplFontA');
    expect(debugs(job).some((d) => d.commandDescription.join(' ').includes("Font identifier 'AB'"))).toBe(true);
  });

  it('^CW to a font downloaded later takes effect once it is there', () => {
    const memory = newZplPrinterMemory();
    const before = zpl('^XA^CWK,R:LATER.TTF^XZ', { memory });
    expect(debugs(before.job).map((d) => d.commandDescription.join(' ')).join('\n')).toMatch(/not in printer memory yet: until it is, font K prints as font 0/);
    zpl('~DUR:LATER.TTF,4,00010000\r\n', { memory });
    const after = field('^XA^FO10,10^AKN,32,32^FDNow^FS^XZ', memory);
    expect(after.errors).toEqual([]);
    expect(description(after.t)).toMatch(/font K = R:LATER\.TTF is a downloaded TrueType font/);
  });
});
