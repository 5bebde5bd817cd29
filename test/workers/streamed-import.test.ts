/**
 * An import's body is read as it streams in (`http/streamed-json-field.ts`): the payload's
 * characters go to the import decoder, the rest of the body to JSON.parse and the validator.
 * What JSON.parse makes of the whole body is the oracle: whatever the chunking, the streamed
 * characters are the parsed `data`, and the rest parses to the body with `data` as "".
 */
import { describe, expect, it } from 'vitest';
import { JsonStringError, readStreamedField } from '../../src/worker/http/streamed-json-field.ts';
import type { TextSink } from '../../src/worker/services/import-decoding.ts';
import { call, createPrinter, expectProblem, expectStatus, latestDoc, newWorkspace } from './helpers.ts';

class Recorder implements TextSink {
  text = '';
  ascii(bytes: Uint8Array, start: number, end: number) { this.text += String.fromCharCode(...bytes.subarray(start, end)); }
  char(cp: number) { this.text += String.fromCodePoint(cp); }
}

/** A byte stream (read with a BYOB reader, as a request body is) when `size` is odd, else a plain one. */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size));
  if (size % 2 === 1) return new ReadableStream({ type: 'bytes', start(c) { for (const p of pieces) c.enqueue(p); c.close(); } });
  return new ReadableStream<Uint8Array>({ start(c) { for (const p of pieces) c.enqueue(p); c.close(); } });
}

async function read(body: string | Uint8Array, chunk: number) {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const sinks: Recorder[] = [];
  const rest = await readStreamedField(streamOf(bytes, chunk), { field: 'data', sink: () => { sinks.push(new Recorder()); return sinks.at(-1)!; }, maxRest: 1 << 20, pause: async () => {}, pauseEvery: 7 });
  return { rest, sinks };
}

const bodies = [
  '{"data":"1B 40","format":"Hex"}',
  '{ "format" : "Base64" ,\n "DATA" : "G0BI\\naQo=" }',
  '{"d\\u0061ta":"1B\\u002040\\t\\"\\\\\\/\\b\\f\\r"}',
  '{"meta":{"data":"nested","list":["data",{"data":"x"}]},"data":"AB","other":"data"}',
  '{"data":"1B\u00a040 é 😀 \\ud83d\\ude00 \\ud800"}',
  '{"data":"a","Data":"b"}',
  '{"name":"data","data":""}',
];

describe('readStreamedField', () => {
  for (const body of bodies) {
    for (const chunk of [1, 2, 3, 5, 1000]) {
      it(`${body.slice(0, 40)}… in chunks of ${chunk}`, async () => {
        const { rest, sinks } = await read(body, chunk);
        const parsed = JSON.parse(body);
        const key = Object.keys(parsed).findLast((k) => k.toLowerCase() === 'data')!;
        expect(sinks.at(-1)!.text).toBe(parsed[key]);
        expect(JSON.parse(rest)).toEqual({ ...parsed, ...Object.fromEntries(Object.keys(parsed).filter((k) => k.toLowerCase() === 'data').map((k) => [k, ''])) });
      });
    }
  }

  it('a property that is not a string, or not at the top level, is left in the rest', async () => {
    for (const body of ['{"data":5}', '{"data":null,"format":"Hex"}', '["data","x"]', '{"a":{"data":"x"}}', '"data"']) {
      const { rest, sinks } = await read(body, 2);
      expect(sinks).toHaveLength(0);
      expect(rest).toBe(body);
    }
  });

  it('bytes that are not UTF-8 are U+FFFD, as TextDecoder reads them', async () => {
    const body = new Uint8Array([...new TextEncoder().encode('{"data":"A'), 0xc3, 0x41, 0xff, 0xe2, 0x82, ...new TextEncoder().encode('"}')]);
    for (const chunk of [1, 4, 100]) {
      const { sinks, rest } = await read(body, chunk);
      expect(sinks[0].text).toBe(JSON.parse(new TextDecoder().decode(body)).data);
      expect(rest).toBe('{"data":""}');
    }
  });

  it('a bad escape or a raw control character in the payload is an error', async () => {
    for (const body of ['{"data":"a\\qb"}', '{"data":"a\nb"}', '{"data":"\\u12G4"}']) {
      await expect(read(body, 3)).rejects.toBeInstanceOf(JsonStringError);
    }
  });
});

describe('POST /documents/import, streamed', () => {
  it('escapes and Unicode whitespace in the payload are read as JSON.parse reads them', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const res = await call(`/api/printers/${p.printer.id}/documents/import`, { token: ws.accessToken, headers: { 'content-type': 'application/json' }, body: '{"Data":"1B\\u002040\\n48\u00a069 0A"}' });
    await expectStatus(res, 204);
    expect((await latestDoc(ws, p.printer.id)).bytesReceived).toBe(5);
  });

  it('a bad escape in the payload is 400 problem+json naming bad JSON', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const res = await call(`/api/printers/${p.printer.id}/documents/import`, { token: ws.accessToken, headers: { 'content-type': 'application/json' }, body: '{"data":"1B\\x40"}' });
    const problem = await expectProblem(res, 400, { errors: true });
    expect(problem.detail).toMatch(/not valid JSON/);
  });

  it('a payload over 48 Mi characters is 400 with the reason on data, read without keeping it', async () => {
    const ws = await newWorkspace();
    const p = await createPrinter(ws);
    const piece = new TextEncoder().encode('41'.repeat(1 << 19));
    const pieces = 48 + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data":"'));
        for (let i = 0; i < pieces; i++) controller.enqueue(piece);
        controller.enqueue(new TextEncoder().encode('","format":"Hex"}'));
        controller.close();
      },
    });
    const res = await call(`/api/printers/${p.printer.id}/documents/import`, { token: ws.accessToken, headers: { 'content-type': 'application/json' }, body });
    const problem = await expectProblem(res, 400, { errors: true });
    expect(problem.errors!.data.join(' ')).toMatch(/Too big/);
  });
});
