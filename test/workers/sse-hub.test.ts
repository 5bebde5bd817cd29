/**
 * Each SSE event is serialised once for all subscribers (issue 19: re-encoding per subscriber
 * was a fifth of the Worker's CPU per document), and a filter leaves subscribers out.
 */
import { describe, expect, it } from 'vitest';
import { SseChannel, SseHub } from '../../src/worker/services/sse.ts';

describe('SseHub.broadcastRaw', () => {
  it('hands every subscriber the same encoded frame, and only those the filter accepts', async () => {
    const hub = new SseHub<{ wantsPolls: boolean }>();
    const channels = [hub.open({ wantsPolls: true }), hub.open({ wantsPolls: false }), hub.open({ wantsPolls: true })];
    const frames = new Map<SseChannel, Uint8Array[]>();
    const original = SseChannel.prototype.sendFrame;
    SseChannel.prototype.sendFrame = function (this: SseChannel, frame: Uint8Array, id?: string) {
      frames.set(this, [...(frames.get(this) ?? []), frame]);
      return original.call(this, frame, id);
    };
    try {
      const json = JSON.stringify({ id: 'd1', big: 'x'.repeat(10_000) });
      const to = hub.broadcastRaw('documentCanvasReady', json, 'd1');
      expect(to).toHaveLength(3);
      const sent = channels.map((c) => frames.get(c)![0]);
      expect(sent[1]).toBe(sent[0]);
      expect(sent[2]).toBe(sent[0]);
      expect(new TextDecoder().decode(sent[0])).toBe(`id: d1\nevent: documentCanvasReady\ndata: ${json}\n\n`);
      // JSON handed over as UTF-8 (a document's, written as bytes) makes the same frame as the string.
      const euro = JSON.stringify({ id: 'd3', text: '1.37 € ─ \u{1f9fe}' });
      hub.broadcastRaw('documentCanvasReady', () => new TextEncoder().encode(euro), 'd3');
      expect(frames.get(channels[0])![1]).toEqual(new TextEncoder().encode(`id: d3\nevent: documentCanvasReady\ndata: ${euro}\n\n`));
      const polled = hub.broadcastRaw('documentCanvasReady', '{}', 'd2', (m) => m.wantsPolls);
      expect(polled).toEqual([{ wantsPolls: true }, { wantsPolls: true }]);
      expect(frames.get(channels[1])).toHaveLength(2);
      // what a subscriber reads is the frame
      const reader = channels[0].response.body!.getReader();
      let text = '';
      while (!text.includes('id: d2')) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain(': connected\n\n');
      expect(text).toContain(`data: ${json}\n\n`);
    } finally {
      SseChannel.prototype.sendFrame = original;
      for (const c of channels) hub.drop(c);
    }
  });
});
