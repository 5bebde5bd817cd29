/**
 * Reads a Server-Sent Events response with a real SSE parser (eventsource-parser), for
 * tests in Node and in workerd alike, and for the e2e subscriptions (test/bridge-unit/support/e2e.ts)
 * that keep every event with its arrival time.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseReader {
  /** Next event (optionally of a given name), or rejects after `timeoutMs`. */
  next(event?: string, timeoutMs?: number): Promise<EventSourceMessage>;
  /** Comments seen so far (": connected", ": keep-alive"). */
  comments: string[];
  close(): Promise<void>;
}

export interface ArrivedEvent extends EventSourceMessage {
  /** When the chunk ending the event was read (before any parsing by the test). */
  at: number;
}

/** `onEvent` sees every event as it arrives, whether or not `next` takes it. */
export function readSse(response: Response, opts: { onEvent?: (e: ArrivedEvent) => void } = {}): SseReader {
  if (!response.body) throw new Error('response has no body');
  const queue: EventSourceMessage[] = [];
  const waiters: (() => void)[] = [];
  const comments: string[] = [];
  let done = false;
  let chunkAt = Date.now();
  const parser = createParser({
    onEvent: (e) => {
      if (opts.onEvent) opts.onEvent({ ...e, at: chunkAt });
      else queue.push(e);
      waiters.splice(0).forEach((w) => w());
    },
    onComment: (c) => {
      comments.push(c.trim());
      waiters.splice(0).forEach((w) => w());
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done: d } = await reader.read();
        if (d) break;
        chunkAt = Date.now();
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch { /* cancelled */ }
    done = true;
    waiters.splice(0).forEach((w) => w());
  })();

  return {
    comments,
    async next(event, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = queue.findIndex((e) => !event || e.event === event);
        if (i >= 0) return queue.splice(i, 1)[0];
        if (done) throw new Error(`stream ended before event ${event ?? '(any)'}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for event ${event ?? '(any)'}`);
        await new Promise<void>((res) => {
          const t = setTimeout(res, left);
          waiters.push(() => { clearTimeout(t); res(); });
        });
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}
