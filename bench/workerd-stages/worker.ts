/**
 * The printing path's stages for one document, each repeated `n` times inside a Durable Object
 * of workerd (bench/stages.bench.ts reads the CPU workerd spent from /proc: workerd's clock
 * stands still while JavaScript runs). The stages call the service's own code on the storage
 * bench's text receipt: the ESC/POS engine, the document's one-pass build (compact body,
 * text), its gzip, the document row's insert and the counter outbox; and, for the record, the
 * alternatives measured against them (docs/decisions.md "Printing path CPU"); with a stream
 * subscriber the DTO's JSON it is sent is written in the same pass (built and compressed in one stage).
 */
import { DurableObject } from 'cloudflare:workers';
import { gzipSync } from 'node:zlib';
import { createProtocolSession } from '../../src/engines/index.ts';
import type { RenderedJob } from '../../src/engines/canvas/model.ts';
import { buildDocument, type JsonWhen } from '../../src/worker/services/document-builder.ts';
import { compactBodyJson } from '../../src/worker/services/compact-body.ts';
import { gzip } from '../../src/worker/services/gzip.ts';
import { DocumentTable } from '../../src/worker/objects/document-table.ts';
import { CounterOutbox } from '../../src/worker/objects/counter-outbox.ts';
import { textReceipt } from '../escpos.bench.ts';
import { testPrinterContext } from '../../test/support/printer-context.ts';

const receipt = textReceipt();
const context = testPrinterContext({ widthInDots: 576 });

function parse(): RenderedJob {
  const session = createProtocolSession('EscPos', () => context);
  session.push(receipt);
  return session.finish();
}

function build(job: RenderedJob, json: JsonWhen = 'later') {
  const head = { id: crypto.randomUUID(), printJobId: crypto.randomUUID(), printerId: crypto.randomUUID(), timestamp: new Date().toISOString(), protocol: 'EscPos', transport: 'Tcp' as const, isStatusPoll: false };
  return buildDocument(head, job.canvases, { clientAddress: '127.0.0.1', bytesReceived: receipt.length, bytesSent: 0 }, () => { throw new Error('no pictures'); }, receipt, undefined, json, job.elementKinds);
}

async function compressionStream(bytes: Uint8Array): Promise<Uint8Array> {
  const body = new Blob([bytes.slice()]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export class Stages extends DurableObject {
  private readonly documents = new DocumentTable(this.ctx.storage.sql);
  private readonly outbox = new CounterOutbox(this.ctx.storage.sql);

  async run(stage: string, n: number): Promise<number> {
    const job = parse();
    const built = await build(job);
    const packed = built.body as Uint8Array;
    const body = gzip(packed);
    const searchText = built.text.toLowerCase();
    const stages: Record<string, () => unknown> = {
      'nothing (the loop)': () => 0,
      'engine: parse the receipt': parse,
      'document: compact body and text, one pass': () => build(job),
      'search text (lower case)': () => built.text.toLowerCase(),
      'gzip level 1 (zlib, sync)': () => gzip(packed),
      'DTO JSON read from the body (a reader after the fact)': () => compactBodyJson(packed, async () => receipt),
      'with a subscriber: compact body, text and the DTO JSON it is sent, one pass; gzip': () => build(job, 'now').then((b) => gzip(b.body)),
      'document row insert (SQLite)': () => {
        const id = crypto.randomUUID();
        this.documents.insert({
          id, printJobId: id, createdAt: new Date().toISOString(), isStatusPoll: false, bytesReceived: receipt.length, mediaCount: 0,
          body, bodyKey: null, raw: receipt, rawKey: null, engineVersion: '1', searchText,
        });
      },
      'counter outbox (SQLite)': () => this.outbox.count(new Date().toISOString(), 1),
      // Alternatives, measured against the above.
      'was: gzip level 6 (zlib, sync)': () => gzipSync(packed),
      'was: gzip by CompressionStream': () => compressionStream(packed),
    };
    if (stage === 'list') return Object.keys(stages) as unknown as number;
    const f = stages[stage];
    for (let i = 0; i < n; i++) {
      const r = f();
      if (r instanceof Promise) await r;
    }
    return n;
  }

  async stageNames(): Promise<string[]> {
    return (await this.run('list', 0)) as unknown as string[];
  }
}

export default {
  async fetch(request: Request, env: { STAGES: DurableObjectNamespace<Stages> }): Promise<Response> {
    const url = new URL(request.url);
    const stub = env.STAGES.get(env.STAGES.idFromName(url.searchParams.get('object') ?? 'stages'));
    if (url.pathname === '/stages') return Response.json(await stub.stageNames());
    return Response.json(await stub.run(url.searchParams.get('stage') ?? '', Number(url.searchParams.get('n') ?? 1)));
  },
};
