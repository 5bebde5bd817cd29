/**
 * One Server-Sent Events subscriber. Writes are fire-and-forget; a failed write (the client
 * went away) marks the channel dead so the owner drops it. Durable Objects only notice a
 * departed client when a write fails, hence the keep-alive comments sent by the owner.
 */
export class SseChannel {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly response: Response;
  alive = true;
  private readonly encoder = new TextEncoder();
  /** Events held back while older ones are replayed (see `hold`). */
  private held: { frame: Uint8Array; id?: string }[] | null = null;
  /** Bytes written but not yet taken by the client. */
  private backlog = 0;

  constructor(private readonly onDead: (ch: SseChannel) => void) {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    this.writer = writable.getWriter();
    this.response = new Response(readable, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
    this.comment('connected');
  }

  send(event: string, data: unknown, id?: string): void {
    this.sendFrame(encodeEvent(event, typeof data === 'string' ? data : JSON.stringify(data), id), id);
  }

  /** Sends an event already framed and encoded (`encodeEvent`): one encoding for every subscriber. */
  sendFrame(frame: Uint8Array, id?: string): void {
    if (this.held) this.held.push({ frame, id });
    else this.write(frame);
  }

  /**
   * Holds live events back (a reconnecting client's missed events are being replayed: what
   * happens meanwhile must come after them). `replay` sends the missed events, then the held
   * ones that were not among them.
   */
  hold(): void {
    this.held ??= [];
  }

  replay(missed: readonly { event: string; json: string; id: string }[]): void {
    const held = this.held ?? [];
    this.held = null;
    for (const m of missed) this.send(m.event, m.json, m.id);
    const replayed = new Set(missed.map((m) => m.id));
    for (const h of held) if (!h.id || !replayed.has(h.id)) this.write(h.frame);
  }

  comment(text: string): void {
    this.write(this.encoder.encode(`: ${text}\n\n`));
  }

  close(): void {
    if (!this.alive) return;
    this.alive = false;
    this.writer.close().catch(() => {});
  }

  private write(frame: Uint8Array): void {
    if (!this.alive) return;
    // A subscriber that stops reading would otherwise keep every later event in this object's
    // memory. Past the bound it is dropped; its EventSource reconnects with Last-Event-ID and
    // gets what it missed replayed.
    if (this.backlog + frame.length > MAX_SUBSCRIBER_BACKLOG_BYTES && this.backlog > 0) {
      this.alive = false;
      this.writer.abort('subscriber too slow').catch(() => {});
      this.onDead(this);
      return;
    }
    this.backlog += frame.length;
    this.writer.write(frame).then(
      () => { this.backlog -= frame.length; },
      () => {
        if (!this.alive) return;
        this.alive = false;
        this.onDead(this);
      },
    );
  }
}

/** Bytes a subscriber may leave unread before it is dropped (it reconnects and replays). */
export const MAX_SUBSCRIBER_BACKLOG_BYTES = 16 * 1024 * 1024;

const eventEncoder = new TextEncoder();

/** One SSE event as bytes (`id`, `event`, `data` lines). */
export function encodeEvent(event: string, json: string, id?: string): Uint8Array {
  return eventEncoder.encode(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${json}\n\n`);
}

const EVENT_END = eventEncoder.encode('\n\n');

/** `encodeEvent` of JSON that is UTF-8 already (JSON text holds no line break: one `data` line). */
export function encodeEventUtf8(event: string, json: Uint8Array, id?: string): Uint8Array {
  const start = eventEncoder.encode(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: `);
  const frame = new Uint8Array(start.length + json.length + EVENT_END.length);
  frame.set(start);
  frame.set(json, start.length);
  frame.set(EVENT_END, start.length + json.length);
  return frame;
}

export const KEEP_ALIVE_MS = 15_000;

/** A set of SSE channels with a shared keep-alive timer, started while anyone listens. */
export class SseHub<Meta = undefined> {
  readonly channels = new Map<SseChannel, Meta>();
  private timer: ReturnType<typeof setInterval> | null = null;

  open(meta: Meta): SseChannel {
    const ch = new SseChannel((dead) => this.drop(dead));
    this.channels.set(ch, meta);
    this.timer ??= setInterval(() => {
      for (const c of this.channels.keys()) c.comment('keep-alive');
    }, KEEP_ALIVE_MS);
    return ch;
  }

  broadcast(event: string, data: unknown, id?: string): void {
    this.broadcastRaw(event, JSON.stringify(data), id);
  }

  /**
   * Broadcasts an already serialised JSON payload (a string, or UTF-8), framed and encoded once
   * for all subscribers (or those `to` accepts); a function is called only if someone receives
   * it. Returns the subscribers it went to.
   */
  broadcastRaw(event: string, json: string | (() => string | Uint8Array), id?: string, to?: (meta: Meta) => boolean): Meta[] {
    const receivers: Meta[] = [];
    let frame: Uint8Array | null = null;
    for (const [ch, meta] of this.channels) {
      if (to && !to(meta)) continue;
      frame ??= frameOf(event, typeof json === 'string' ? json : json(), id);
      ch.sendFrame(frame, id);
      receivers.push(meta);
    }
    return receivers;
  }

  drop(ch: SseChannel): void {
    ch.close();
    this.channels.delete(ch);
    if (this.channels.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  get size(): number {
    return this.channels.size;
  }
}

function frameOf(event: string, json: string | Uint8Array, id?: string): Uint8Array {
  return typeof json === 'string' ? encodeEvent(event, json, id) : encodeEventUtf8(event, json, id);
}
