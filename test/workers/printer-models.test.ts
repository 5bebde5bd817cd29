import { describe, expect, it } from 'vitest';
// receipt-printer-encoder does not load in workerd (it needs ImageData); the ids come from the data
// generated from it, which test/engines/models checks against the package itself.
import { ENCODER_MODEL_DATA } from '../../src/engines/models/generated/receipt-printer-encoder-data.ts';
import { call, createPrinter, expectJson, expectProblem, expectStatus, getPrinter, newWorkspace, printerBody } from './helpers.ts';

const DTO_KEYS = ['codeTables', 'codeTablesByProtocol', 'defaultMultiByteEncoding', 'defaultWidthInDots', 'dpi', 'fonts', 'id', 'multiByteEncodings', 'name', 'protocols', 'vendor'];
const PROTOCOLS = ['EscPos', 'Epl', 'Zpl', 'StarPrnt', 'StarLine'];
const ENCODINGS = ['None', 'ShiftJis', 'Gb18030', 'Big5', 'KsC5601', 'Utf8'];

describe('GET /api/printer-models', () => {
  it('lists every receipt-printer-encoder model and the Zebra models as PrinterModelDto, anonymously', async () => {
    const res = await call('/api/printer-models');
    const models = await expectJson<any[]>(res, 200);
    const ids = models.map((m) => m.id);
    const encoderIds = Object.keys(ENCODER_MODEL_DATA.printerDefinitions);
    expect(encoderIds.length).toBeGreaterThan(30);
    for (const id of encoderIds) expect(ids).toContain(id);
    for (const id of ['zebra-gk420d', 'zebra-zd421-203', 'zebra-zd421-300', 'zebra-zt411-203', 'zebra-zt411-300', 'zebra-zt411-600']) expect(ids).toContain(id);
    for (const m of models) {
      expect(Object.keys(m).sort(), m.id).toEqual(DTO_KEYS);
      expect(m.protocols.length).toBeGreaterThan(0);
      for (const p of m.protocols) expect(PROTOCOLS).toContain(p);
      expect(Number.isInteger(m.dpi) && Number.isInteger(m.defaultWidthInDots)).toBe(true);
      for (const f of m.fonts) expect(Object.keys(f).sort()).toEqual(['heightInDots', 'name', 'widthInDots']);
      for (const [n, table] of Object.entries(m.codeTables)) expect(typeof n === 'string' && typeof table === 'string').toBe(true);
      expect(m.codeTables).toEqual(m.codeTablesByProtocol[m.protocols[0]]);
      for (const e of m.multiByteEncodings) expect(ENCODINGS).toContain(e);
      expect(ENCODINGS).toContain(m.defaultMultiByteEncoding);
    }
    const t88 = models.find((m) => m.id === 'epson-tm-t88vi');
    expect(t88).toMatchObject({ vendor: 'Epson', name: 'Epson TM-T88VI', protocols: ['EscPos'], dpi: 180, defaultWidthInDots: 512 });
    expect(t88.codeTables['11']).toBe('cp851');
    expect(t88.fonts).toContainEqual({ name: 'Font A', widthInDots: 12, heightInDots: 24 });
    expect(models.find((m) => m.id === 'zebra-gk420d').protocols).toEqual(['Epl', 'Zpl']);
  });

  it('is cacheable: Cache-Control, a strong ETag, and 304 for If-None-Match', async () => {
    const first = await call('/api/printer-models');
    await first.text();
    expect(first.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"sha256:[0-9a-f]{64}"$/);
    const again = await call('/api/printer-models', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await call('/api/printer-models', { headers: { 'if-none-match': '"sha256:00"' } });
    await expectJson(other, 200);
  });
});

describe('settings.model and settings.multiByteEncoding', () => {
  it('default per protocol, always present in responses', async () => {
    const ws = await newWorkspace();
    const receipt = await createPrinter(ws);
    expect(receipt.settings.model).toBe('epson-tm-t88vi');
    expect(receipt.settings.multiByteEncoding).toBe('ShiftJis');
    const label = await createPrinter(ws, { settings: { protocol: 'Epl', widthInDots: 812 } });
    expect(label.settings.model).toBe('zebra-gk420d');
    expect(label.settings.multiByteEncoding).toBe('None');
    expect((await getPrinter(ws, label.printer.id)).settings.model).toBe('zebra-gk420d');
  });

  it('a model given on create is kept, with its default encoding (None: international units start single-byte) unless one is given', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws, { settings: { model: 'xprinter-xp-n160ii' } });
    expect(p.settings).toMatchObject({ model: 'xprinter-xp-n160ii', multiByteEncoding: 'None' });
    const q = await createPrinter(ws, { settings: { model: 'bixolon-srp350iii', multiByteEncoding: 'Big5' } });
    expect(q.settings).toMatchObject({ model: 'bixolon-srp350iii', multiByteEncoding: 'Big5' });
  });

  it('400 problem+json naming model and protocol when the model does not speak it', async () => {
    const ws = await newWorkspace();
    const res = await call('/api/printers', { token: ws.accessToken, json: printerBody(undefined, undefined, { protocol: 'EscPos', model: 'zebra-gk420d' }) });
    const problem = await expectProblem(res, 400, { errors: true });
    expect(problem.detail).toContain('zebra-gk420d');
    expect(problem.detail).toContain('EscPos');
    expect(problem.errors!['settings.model'][0]).toContain('zebra-gk420d');
  });

  it('400 for an unknown model and for an encoding the model has no unit for', async () => {
    const ws = await newWorkspace();
    const unknown = await call('/api/printers', { token: ws.accessToken, json: printerBody(undefined, undefined, { model: 'epson-tm-t1000' }) });
    expect((await expectProblem(unknown, 400, { errors: true })).detail).toContain('epson-tm-t1000');
    const encoding = await call('/api/printers', { token: ws.accessToken, json: printerBody(undefined, undefined, { model: 'hp-a779', multiByteEncoding: 'Gb18030' }) });
    expect((await expectProblem(encoding, 400, { errors: true })).errors).toHaveProperty(['settings.multiByteEncoding']);
    const notAnEncoding = await call('/api/printers', { token: ws.accessToken, json: printerBody(undefined, undefined, { multiByteEncoding: 'Latin9' }) });
    await expectProblem(notAnEncoding, 400, { errors: true });
  });

  it('update changes the model; an update without a model keeps it while it speaks the protocol', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const put = (settings: Record<string, unknown>) =>
      call(`/api/printers/${p.printer.id}`, { method: 'PUT', token: ws.accessToken, json: printerBody(p.printer.id, 'P', settings) });
    const changed = await expectJson(await put({ model: 'epson-tm-t20iii', multiByteEncoding: 'Gb18030' }), 200);
    expect(changed.settings).toMatchObject({ model: 'epson-tm-t20iii', multiByteEncoding: 'Gb18030' });
    const kept = await expectJson(await put({ widthInDots: 576 }), 200);
    expect(kept.settings).toMatchObject({ model: 'epson-tm-t20iii', multiByteEncoding: 'Gb18030', widthInDots: 576 });
    const otherModel = await expectJson(await put({ model: 'citizen-ct-s310ii' }), 200);
    expect(otherModel.settings).toMatchObject({ model: 'citizen-ct-s310ii', multiByteEncoding: 'ShiftJis' });
    const toLabels = await expectJson(await put({ protocol: 'Epl', widthInDots: 812 }), 200);
    expect(toLabels.settings).toMatchObject({ protocol: 'Epl', model: 'zebra-gk420d' });
    await expectProblem(await put({ protocol: 'Epl', model: 'epson-tm-t88vi' }), 400, { errors: true });
    expect((await getPrinter(ws, p.printer.id)).settings.model).toBe('zebra-gk420d');
  });

  it('a width left out is the model’s printable width; on update the current one while the model stays', async () => {
    const ws = await newWorkspace();
    const models = await expectJson<any[]>(await call('/api/printer-models'), 200);
    const widthOf = (id: string) => models.find((m) => m.id === id).defaultWidthInDots as number;
    const noWidth = (settings: Record<string, unknown>) => {
      const body = printerBody(undefined, undefined, settings);
      if (!('widthInDots' in settings)) delete (body.settings as Record<string, unknown>).widthInDots;
      return body;
    };
    const zebra = await expectJson(await call('/api/printers', { token: ws.accessToken, json: noWidth({ protocol: 'Zpl', model: 'zebra-zt411-300' }) }), 200);
    expect(zebra.settings.widthInDots).toBe(widthOf('zebra-zt411-300'));
    const receipt = await expectJson(await call('/api/printers', { token: ws.accessToken, json: noWidth({ protocol: 'EscPos' }) }), 200);
    expect(receipt.settings).toMatchObject({ model: 'epson-tm-t88vi', widthInDots: widthOf('epson-tm-t88vi') });
    const put = (settings: Record<string, unknown>) =>
      call(`/api/printers/${zebra.printer.id}`, { method: 'PUT', token: ws.accessToken, json: { ...noWidth(settings), printer: { id: zebra.printer.id, displayName: 'Z' } } });
    await expectJson(await put({ protocol: 'Zpl', model: 'zebra-zt411-300', widthInDots: 600 }), 200);
    expect((await expectJson(await put({ protocol: 'Zpl' }), 200)).settings).toMatchObject({ model: 'zebra-zt411-300', widthInDots: 600 });
    const other = await expectJson(await put({ protocol: 'Zpl', model: 'zebra-zt411-600' }), 200);
    expect(other.settings.widthInDots).toBe(widthOf('zebra-zt411-600'));
    expect(widthOf('zebra-zt411-600')).not.toBe(widthOf('zebra-zt411-300'));
  });

  it('the model reaches the engine: a GB18030 unit prints Chinese sent in Kanji mode', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws, { settings: { model: 'xprinter-xp-n160ii', multiByteEncoding: 'Gb18030' } });
    // ESC @, FS & (Kanji mode), "欢迎" in GB18030, LF
    const hex = '1B 40 1C 26 BB B6 D3 AD 0A';
    await expectStatus(await call(`/api/printers/${p.printer.id}/documents/import`, { token: ws.accessToken, json: { data: hex, format: 'Hex' } }), 204);
    const list = await expectJson(await call(`/api/printers/${p.printer.id}/documents/canvas?Limit=1`, { token: ws.accessToken }), 200);
    const texts = JSON.stringify(list.result.items[0]);
    expect(texts).toContain('欢迎');
  });
});
