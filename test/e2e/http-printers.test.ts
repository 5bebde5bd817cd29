/**
 * HTTP printers on the printer's own port, end to end (bridge + Worker): Epson's ePOS SDK's
 * requests (recorded from epos-2.27.0.js by test/fixtures/http-printers/record-vendor-sdks.ts,
 * replayed byte for byte) sent by real Chromium from a page on another origin (CORS preflight
 * included), Odoo's ePOS and /pstprnt posts as its source sends them, HTTPS with the bridge's
 * certificate, and raw jobs on the same port unchanged.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { openChromium, signIn, type OpenChromium } from './browser.ts';
import { documentText, until, waitForDocuments } from '../bridge-unit/support/e2e.ts';
import { connect, printAndClose } from '../bridge-unit/support/tcp.ts';
import { eposSdkPost as sdkPost, postOverHttps, webPrntSdkPost as starPost } from './vendor-sdk-requests.ts';

const withTimeout = (path: string, ms: number) => path.replace(/timeout=\d+/, `timeout=${ms}`);

let api: Api;
let token: string;
let browser: OpenChromium;
let pageServer: http.Server;
let pageOrigin: string;

beforeAll(async () => {
  ({ api, token } = await createWorkspaceAndLogin('http printers'));
  pageServer = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>POS</title>'));
  await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;
  browser = await openChromium();
  await browser.page.goto(pageOrigin);
});

afterAll(async () => {
  await browser?.close();
  pageServer?.close();
});

async function newPrinter(protocol: 'EscPos' | 'Zpl' | 'StarPrnt' | 'StarLine' = 'EscPos') {
  const p = await createPrinter(api, { protocol, displayName: `http ${protocol}` });
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

/** Sends a request from the POS page (another origin) as the ePOS SDK does: XMLHttpRequest, its headers, its body. */
function sendFromPage(url: string, headers: Record<string, string>, body: string) {
  return browser.page.evaluate(([url, headers, body]) => new Promise<{ status: number; success?: string | null; code?: string | null; statusBits?: string | null; text: string }>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url, true);
    for (const [k, v] of Object.entries(headers)) if (k !== 'content-length') xhr.setRequestHeader(k, v);
    xhr.onreadystatechange = () => {
      if (xhr.readyState !== 4) return;
      const res = xhr.responseXML?.getElementsByTagName('response')[0];
      resolve({ status: xhr.status, success: res?.getAttribute('success'), code: res?.getAttribute('code'), statusBits: res?.getAttribute('status'), text: xhr.responseText });
    };
    xhr.send(body);
  }), [url, headers, body] as const);
}

const setFlags = async (id: string, f: Record<string, boolean>) => expect((await api('PATCH', `/api/printers/${id}/operational-flags`, f)).status).toBe(200);

