/**
 * HTTP and HTTPS on a printer's own port (extensions.md "HTTP printers on the printer's own
 * port"): a connection `sniff.ts` found to be HTTP or TLS is handed to Node's http / https
 * server of its printer. Each print request (Epson ePOS-Print, Star WebPRNT, Zebra /pstprnt)
 * goes to the printer's Durable Object as one request (internal-protocol.md section 4), which
 * renders it and says what to answer; this module adds the CORS and Private Network Access
 * headers every answer carries, and serves `GET /` (a page naming the printer).
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { toHttpUrl } from './config.ts';
import { errorMessage, type Logger } from './log.ts';
import type { ListenerSpec } from '../src/shared/bridge-protocol.ts';
import type { TlsCredentials } from './certificate.ts';
import { BRIDGE_USER_AGENT } from './version.ts';
import type { BridgeRequestTransport } from '../src/shared/transports.ts';

/** The print endpoint of each protocol, as the vendors' printers serve it. */
export const PRINT_ENDPOINTS: readonly { path: string; transport: BridgeRequestTransport; protocols: readonly string[]; name: string }[] = [
  { path: '/cgi-bin/epos/service.cgi', transport: 'EposPrint', protocols: ['EscPos'], name: 'Epson ePOS-Print' },
  { path: '/StarWebPRNT/SendMessage', transport: 'WebPrnt', protocols: ['StarPrnt', 'StarLine'], name: 'Star WebPRNT' },
  { path: '/pstprnt', transport: 'ZebraHttp', protocols: ['Zpl', 'Epl'], name: 'Zebra /pstprnt' },
];

/** ePOS-Print's `timeout` when a request names none (the ePOS SDK's own default). */
const DEFAULT_EPOS_TIMEOUT_MS = 10_000;
/** How much longer than the client's timeout the bridge waits for the Worker's answer. */
const ANSWER_MARGIN_MS = 30_000;

export interface HttpPrinterHost {
  workerUrl: string;
  secret: string;
  log: Logger;
  /** The bridge's certificate; null until it is ready (TLS connections are closed meanwhile). */
  tls(): TlsCredentials | null;
}

export interface HttpPrinterTarget {
  spec(): ListenerSpec;
}

/**
 * A socket whose first bytes were read to tell its kind, as a stream that yields them again:
 * Node's http and TLS servers read a net.Socket's handle directly and would miss them.
 */
function replaying(socket: Socket, head: Buffer): Duplex {
  const d = new Duplex({
    read() { socket.resume(); },
    write(chunk, _enc, cb) { socket.write(chunk, cb); },
    final(cb) { socket.end(cb); },
    destroy(err, cb) { socket.destroy(err ?? undefined); cb(err); },
  });
  if (head.length) d.push(head);
  socket.on('data', (c: Buffer) => { if (!d.push(c)) socket.pause(); });
  socket.on('end', () => d.push(null));
  socket.on('error', (e) => d.destroy(e));
  socket.on('close', () => d.destroy());
  return d;
}

export function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Content-Type, SOAPAction, If-Modified-Since',
    'Access-Control-Allow-Private-Network': 'true',
    'Access-Control-Max-Age': '600',
    ...(origin && { Vary: 'Origin' }),
  };
}

