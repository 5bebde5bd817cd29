/**
 * An Epson Server Direct Print server written from Epson's Server Direct Print user's manual:
 * the printer posts forms (application/x-www-form-urlencoded) with `ConnectionType`
 * (`GetRequest` or `SetResponse`), `ID` and `Name`; a GetRequest is answered with a
 * `<PrintRequestInfo>` holding the queued `<ePOSPrint>` jobs (or an empty body), a SetResponse
 * carries `ResponseFile`, a `<PrintResponseInfo>` with one `<ePOSPrint>` (`<Parameter>` with
 * `printjobid`, `<PrintResponse><response success code status/>`) per job.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';

export interface SdpResult { printjobid: string; success: string; code: string; status: string }

export class SdpServer {
  readonly getRequests: { id: string; name: string }[] = [];
  readonly setResponses: SdpResult[][] = [];
  readonly violations: string[] = [];
  /** The next GetRequest's answer (then empty). */
  pending: string | null = null;
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/sdp`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST') this.violations.push(`method ${req.method}`);
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) this.violations.push(`content-type ${req.headers['content-type']}`);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const id = form.get('ID') ?? '', name = form.get('Name') ?? '';
    if (!id || !name) this.violations.push('ID or Name missing');
    if (form.get('ConnectionType') === 'GetRequest') {
      this.getRequests.push({ id, name });
      const body = this.pending ?? '';
      this.pending = null;
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(body);
      return;
    }
    if (form.get('ConnectionType') === 'SetResponse') {
      const file = form.get('ResponseFile') ?? '';
      const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'ePOSPrint' }).parse(file);
      const info = doc.PrintResponseInfo;
      if (!info) this.violations.push('ResponseFile is not a PrintResponseInfo');
      this.setResponses.push((info?.ePOSPrint ?? []).map((e: any) => ({
        printjobid: String(e.Parameter?.printjobid ?? ''),
        success: e.PrintResponse?.response?.success,
        code: e.PrintResponse?.response?.code,
        status: e.PrintResponse?.response?.status,
      })));
      res.writeHead(200).end();
      return;
    }
    this.violations.push(`ConnectionType ${form.get('ConnectionType')}`);
    res.writeHead(400).end();
  }
}

const NS = 'http://www.epson-pos.com/schemas/2011/03/epos-print';
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A `<PrintRequestInfo>` of jobs, each `{ id, text, escaped }`: PrintData as XML, or escaped as text. */
export function printRequestInfo(jobs: { id: string; text: string; escaped: boolean }[]): string {
  return '<?xml version="1.0" encoding="utf-8"?><PrintRequestInfo Version="2.00">'
    + jobs.map((j) => {
      const doc = `<epos-print xmlns="${NS}"><text>${escape(j.text)}&#10;</text><cut type="feed"/></epos-print>`;
      return `<ePOSPrint><Parameter><devid>local_printer</devid><timeout>10000</timeout><printjobid>${j.id}</printjobid></Parameter>`
        + `<PrintData>${j.escaped ? escape(doc) : doc}</PrintData></ePOSPrint>`;
    }).join('')
    + '</PrintRequestInfo>';
}
