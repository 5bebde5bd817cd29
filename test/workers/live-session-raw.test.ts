/**
 * A session's raw bytes as far as they came (objects/live-session.ts `rawSoFar`, which a
 * streamed document reads batch by batch) are the chunks received so far, in order, however
 * they are asked for in between; `rawBytes` is the whole job, exactly its length; a request
 * received as one body (`receivedAs`) is that body.
 */
import { describe, expect, it } from 'vitest';
import { LiveSession } from '../../src/worker/objects/live-session.ts';
import { createProtocolSession } from '../../src/engines/index.ts';
import { testPrinterContext } from '../support/printer-context.ts';

const engine = () => createProtocolSession('EscPos', () => testPrinterContext({ widthInDots: 576 }));

describe('a session\'s raw bytes so far', () => {
  it('are the chunks received, asked for at any point', () => {
    let x = 7;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
    const session = new LiveSession('s', '10.0.0.1', engine());
    const sent: number[] = [];
    for (let i = 0; i < 300; i++) {
      const chunk = Uint8Array.from({ length: 1 + (next() % 97) }, () => 0x20 + (next() % 90));
      sent.push(...chunk);
      session.receive(chunk, 1 << 20);
      if (next() % 3 === 0) expect([...session.rawSoFar()]).toEqual(sent);
    }
    const raw = session.rawBytes();
    expect([...raw]).toEqual(sent);
    expect(raw.buffer.byteLength).toBe(sent.length);
  });

  it('stop at the maximum job size; a request received as one body is that body', () => {
    const session = new LiveSession('s', '10.0.0.1', engine());
    session.receive(new Uint8Array(60).fill(0x41), 100);
    session.receive(new Uint8Array(60).fill(0x42), 100);
    expect(session.truncated).toBe(true);
    expect([...session.rawBytes()]).toEqual([...new Uint8Array(60).fill(0x41), ...new Uint8Array(40).fill(0x42)]);
    const http = new LiveSession('h', '10.0.0.1', engine(), 'EposPrint');
    const body = new TextEncoder().encode('<epos-print/>');
    http.receivedAs(body);
    expect(http.rawSoFar()).toBe(body);
    expect(http.rawBytes()).toBe(body);
  });
});
