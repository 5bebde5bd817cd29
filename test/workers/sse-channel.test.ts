/**
 * The SSE channel's replay for a reconnecting client (src/worker/services/sse.ts): events that
 * arrive while the missed ones are read are held, then sent after them, each document once.
 */
import { describe, expect, it } from 'vitest';
import { MAX_SUBSCRIBER_BACKLOG_BYTES, SseHub } from '../../src/worker/services/sse.ts';
import { readSse } from '../support/sse.ts';

describe('SseChannel hold and replay', () => {
  it('sends the missed events first, then the held live ones that were not among them', async () => {
    const hub = new SseHub();
    const channel = hub.open(undefined);
    const reader = readSse(channel.response);
    channel.hold();
    hub.broadcastRaw('documentCanvasReady', '{"n":3}', 'c'); // announced while replaying, also written meanwhile
    hub.broadcastRaw('documentCanvasReady', '{"n":4}', 'd'); // announced while replaying, not yet written
    channel.replay([
      { event: 'documentCanvasReady', json: '{"n":2}', id: 'b' },
      { event: 'documentCanvasReady', json: '{"n":3}', id: 'c' },
    ]);
    hub.broadcastRaw('documentCanvasReady', '{"n":5}', 'e'); // live again
    const ids: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) ids.push((await reader.next('documentCanvasReady', 2000)).id);
    expect(ids).toEqual(['b', 'c', 'd', 'e']);
    await expect(reader.next('documentCanvasReady', 200)).rejects.toThrow(/timed out/);
    hub.drop(channel);
    await reader.close();
  });
});

describe('a subscriber that stops reading', () => {
  it('is dropped once its unread events pass the bound, instead of holding them in memory; readers keep theirs', async () => {
    const hub = new SseHub();
    const stalled = hub.open(undefined); // never read
    const live = hub.open(undefined);
    const reader = readSse(live.response);
    const doc = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    const n = Math.ceil(MAX_SUBSCRIBER_BACKLOG_BYTES / doc.length) + 2;
    for (let i = 0; i < n; i++) {
      hub.broadcastRaw('documentCanvasReady', doc, `d${i}`);
      await reader.next('documentCanvasReady', 5000);
    }
    expect(stalled.alive).toBe(false);
    expect(hub.channels.has(stalled)).toBe(false);
    expect(live.alive).toBe(true);
    hub.drop(live);
    await reader.close();
  });
});
