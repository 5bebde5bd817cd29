/**
 * Helpers for the bridge and client e2e tests (test/e2e/bridge-*.test.ts, clients-*.test.ts):
 * SSE subscriptions, document polling, and reading a document's raw bytes back from its
 * debug elements. Import only from e2e tests (they run with the e2e global setup).
 */
import { readSse } from '../../support/sse.ts';
import { pollUntil } from '../../support/poll.ts';
import type { Api } from '../../e2e/api.ts';

export interface SseEvent {
  event: string;
  data: any;
  id?: string;
  at: number;
}

export interface SseSubscription {
  events: SseEvent[];
  connected: Promise<void>;
  waitFor(pred: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** `parseData: false` keeps `data` as text (no client-side JSON work). */
export function subscribe(baseUrl: string, path: string, accessToken: string, opts: { parseData?: boolean } = {}): SseSubscription {
  const parseData = opts.parseData ?? true;
  const ac = new AbortController();
  const log = eventLog(path);
  const connected = (async () => {
    const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${accessToken}`, accept: 'text/event-stream' }, signal: ac.signal });
    if (!res.ok || !res.body) throw new Error(`SSE ${path}: ${res.status}`);
    readSse(res, {
      onEvent: (ev) => log.push({ event: ev.event ?? 'message', data: parseData ? parseOrText(ev.data) : ev.data, id: ev.id, at: ev.at }),
    });
  })();
  connected.catch(() => { /* reported to whoever awaits `connected` */ });
  return { events: log.events, connected, waitFor: log.waitFor, close: () => ac.abort() };
}

/** A stream's events in arrival order, and a wait for the first one matching a predicate. */
export function eventLog(what: string): Pick<SseSubscription, 'events' | 'waitFor'> & { push(e: SseEvent): void } {
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  return {
    events,
    push(e) {
      events.push(e);
      for (const w of waiters.splice(0)) w();
    },
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`SSE ${what}: event not seen within ${timeoutMs} ms (${events.length} events)`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
    },
  };
}

function parseOrText(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

export function until<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000, what = 'condition', everyMs = 50): Promise<T> {
  return pollUntil(fn, { timeoutMs, everyMs, what });
}

/** Every stored document, status polls (jobs of status queries only) included. */
export async function listDocuments(api: Api, printerId: string): Promise<any[]> {
  const res = await api('GET', `/api/printers/${printerId}/documents/canvas?Limit=100&IncludeStatusPolls=true`);
  if (res.status !== 200) throw new Error(`documents: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.items ?? [];
}

export function waitForDocuments(api: Api, printerId: string, n: number, timeoutMs = 15_000): Promise<any[]> {
  return until(async () => {
    const docs = await listDocuments(api, printerId);
    return docs.length >= n ? docs : null;
  }, timeoutMs, `${n} document(s) on ${printerId}`, 100);
}

/** The job's bytes as uppercase hex, rebuilt from the debug elements (decisions.md: they add up). */
export function documentHex(doc: any): string {
  let hex = '';
  for (const canvas of doc.canvases ?? []) for (const item of canvas.items ?? []) if (item.type === 'debug') hex += item.commandRaw ?? '';
  return hex;
}

export function documentText(doc: any): string {
  const parts: string[] = [];
  for (const canvas of doc.canvases ?? []) for (const item of canvas.items ?? []) if (item.type === 'text') parts.push(item.text);
  return parts.join('\n');
}

export const hexOf = (b: Buffer | string) => Buffer.from(b).toString('hex').toUpperCase();
