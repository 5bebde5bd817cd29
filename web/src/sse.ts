/**
 * EventSource with recovery: the browser reconnects by itself after network hiccups (and
 * sends Last-Event-ID); when the server closes the stream for good (e.g. the cookie expired)
 * the access token and cookie are renewed and the stream is reopened with a backoff, and
 * `onReopen` lets the view catch up on what it may have missed.
 */
import { api } from './api.ts';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface StreamOptions {
  events: Record<string, (data: any, ev: MessageEvent) => void>;
  onState?: (state: StreamState) => void;
  onReopen?: () => void;
  /**
   * The stream is subscribed for the first time: whatever the view listed before may already
   * be stale (a document finalised between the list request and this subscription is on
   * neither), so the view catches up once now.
   */
  onFirstOpen?: () => void;
  onError?: (message: string) => void;
}

export interface StreamHandle { close(): void }

export function openStream(path: string, opts: StreamOptions): StreamHandle {
  let es: EventSource | null = null;
  let closed = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let opened = false;
  const setState = (s: StreamState) => opts.onState?.(s);

  const connect = () => {
    if (closed) return;
    setState(opened ? 'reconnecting' : 'connecting');
    // EventSource cannot send X-Client; the query marks the web UI for read stamps.
    const source = new EventSource(`${path}${path.includes('?') ? '&' : '?'}client=web`, { withCredentials: true });
    es = source;
    source.onopen = () => {
      if (attempt > 0 || opened) opts.onReopen?.();
      else opts.onFirstOpen?.();
      attempt = 0;
      opened = true;
      setState('live');
    };
    source.onerror = () => {
      if (closed) return;
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        attempt++;
        setState('reconnecting');
        const delay = Math.min(15_000, 500 * 2 ** Math.min(attempt, 5));
        if (attempt === 4) opts.onError?.('The live connection to the server keeps failing; retrying.');
        timer = setTimeout(async () => {
          try {
            await api.ensureFresh();
            await api.sessionCookie();
          } catch { /* retried on the next attempt */ }
          connect();
        }, delay);
      } else {
        setState('reconnecting');
      }
    };
    for (const [name, handler] of Object.entries(opts.events)) {
      source.addEventListener(name, (ev) => {
        const msg = ev as MessageEvent;
        let data: unknown;
        try {
          data = JSON.parse(msg.data);
        } catch {
          opts.onError?.(`The server sent an unreadable "${name}" event.`);
          return;
        }
        handler(data, msg);
      });
    }
  };
  connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      es?.close();
      setState('closed');
    },
  };
}
