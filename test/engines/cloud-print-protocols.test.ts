/**
 * The cloud printers' protocol rules (pure modules): CloudPRNT per Star's developer guide,
 * Server Direct Print per Epson's manual, and picture jobs as Star raster.
 */
import { describe, expect, it } from 'vitest';
import { encode } from 'fast-png';
import jpeg from 'jpeg-js';
import {
  answerClientActions, asbField, chooseMediaType, cloudPrntStatusCode, confirmationRequest, parsePollAnswer, printerMacOf, type PollAnswer,
} from '../../src/worker/services/cloudprnt/star-cloudprnt.ts';
import { parsePrintRequestInfo, printResponseInfo } from '../../src/worker/services/server-direct-print/sdp.ts';
import { decodePicture, pictureToStarRaster } from '../../src/engines/star/picture-job.ts';

const flags = { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false };

describe('CloudPRNT', () => {
  it('statusCode: the condition that stops printing first, 2xx only when the printer can print', () => {
    expect(cloudPrntStatusCode(flags)).toBe('200 OK');
    expect(cloudPrntStatusCode({ ...flags, isPaperNearEnd: true })).toBe('210 Paper low');
    expect(cloudPrntStatusCode({ ...flags, isPaperOut: true, isPaperNearEnd: true })).toBe('410 Out of paper');
    expect(cloudPrntStatusCode({ ...flags, isPaperOut: true, isCoverOpen: true })).toBe('420 Cover open');
    expect(cloudPrntStatusCode({ ...flags, isOffline: true })).toMatch(/^4/);
  });

  it('a healthy printer’s status is the guide’s example ASB; the MAC is Star’s OUI and stable per printer', () => {
    expect(asbField({ flags, drawer1State: 'Closed' })).toMatch(/^([0-9a-f]{1,2} ){9}$/);
    expect(printerMacOf('5F0C8A7E-1B2D-4E3F-8A9B-0C1D2E3F4A01')).toBe(printerMacOf('5f0c8a7e-1b2d-4e3f-8a9b-0c1d2e3f4a01'));
    expect(printerMacOf('a')).toMatch(/^00:11:62:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}$/);
    expect(printerMacOf('a')).not.toBe(printerMacOf('b'));
  });

  it('the printer’s preferred media type among those offered, parameters allowed; none it takes: null', () => {
    expect(chooseMediaType(['text/plain', 'image/png', 'application/vnd.star.starprnt'], 'StarPrnt')).toBe('application/vnd.star.starprnt');
    expect(chooseMediaType(['application/vnd.star.starprnt', 'application/vnd.star.line'], 'StarLine')).toBe('application/vnd.star.line');
    expect(chooseMediaType(['text/plain; charset=utf-8'], 'StarLine')).toBe('text/plain; charset=utf-8');
    expect(chooseMediaType(['text/vnd.star.markup', 'application/pdf'], 'StarPrnt')).toBeNull();
  });

  it('poll answers: the guide’s fields, and a message for what is not one', () => {
    const ok = parsePollAnswer('{"jobReady":true,"mediaTypes":["image/png"],"jobToken":"t1","deleteMethod":"GET","clientAction":[{"request":"PageInfo","options":""}]}');
    expect(ok).toMatchObject({ ok: true, answer: { jobReady: true, mediaTypes: ['image/png'], jobToken: 't1', deleteMethod: 'GET', clientAction: [{ request: 'PageInfo', options: '' }] } });
    expect(parsePollAnswer('<html>')).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(parsePollAnswer('{"mediaTypes":[]}')).toMatchObject({ ok: false, error: expect.stringContaining('jobReady') });
  });

  it('client actions: PageInfo in mm and dots per mm as strings, SetID sets the uid, unknown ones answered empty', () => {
    const client = { printerId: 'p', uniqueId: null as string | null, intervalSeconds: 7 };
    const answers = answerClientActions([{ request: 'PageInfo', options: '' }, { request: 'SetID', options: 'Star1' }, { request: 'GetPollInterval', options: '' }, { request: 'Firmware', options: '' }],
      { modelName: 'TSP100IV', dpi: 203, widthInDots: 576, protocol: 'StarPrnt' }, client);
    expect(answers[0].result).toEqual({ paperWidth: '80', printWidth: '72.1', horizontalResolution: '7.99', verticalResolution: '7.99' });
    expect(answers.slice(1)).toEqual([{ request: 'SetID', result: 'Star1' }, { request: 'GetPollInterval', result: '7' }, { request: 'Firmware', result: '' }]);
    expect(client.uniqueId).toBe('Star1');
  });

  it('the confirmation carries the code percent-encoded, mac, token and uid; GET adds `delete`', () => {
    const answer: PollAnswer = { jobReady: true, mediaTypes: [], jobToken: 'tok 1', deleteMethod: 'DELETE', clientAction: [], jobGetUrl: null, jobConfirmationUrl: null };
    const client = { printerId: 'p', uniqueId: 'Star1', intervalSeconds: 5 };
    const del = confirmationRequest('http://s/cp?shop=3', answer, client, '200 OK');
    expect(del.method).toBe('DELETE');
    expect(del.url).toBe(`http://s/cp?shop=3&uid=Star1&code=200%20OK&mac=${encodeURIComponent(printerMacOf('p'))}&token=tok%201`);
    const get = confirmationRequest('http://s/cp', { ...answer, deleteMethod: 'GET' }, client, '511 Media decoding error');
    expect(get.method).toBe('GET');
    expect(new URL(get.url).searchParams.has('delete')).toBe(true);
    expect(new URL(get.url).searchParams.get('code')).toBe('511 Media decoding error');
  });
});

