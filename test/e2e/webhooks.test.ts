/**
 * Webhooks end to end (extensions.md): documents printed over real TCP reach a real local HTTP
 * receiver (node:http) through the Worker's Cloudflare Queue in `wrangler dev`, signed with
 * HMAC-SHA256 (verified here with node:crypto), once each; a receiver answering 500 gets the
 * same delivery again on retry; a wrong secret does not verify.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createPrinter, createWorkspaceAndLogin } from './api.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { until } from '../bridge-unit/support/e2e.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let receiverUrl = '';
const received: Received[] = [];
/** Status codes to answer, in order; 200 once they run out. */
const answers: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

function verifies(secret: string, r: Received): boolean {
  const header = String(r.headers['x-slipstream-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

const forDocument = (documentId: string) => received.filter((r) => JSON.parse(r.body).documentId === documentId);

describe('webhook deliveries', () => {
  it('each document reaches the receiver once, signed; status polls are not sent; a wrong secret fails', async () => {
    const { api, workspaceId } = await createWorkspaceAndLogin('webhooks');
    const put = await api('PUT', '/api/workspaces/webhook', { url: receiverUrl });
    expect(put.status).toBe(200);
    const secret: string = put.body.signingSecret;
    const p = await createPrinter(api);
    const port = p.settings.tcpListenPort as number;
    await printAndClose(port, Buffer.from('\x1b@Webhook one\n\x1dV\x00', 'latin1'));
    await printAndClose(port, Buffer.from([0x10, 0x04, 0x01])); // a status poll: no webhook
    await printAndClose(port, Buffer.from('\x1b@Webhook two\n\x1dV\x00', 'latin1'));
    const mine = () => received.filter((r) => JSON.parse(r.body).workspaceId === workspaceId);
    await until(async () => mine().length >= 2 || null, 20_000, 'two deliveries');
    // Let any duplicate or poll delivery arrive before counting.
    await new Promise((r) => setTimeout(r, 1500));
    const got = mine();
    expect(got.length).toBe(2);
    const bodies = got.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.text).sort()).toEqual(['Webhook one', 'Webhook two']);
    const list = (await api('GET', `/api/printers/${p.printer.id}/documents/canvas?IncludeStatusPolls=false`)).body.result.items;
    expect(new Set(bodies.map((b) => b.documentId))).toEqual(new Set(list.map((d: any) => d.id)));
    for (const [i, r] of got.entries()) {
      const b = bodies[i];
      expect(Object.keys(b).sort()).toEqual(['bytesReceived', 'documentId', 'printerId', 'text', 'timestamp', 'type', 'workspaceId']);
      expect(b).toMatchObject({ type: 'documentReady', workspaceId, printerId: p.printer.id });
      expect(b.bytesReceived).toBe(Buffer.from(`\x1b@${b.text}\n\x1dV\x00`, 'latin1').length);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(String(r.headers['x-slipstream-delivery'])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(verifies(secret, r)).toBe(true);
      expect(verifies(secret.replace(/.$/, (c) => (c === '0' ? '1' : '0')), r)).toBe(false);
      expect(verifies(secret, { ...r, body: r.body.replace('Webhook', 'Webhooc') })).toBe(false);
    }
    const shown = await api('GET', '/api/workspaces/webhook');
    expect(shown.body).toMatchObject({ url: receiverUrl, isEnabled: true, lastDeliveryStatus: 200 });
    expect(shown.body.signingSecret).toBeUndefined();
    expect(Date.parse(shown.body.lastDeliveryAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a receiver answering 500 gets the same delivery again on retry, then 200 ends it', async () => {
    const { api, workspaceId } = await createWorkspaceAndLogin('webhook retries');
    const put = await api('PUT', '/api/workspaces/webhook', { url: receiverUrl });
    const secret: string = put.body.signingSecret;
    const p = await createPrinter(api);
    answers.push(500);
    await printAndClose(p.settings.tcpListenPort, Buffer.from('\x1b@Retry me\n', 'latin1'));
    const mine = () => received.filter((r) => JSON.parse(r.body).workspaceId === workspaceId);
    await until(async () => mine().length >= 2 || null, 30_000, 'the delivery and its retry');
    await new Promise((r) => setTimeout(r, 3000));
    const got = mine();
    expect(got.length).toBe(2);
    expect(got[1].headers['x-slipstream-delivery']).toBe(got[0].headers['x-slipstream-delivery']);
    expect(got[1].body).toBe(got[0].body);
    for (const r of got) expect(verifies(secret, r)).toBe(true);
    expect(forDocument(JSON.parse(got[0].body).documentId).length).toBe(2);
    expect((await api('GET', '/api/workspaces/webhook')).body.lastDeliveryStatus).toBe(200);
  });
});
