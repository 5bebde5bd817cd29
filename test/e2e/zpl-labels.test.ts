/**
 * ZPL over real TCP to a `Zpl` printer through the bridge and the Worker: a carrier label
 * prints as one canvas with its fields and symbols; ~HS and ~HQES are answered while the
 * connection is open, reflecting paper out, head open and pause; ^PQ3 prints three canvases;
 * a format stored in one connection prints from the next.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { connect, printAndClose, readBytes } from '../bridge-unit/support/tcp.ts';
import { carrierLabelBytes, TRACKING_NUMBER } from '../engines/zpl/fixtures.ts';

let api: Api;
let printer: { id: string; port: number };

beforeAll(async () => {
  ({ api } = await createWorkspaceAndLogin('zpl labels'));
  const p = await createPrinter(api, { protocol: 'Zpl', widthInDots: 812, heightInDots: 1218 });
  printer = { id: p.printer.id, port: p.settings.tcpListenPort };
});

const texts = (canvas: any): string[] => canvas.items.filter((e: any) => e.type === 'text').map((e: any) => e.text);
const images = (canvas: any): any[] => canvas.items.filter((e: any) => e.type === 'image');

async function print(bytes: Uint8Array | string) {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  const before = (await api('GET', `/api/printers/${printer.id}/documents/canvas?Limit=100`)).body.result.items?.length ?? 0;
  await printAndClose(printer.port, data);
  const docs = await waitForDocuments(api, printer.id, before + 1);
  const doc = docs[0];
  expect(doc.protocol).toBe('Zpl');
  expect(doc.bytesReceived).toBe(data.length);
  return doc;
}

async function setFlags(f: Partial<Record<'isCoverOpen' | 'isPaperOut' | 'isOffline' | 'hasError' | 'isPaperNearEnd', boolean>>) {
  const all = { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false, ...f };
  const res = await api('PATCH', `/api/printers/${printer.id}/operational-flags`, all);
  expect(res.status).toBe(200);
}

/** ~HS over an open connection: its three strings, split into fields. */
async function hostStatus(): Promise<string[][]> {
  const s = await connect(printer.port);
  try {
    s.write('~HS');
    // String 1 is 36 bytes, string 2 36, string 3 10 (fixed-width fields).
    const reply = (await readBytes(s, 82)).toString('latin1');
    const m = /^\u0002([^\u0003]*)\u0003\r\n\u0002([^\u0003]*)\u0003\r\n\u0002([^\u0003]*)\u0003\r\n$/.exec(reply);
    expect(m, JSON.stringify(reply)).not.toBeNull();
    return [m![1].split(','), m![2].split(','), m![3].split(',')];
  } finally {
    s.end();
  }
}

/** ~HQES over an open connection: the error and warning flag groups. */
async function extendedStatus(): Promise<{ errors: string; warnings: string }> {
  const s = await connect(printer.port);
  try {
    s.write('~HQES');
    const reply = (await readBytes(s, 104)).toString('latin1');
    const e = /ERRORS:\s+[01] [0-9A-F]{8} ([0-9A-F]{8})/.exec(reply);
    const w = /WARNINGS:\s+[01] [0-9A-F]{8} ([0-9A-F]{8})/.exec(reply);
    expect(e && w, JSON.stringify(reply)).toBeTruthy();
    return { errors: e![1], warnings: w![1] };
  } finally {
    s.end();
  }
}

describe('ZPL over TCP', () => {
  it('a carrier 4x6 label: one canvas with its text fields, bar codes, MaxiCode and logo', async () => {
    const doc = await print(carrierLabelBytes);
    expect(doc.errorMessages ?? []).toEqual([]);
    expect(doc.canvases).toHaveLength(1);
    const [label] = doc.canvases;
    expect([label.widthInDots, label.heightInDots]).toEqual([812, 1218]);
    expect(texts(label).length).toBeGreaterThanOrEqual(20);
    expect(texts(label).join(' ')).toContain('TRACKING #: 1Z 123 45E 02 0527 1688');
    expect(texts(label)).toContain('REF 2: GRÜSSE AUS KÖLN');
    expect(images(label).length).toBeGreaterThanOrEqual(4); // logo, MaxiCode, two Code 128
    for (const img of images(label)) expect((await fetch(baseUrl() + img.media.url)).status).toBe(200);
    expect(TRACKING_NUMBER).toMatch(/^1Z/);
  });

  it('^PQ3 prints three canvases', async () => {
    const doc = await print('^XA^FO50,50^A0N,40,40^FDCopy me^FS^PQ3^XZ');
    expect(doc.canvases).toHaveLength(3);
    for (const c of doc.canvases) expect(texts(c)).toEqual(['Copy me']);
  });

  it('a format stored with ^DF in one connection prints with ^XF in the next', async () => {
    await print('^XA^DFE:ADDR.ZPL^FS^FO40,40^A0N,36,36^FN1^FS^FO40,90^A0N,36,36^FN2^FS^XZ');
    const doc = await print('^XA^XFE:ADDR.ZPL^FS^FN1^FDJane Receiver^FS^FN2^FDNew York NY 10001^FS^XZ');
    expect(texts(doc.canvases[0])).toEqual(['Jane Receiver', 'New York NY 10001']);
  });
  it('~HS and ~HQES report a ready printer, then paper out, head open and pause from the flags', async () => {
    await setFlags({});
    let [one, two] = await hostStatus();
    expect([one[1], one[2], two[2]]).toEqual(['0', '0', '0']);
    expect((await extendedStatus()).errors).toBe('00000000');

    await setFlags({ isPaperOut: true });
    [one] = await hostStatus();
    expect(one[1]).toBe('1');
    expect((await extendedStatus()).errors).toBe('00000001');

    await setFlags({ isCoverOpen: true });
    [one, two] = await hostStatus();
    expect([one[1], two[2]]).toEqual(['0', '1']);
    expect((await extendedStatus()).errors).toBe('00000004');

    await setFlags({ isOffline: true });
    [one] = await hostStatus();
    expect(one[2]).toBe('1');
    expect((await extendedStatus()).errors).toBe('00010000');
    await setFlags({});
  });

  it('~PP pauses the printer for later connections, ~PS resumes it', async () => {
    // A printer runs several connections' jobs at once (MAX_JOBS_IN_FLIGHT): a connection is
    // "later" once the earlier job is stored (listed), not merely once its socket closed.
    await print('~PP');
    expect((await hostStatus())[0][2]).toBe('1');
    await print('~PS');
    expect((await hostStatus())[0][2]).toBe('0');
  });

});