describe('Server Direct Print', () => {
  const NS = 'http://www.epson-pos.com/schemas/2011/03/epos-print';
  const doc = (t: string) => `<epos-print xmlns="${NS}"><text>${t}&#10;</text><cut/></epos-print>`;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  it('PrintRequestInfo: jobs with PrintData as XML or escaped, each translated; an empty answer has none', () => {
    const xml = `<?xml version="1.0"?><PrintRequestInfo Version="2.00">`
      + `<ePOSPrint><Parameter><devid>local_printer</devid><timeout>10000</timeout><printjobid>A1</printjobid></Parameter><PrintData>${doc('raw')}</PrintData></ePOSPrint>`
      + `<ePOSPrint><Parameter><devid>local_printer</devid><printjobid>A2</printjobid></Parameter><PrintData>${esc(doc('escaped'))}</PrintData></ePOSPrint>`
      + `<ePOSPrint><Parameter><printjobid>A3</printjobid></Parameter><PrintData>${esc(`<epos-print xmlns="${NS}"><nonsense/></epos-print>`)}</PrintData></ePOSPrint>`
      + `</PrintRequestInfo>`;
    const r = parsePrintRequestInfo(xml);
    if (!r.ok) throw new Error(r.error);
    expect(r.jobs.map((j) => j.printjobid)).toEqual(['A1', 'A2', 'A3']);
    expect(r.jobs[0].document).toBe(doc('raw'));
    expect(r.jobs[1].document).toBe(doc('escaped'));
    for (const j of r.jobs.slice(0, 2)) expect(j.translation.ok && Buffer.from(j.translation.bytes).toString('latin1')).toContain(j.printjobid === 'A1' ? 'raw' : 'escaped');
    expect(r.jobs[2].translation).toMatchObject({ ok: false, error: expect.stringContaining('schema') });
    expect(parsePrintRequestInfo('')).toEqual({ ok: true, jobs: [] });
    expect(parsePrintRequestInfo('<html/>')).toMatchObject({ ok: false });
  });

  it('PrintResponseInfo: one ePOSPrint with devid, printjobid and response per job', () => {
    const r = parsePrintRequestInfo(`<PrintRequestInfo><ePOSPrint><Parameter><devid>local_printer</devid><printjobid>B&amp;1</printjobid></Parameter><PrintData>${doc('x')}</PrintData></ePOSPrint></PrintRequestInfo>`);
    if (!r.ok) throw new Error(r.error);
    const xml = printResponseInfo([{ job: r.jobs[0], result: { success: false, code: 'EPTR_REC_EMPTY', status: 252313622 } }]);
    expect(xml).toContain('<ePOSPrint><Parameter><devid>local_printer</devid><printjobid>B&amp;1</printjobid></Parameter><PrintResponse><response success="false" code="EPTR_REC_EMPTY" status="252313622" battery="0"');
  });
});

describe('picture jobs', () => {
  const rows = (raster: Uint8Array) => {
    const out: Uint8Array[] = [];
    for (let i = 4; i < raster.length - 4;) { const k = raster[i + 1] | (raster[i + 2] << 8); out.push(raster.subarray(i + 3, i + 3 + k)); i += 3 + k; }
    return out;
  };

  it('PNG pixel for pixel when it fits, scaled down to the print width when wider; dark prints, transparent is paper', () => {
    const gray = (w: number) => encode({ width: w, height: 4, data: new Uint8Array(w * 4).map((_, i) => (i % w < w / 2 ? 0 : 255)), channels: 1, depth: 8 });
    const small = rows(pictureToStarRaster(decodePicture('image/png', gray(100)), 576));
    expect(small).toHaveLength(4);
    expect(small[0].length).toBe(13);
    expect([...small[0].subarray(0, 6)]).toEqual([255, 255, 255, 255, 255, 255]);
    expect(small[0][7]).toBe(0);
    const wide = rows(pictureToStarRaster(decodePicture('image/png', gray(1152)), 576));
    expect(wide[0].length).toBe(72);
    expect(wide).toHaveLength(2);
    const clear = encode({ width: 8, height: 1, data: new Uint8Array(32), channels: 4, depth: 8 });
    expect([...rows(pictureToStarRaster(decodePicture('image/png', clear), 576))[0]]).toEqual([0]);
  });

  it('JPEG decodes; a mid-grey dithers to about half the dots, or none without dithering', () => {
    const w = 64, h = 64;
    const data = Buffer.alloc(w * h * 4, 128);
    const jpg = jpeg.encode({ data, width: w, height: h }, 90).data;
    const pic = decodePicture('image/jpeg', jpg);
    const dots = (r: Uint8Array[]) => r.reduce((n, row) => n + [...row].reduce((m, b) => m + b.toString(2).split('1').length - 1, 0), 0);
    const dithered = dots(rows(pictureToStarRaster(pic, 576)));
    expect(dithered / (w * h)).toBeGreaterThan(0.35);
    expect(dithered / (w * h)).toBeLessThan(0.65);
    expect(dots(rows(pictureToStarRaster(pic, 576, false)))).toBe(0);
  });

  it('garbage is an error, not a crash', () => {
    expect(() => decodePicture('image/png', new Uint8Array([1, 2, 3]))).toThrow();
    expect(() => decodePicture('image/jpeg', new Uint8Array([1, 2, 3]))).toThrow();
  });
});
