/**
 * A CloudPRNT server written from Star's CloudPRNT Developer Guide (no npm package runs one
 * offline without Star's cputil): it checks each request of the printer field by field
 * against the guide and records it, and hands out queued jobs in the media types it offers.
 *
 * - Poll: POST, JSON body with `status` (ASB hex bytes, space-terminated), `printerMAC`
 *   (xx:xx:xx:xx:xx:xx), `statusCode` (URL-encoded "NNN text"), `printingInProgress` (boolean),
 *   optional `clientAction` (array of {request, result}). Answer: `jobReady`, with a job
 *   `mediaTypes` and `jobToken`, optional `deleteMethod` and `clientAction` requests.
 * - Job: GET with `type` (one of the offered media types), `mac` and `token`.
 * - Confirmation: DELETE (or GET with `delete` when deleteMethod is GET) with `code`, `mac`, `token`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface QueuedJob { token: string; mediaTypes: { type: string; body: Buffer }[] }
export interface Poll { mac: string; statusCode: string; status: string; printingInProgress: boolean; clientAction?: { request: string; result: unknown }[]; at: number }
export interface Confirmation { method: string; code: string; mac: string; token: string }

export class CloudPrntServer {
  readonly polls: Poll[] = [];
  readonly jobRequests: { type: string; mac: string; token: string }[] = [];
  readonly confirmations: Confirmation[] = [];
  readonly violations: string[] = [];
  queue: QueuedJob[] = [];
  deleteMethod: 'DELETE' | 'GET' = 'DELETE';
  clientActionRequests: string[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cloudprnt`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const q = Object.fromEntries(url.searchParams);
    if (req.method === 'POST') return this.poll(Buffer.concat(chunks).toString('utf8'), req, res);
    if (req.method === 'DELETE' || (req.method === 'GET' && url.searchParams.has('delete'))) {
      if (req.method !== this.deleteMethod) this.violations.push(`confirmation by ${req.method} while deleteMethod is ${this.deleteMethod}`);
      if (!/^\d{3} /.test(q.code ?? '')) this.violations.push(`confirmation code ${q.code}`);
      this.confirmations.push({ method: req.method, code: q.code, mac: q.mac, token: q.token });
      const i = this.queue.findIndex((j) => j.token === q.token);
      if (i >= 0 && q.code?.startsWith('2')) this.queue.splice(i, 1);
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET') {
      this.jobRequests.push({ type: q.type, mac: q.mac, token: q.token });
      const job = this.queue.find((j) => j.token === q.token);
      const media = job?.mediaTypes.find((m) => m.type === q.type);
      if (!media) {
        this.violations.push(`job GET for type ${q.type} token ${q.token} that was not offered`);
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': media.type, 'content-length': media.body.length }).end(media.body);
      return;
    }
    res.writeHead(405).end();
  }

  private poll(text: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) this.violations.push(`poll content-type ${req.headers['content-type']}`);
    let body: any;
    try { body = JSON.parse(text); } catch { this.violations.push('poll body is not JSON'); res.writeHead(400).end(); return; }
    if (typeof body.status !== 'string' || !/^([0-9a-f]{1,2} )+$/i.test(body.status)) this.violations.push(`status ${JSON.stringify(body.status)}`);
    if (typeof body.printerMAC !== 'string' || !/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(body.printerMAC)) this.violations.push(`printerMAC ${body.printerMAC}`);
    // "Status codes from a cloudPRNT client are URL encoded" ("200%20OK").
    if (typeof body.statusCode !== 'string' || !/^\d{3}%20\S/.test(body.statusCode)) this.violations.push(`statusCode ${body.statusCode}`);
    if (typeof body.printingInProgress !== 'boolean') this.violations.push('printingInProgress not boolean');
    if (body.clientAction != null && !(Array.isArray(body.clientAction) && body.clientAction.every((a: any) => typeof a.request === 'string' && 'result' in a))) this.violations.push('clientAction answers malformed');
    this.polls.push({ mac: body.printerMAC, statusCode: decodeURIComponent(body.statusCode), status: body.status, printingInProgress: body.printingInProgress, clientAction: body.clientAction ?? undefined, at: Date.now() });
    const answer: Record<string, unknown> = { jobReady: false };
    if (this.clientActionRequests.length && !body.clientAction) {
      answer.clientAction = this.clientActionRequests.map((request) => ({ request, options: '' }));
      this.clientActionRequests = [];
    } else if (this.queue.length) {
      const job = this.queue[0];
      Object.assign(answer, { jobReady: true, mediaTypes: job.mediaTypes.map((m) => m.type), jobToken: job.token });
      if (this.deleteMethod === 'GET') answer.deleteMethod = 'GET';
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }
}