const escapeHtml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function printerPage(spec: ListenerSpec, secure: boolean): string {
  const endpoints = PRINT_ENDPOINTS.filter((e) => e.protocols.includes(spec.protocol));
  const items = endpoints.map((e) => `<li>${escapeHtml(e.name)}: <code>POST ${escapeHtml(e.path)}</code></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(spec.displayName || 'Printer')} – Slipstream</title></head>`
    + `<body><h1>${escapeHtml(spec.displayName || 'Printer')}</h1><p>A Slipstream ${escapeHtml(spec.protocol)} printer on port ${spec.port}`
    + `${secure ? ' (HTTPS: this page loading means your browser accepts the printer\u2019s certificate)' : ''}.</p>`
    + `<ul>${items}</ul><p>Raw print jobs go to the same port over TCP.</p></body></html>`;
}

/** One printer's HTTP and HTTPS servers (made on its first HTTP connection). */
export class HttpPrinter {
  private plain: http.Server | null = null;
  private secure: https.Server | null = null;
  private readonly streams = new Set<Duplex>();
  private readonly host: HttpPrinterHost;
  private readonly target: HttpPrinterTarget;

  constructor(host: HttpPrinterHost, target: HttpPrinterTarget) {
    this.host = host;
    this.target = target;
  }

  /** Serves a connection whose first bytes (`head`, already read) are HTTP or a TLS ClientHello. */
  accept(socket: Socket, head: Buffer, kind: 'http' | 'tls', client: string): void {
    let server: http.Server;
    if (kind === 'tls') {
      const creds = this.host.tls();
      if (!creds) {
        socket.destroy();
        return;
      }
      server = this.secure ??= https.createServer({ ...creds }, (req, res) => void this.handle(req, res, client, true));
    } else {
      server = this.plain ??= http.createServer((req, res) => void this.handle(req, res, client, false));
    }
    const stream = replaying(socket, head);
    this.streams.add(stream);
    stream.on('close', () => this.streams.delete(stream));
    server.emit('connection', stream);
  }

  /** The listener is going away: its HTTP connections close. */
  close(): void {
    for (const s of this.streams) s.destroy();
    this.streams.clear();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, client: string, secure: boolean): Promise<void> {
    const started = performance.now();
    const spec = this.target.spec();
    const cors = corsHeaders(req);
    const url = new URL(req.url ?? '/', 'http://printer');
    const answer = (status: number, contentType: string, body: string, extra: Record<string, unknown> = {}) => {
      res.writeHead(status, { ...cors, 'Content-Type': contentType, 'Cache-Control': 'no-store' });
      res.end(body);
      this.host.log.info('http.request', {
        printerId: spec.printerId, port: spec.port, client, secure, method: req.method, path: url.pathname, status,
        durationMs: Math.round(performance.now() - started), ...extra,
      });
    };
    req.on('error', () => { /* the client went away; the response fails quietly */ });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/') return answer(200, 'text/html; charset=utf-8', printerPage(spec, secure));
    const endpoint = PRINT_ENDPOINTS.find((e) => e.path.toLowerCase() === url.pathname.toLowerCase());
    if (!endpoint || !endpoint.protocols.includes(spec.protocol)) {
      req.resume();
      const offered = PRINT_ENDPOINTS.filter((e) => e.protocols.includes(spec.protocol)).map((e) => e.path).join(', ');
      return answer(404, 'text/plain; charset=utf-8', `Not found. This ${spec.protocol} printer prints with POST ${offered}.`);
    }
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('Allow', 'POST, OPTIONS');
      return answer(405, 'text/plain; charset=utf-8', `${endpoint.path} takes POST`);
    }
    let body: Buffer;
    try {
      body = await readBody(req, spec.maxJobBytes);
    } catch (e) {
      return answer(413, 'text/plain; charset=utf-8', errorMessage(e));
    }
    const timeoutMs = endpoint.transport === 'EposPrint' ? Number(url.searchParams.get('timeout')) || DEFAULT_EPOS_TIMEOUT_MS : 0;
    try {
      const a = await forwardRequest(this.host, spec.printerId, endpoint.transport, body, client, timeoutMs);
      answer(a.status, a.contentType, a.body, { transport: endpoint.transport, bytes: body.length, documentId: a.documentId ?? undefined });
    } catch (e) {
      answer(503, 'text/plain; charset=utf-8', 'The printer service is unreachable; the job was not printed', { transport: endpoint.transport, error: errorMessage(e) });
    }
  }

}

export interface WorkerAnswer {
  documentId: string | null;
  status: number;
  contentType: string;
  body: string;
}

/**
 * Kept-alive connections to the Worker for these requests: node:http with an agent costs the
 * bridge about half the CPU of `fetch` (undici) per request (bench/http-printers.bench.ts).
 */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) } as const;

/** One job as one request to the printer's Durable Object (internal-protocol.md section 4). */
export function forwardRequest(
  host: Pick<HttpPrinterHost, 'workerUrl' | 'secret'>, printerId: string, transport: BridgeRequestTransport, body: Uint8Array, client: string, timeoutMs: number,
): Promise<WorkerAnswer> {
  const q = new URLSearchParams({ transport, sessionId: randomUUID(), clientAddress: client, timeoutMs: String(timeoutMs) });
  const url = new URL(toHttpUrl(host.workerUrl, `/internal/bridge/printers/${encodeURIComponent(printerId)}/requests?${q}`));
  const headers = { Authorization: `Bearer ${host.secret}`, 'Content-Type': 'application/octet-stream', 'Content-Length': body.length, 'User-Agent': BRIDGE_USER_AGENT };
  return postOnce(url, headers, body, timeoutMs + ANSWER_MARGIN_MS).catch((e: NodeJS.ErrnoException & { reused?: boolean }) => {
    // A kept-alive connection the Worker closed while it was idle resets the request sent on it
    // before the Worker read it (Node's advice: send it again, once, on a new connection).
    if (e.reused && e.code === 'ECONNRESET') return postOnce(url, headers, body, timeoutMs + ANSWER_MARGIN_MS);
    throw e;
  });
}

function postOnce(url: URL, headers: Record<string, string | number>, body: Uint8Array, deadlineMs: number): Promise<WorkerAnswer> {
  const secure = url.protocol === 'https:';
  return new Promise<WorkerAnswer>((resolve, reject) => {
    const req = (secure ? https : http).request(url, { method: 'POST', agent: AGENTS[secure ? 'https:' : 'http:'], headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`the Worker answered ${res.statusCode}: ${text.slice(0, 200)}`));
        try {
          resolve(JSON.parse(text) as WorkerAnswer);
        } catch {
          reject(new Error(`the Worker's answer is not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer from the Worker within ${deadlineMs} ms`)), deadlineMs);
    function fail(e: Error): void {
      clearTimeout(timer);
      reject(Object.assign(e, { reused: req.reusedSocket }));
    }
    req.on('error', fail);
    req.end(body);
  });
}

function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, so the client can be told why.
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => {
      if (size > max) reject(new Error(`The request body is larger than the maximum job size of ${max} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}