describe('Epson ePOS-Print on an EscPos printer', () => {
  it("prints the ePOS SDK's receipt from another origin: text styles, image, barcode, QR code, cut and drawer pulse", async () => {
    const { id, port } = await newPrinter();
    const r = await sendFromPage(`http://localhost:${port}${sdkPost.path}`, sdkPost.headers, sdkPost.body);
    expect(r).toMatchObject({ status: 200, success: 'true', code: '' });
    expect(Number(r.statusBits) & 0x2).toBe(0x2); // ASB_PRINT_SUCCESS, what the SDK's onreceive reports
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.transport).toBe('EposPrint');
    const items = doc.canvases.flatMap((c: any) => c.items);
    const text = (t: string) => items.find((i: any) => i.type === 'text' && i.text.includes(t));
    expect(text('SLIPSTREAM CAFE')).toMatchObject({ charScaleX: 2, charScaleY: 2 });
    expect(text('Receipt 1042')).toMatchObject({ isBold: true, isUnderline: true });
    expect(text('REVERSED')).toMatchObject({ isReverse: true });
    expect(text('Flat white')).toMatchObject({ charScaleY: 2 });
    const described = items.filter((i: any) => i.type === 'debug').map((i: any) => i.commandDescription.join(' ')).join('\n');
    expect(described).toMatch(/GS v/); // the image
    expect(described).toMatch(/GS k/); // the barcode
    expect(described).toMatch(/QR Code/);
    expect(described).toMatch(/GS V/); // the cut
    expect(described).toMatch(/ESC p/); // the drawer pulse
    expect(items.filter((i: any) => i.type === 'image').length).toBeGreaterThanOrEqual(3); // picture, barcode, QR code
    // The drawer opened by the pulse, as over TCP.
    await until(async () => (await api('GET', `/api/printers/${id}`)).body.runtimeStatus?.drawer1State === 'OpenedByCommand', 10_000, 'drawer 1 opened');
    // Raw bytes: the request body as received.
    const raw = await api('GET', `/api/printers/${id}/documents/${doc.id}?format=raw`);
    expect(raw.status).toBe(200);
  });

  it('answers paper out and cover open as a TM does, and the SDK sees them in the status', async () => {
    const { id, port } = await newPrinter();
    await setFlags(id, { isPaperOut: true });
    const paper = await sendFromPage(`http://localhost:${port}${withTimeout(sdkPost.path, 200)}`, sdkPost.headers, sdkPost.body);
    expect(paper).toMatchObject({ status: 200, success: 'false', code: 'EPTR_REC_EMPTY' });
    expect(Number(paper.statusBits) & 0x80000).toBe(0x80000); // ASB_RECEIPT_END: the SDK's onpaperend
    await setFlags(id, { isPaperOut: false, isCoverOpen: true });
    const cover = await sendFromPage(`http://localhost:${port}${withTimeout(sdkPost.path, 200)}`, sdkPost.headers, sdkPost.body);
    expect(cover).toMatchObject({ success: 'false', code: 'EPTR_COVER_OPEN' });
    expect(Number(cover.statusBits) & 0x20).toBe(0x20); // ASB_COVER_OPEN: the SDK's oncoveropen
    const docs = await waitForDocuments(api, id, 2);
    expect(docs.every((d: any) => (d.errorMessages ?? []).some((m: string) => /success="false"/.test(m)))).toBe(true);
  });

  it('waits up to the request timeout for the cover to close, then prints', async () => {
    const { id, port } = await newPrinter();
    await setFlags(id, { isCoverOpen: true });
    const started = Date.now();
    const pending = sendFromPage(`http://localhost:${port}${withTimeout(sdkPost.path, 20_000)}`, sdkPost.headers, sdkPost.body);
    await new Promise((r) => setTimeout(r, 1000));
    await setFlags(id, { isCoverOpen: false });
    const r = await pending;
    expect(r).toMatchObject({ success: 'true', code: '' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('answers SchemaError for a malformed document, with the error on the document', async () => {
    const { id, port } = await newPrinter();
    const r = await sendFromPage(`http://localhost:${port}/cgi-bin/epos/service.cgi?devid=local_printer&timeout=1000`, sdkPost.headers,
      sdkPost.body.replace('<text lang="en"/>', '<text width="12"/>'));
    expect(r).toMatchObject({ status: 200, success: 'false', code: 'SchemaError' });
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.errorMessages.join(' ')).toMatch(/schema error.*width/i);
  });

  it("prints Odoo's ePOS request (a canvas as one image, then a cut) and opens its cashbox", async () => {
    const { id, port } = await newPrinter();
    // epson_printer.js: fetch(address, {method: 'POST', body}) with the ePOSLayout template's envelope.
    const odoo = (children: string) => `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print">${children}</epos-print></s:Body></s:Envelope>`;
    const raster = Buffer.alloc(64 * 16 / 8, 0xaa).toString('base64');
    const result = await browser.page.evaluate(async ([url, receipt, pulse]) => {
      const out = [];
      for (const body of [receipt, pulse]) {
        const res = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(15000) });
        const xml = new DOMParser().parseFromString(await res.text(), 'application/xml').querySelector('response')!;
        out.push({ result: xml.getAttribute('success') === 'true', errorCode: xml.getAttribute('code'), status: parseInt(xml.getAttribute('status')!) || 0 });
      }
      return out;
    }, [`http://localhost:${port}/cgi-bin/epos/service.cgi?devid=local_printer`,
      odoo(`<image width="64" height="16" align="center">${raster}</image><cut type="feed"></cut>`), odoo('<pulse></pulse>')] as const);
    expect(result.map((r) => r.result)).toEqual([true, true]);
    const docs = await waitForDocuments(api, id, 2);
    expect(docs.every((d: any) => d.transport === 'EposPrint')).toBe(true);
    await until(async () => (await api('GET', `/api/printers/${id}`)).body.runtimeStatus?.drawer1State === 'OpenedByCommand', 10_000, 'cashbox opened');
  });

  it('answers the CORS preflight and GET / with a page naming the printer', async () => {
    const { port } = await newPrinter();
    const pre = await fetch(`http://127.0.0.1:${port}/cgi-bin/epos/service.cgi`, {
      method: 'OPTIONS', headers: { Origin: 'https://pos.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Private-Network': 'true' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://pos.example');
    expect(pre.headers.get('access-control-allow-private-network')).toBe('true');
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(await page.text()).toContain('http EscPos');
  });
});

describe('HTTPS and raw jobs on the same port', () => {
  it('prints the ePOS receipt over TLS with the bridge certificate, then a raw TCP job on the same port', async () => {
    const { id, port } = await newPrinter();
    const ca = readFileSync(join(inject('stateDir'), 'tls-cert.pem'));
    const answer = await postOverHttps(`https://localhost:${port}${sdkPost.path}`, ca, sdkPost);
    expect(answer).toMatch(/<response success="true" code="" status="\d+"/);
    await printAndClose(port, Buffer.from('\x1b@raw after https\n\x1dV\x42\x00', 'latin1'));
    const docs = await waitForDocuments(api, id, 2);
    expect(docs.map((d: any) => d.transport).sort()).toEqual(['EposPrint', 'Tcp']);
    expect(documentText(docs.find((d: any) => d.transport === 'Tcp'))).toContain('raw after https');
  });

  it('prints raw jobs that begin like a method, also one byte at a time, exactly as before', async () => {
    const { id, port } = await newPrinter();
    await printAndClose(port, 'POS receipt line\n');
    const s = await connect(port);
    for (const b of Buffer.from('GE\x1bE\x01bold\n', 'latin1')) {
      s.write(Buffer.of(b));
      await new Promise((r) => setTimeout(r, 5));
    }
    s.end();
    await printAndClose(port, 'P'); // ends while it could still have been "POST "
    const docs = await waitForDocuments(api, id, 3);
    expect(docs.every((d: any) => d.transport === 'Tcp')).toBe(true);
    const texts = docs.map(documentText).join('\n');
    expect(texts).toContain('POS receipt line');
    expect(texts).toContain('GE');
    expect(texts).toContain('bold');
  });
});

describe('Star WebPRNT on Star printers', () => {
  /** What StarWebPrintTrader.onReceive reports, read from the answer as the SDK reads it. */
  function traderView(responseText: string) {
    const xml = new DOMParser().parseFromString(responseText, 'application/xml');
    const b = xml.getElementsByTagName('Response')[0].childNodes[0].nodeValue!;
    const traderStatus = b.slice(b.indexOf('<status>') + 8, b.indexOf('</status>'));
    return {
      traderSuccess: b.slice(b.indexOf('<success>') + 9, b.indexOf('</success>')),
      coverOpen: (parseInt(traderStatus.substr(4, 2), 16) & 32) !== 0,
      paperEnd: (parseInt(traderStatus.substr(10, 2), 16) & 8) !== 0,
    };
  }

  it("prints the WebPRNT SDK's receipt from another origin and reports paper end and cover open", async () => {
    for (const protocol of ['StarPrnt', 'StarLine'] as const) {
      const { id, port } = await newPrinter(protocol);
      const url = `http://localhost:${port}${starPost.path}`;
      const send = async () => {
        const r = await sendFromPage(url, starPost.headers, starPost.body);
        expect(r.status).toBe(200);
        return browser.page.evaluate(`(${traderView.toString()})(${JSON.stringify(r.text)})`) as Promise<ReturnType<typeof traderView>>;
      };
      expect(await send()).toEqual({ traderSuccess: 'true', coverOpen: false, paperEnd: false });
      const [doc] = await waitForDocuments(api, id, 1);
      expect(doc.transport).toBe('WebPrnt');
      const items = doc.canvases.flatMap((c: any) => c.items);
      expect(items.find((i: any) => i.type === 'text' && i.text.includes('SLIPSTREAM CAFE'))).toMatchObject({ isBold: true, charScaleX: 2 });
      expect(items.filter((i: any) => i.type === 'image').length).toBeGreaterThanOrEqual(3);
      await until(async () => (await api('GET', `/api/printers/${id}`)).body.runtimeStatus?.drawer1State === 'OpenedByCommand', 10_000, 'drawer opened');
      await setFlags(id, { isPaperOut: true });
      expect(await send()).toEqual({ traderSuccess: 'false', coverOpen: false, paperEnd: true });
      await setFlags(id, { isPaperOut: false, isCoverOpen: true });
      expect(await send()).toEqual({ traderSuccess: 'false', coverOpen: true, paperEnd: false });
    }
  });
});

describe('the web UI', () => {
  it('shows how each document arrived and the addresses to point a POS at', async () => {
    const { id, port } = await newPrinter();
    await sendFromPage(`http://localhost:${port}${sdkPost.path}`, sdkPost.headers, sdkPost.body);
    await printAndClose(port, Buffer.from('\x1b@raw job\n', 'latin1'));
    await waitForDocuments(api, id, 2);
    const ui = await openChromium();
    try {
      await signIn(ui.page, inject('baseUrl'), token);
      await ui.page.goto(`${inject('baseUrl')}/printers/${id}`);
      await ui.page.locator('.transport[data-transport="EposPrint"]', { hasText: 'Epson ePOS-Print' }).waitFor();
      await ui.page.locator('.transport[data-transport="Tcp"]', { hasText: 'raw TCP' }).waitFor();
      await ui.page.getByText('Addresses to point a POS at').click();
      // The addresses come from the printer's addresses route after the page shows: wait for the last one (LPD).
      await ui.page.locator('.print-url code', { hasText: 'lpd://' }).waitFor();
      const urls = await ui.page.locator('.print-url code').allTextContents();
      expect(urls).toContain(`https://localhost:${port}/cgi-bin/epos/service.cgi?devid=local_printer&timeout=10000`);
      expect(urls).toContain(`lpd://localhost:${inject('lpdPort')}/${port}`); // the port the bridge listens on
      await expect(ui.page.getByRole('button', { name: 'Copy the Epson ePOS-Print (HTTPS) address' }).count()).resolves.toBe(1);
    } finally {
      await ui.close();
    }
  });
});

describe('Zebra over HTTP', () => {
  it("prints Odoo's /pstprnt ZPL post on a Zpl printer", async () => {
    const { id, port } = await newPrinter('Zpl');
    const res = await fetch(`http://127.0.0.1:${port}/pstprnt`, { method: 'POST', body: '^XA^FO50,50^A0N,40,40^FDOdoo label^FS^XZ' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const [doc] = await waitForDocuments(api, id, 1);
    expect(doc.transport).toBe('ZebraHttp');
    expect(documentText(doc)).toContain('Odoo label');
    expect((await fetch(`http://127.0.0.1:${port}/cgi-bin/epos/service.cgi`, { method: 'POST', body: '<x/>' })).status).toBe(404);
  });
});
