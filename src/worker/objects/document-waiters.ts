/**
 * Callers of `GET …/documents/next` waiting in the printer's Durable Object for its next
 * document. Held in the object (not by polling storage), so a thousand waiting CI jobs cost
 * nothing until a document arrives; `documentStored` answers every waiter at once.
 */
/** Waiters one printer holds at most; more are turned away (a runaway client, not a CI farm). */
export const MAX_WAITERS = 1000;

export class DocumentWaiters {
  private readonly waiting = new Set<(json: string | null) => void>();

  get size(): number {
    return this.waiting.size;
  }

  get isFull(): boolean {
    return this.waiting.size >= MAX_WAITERS;
  }

  /** The next stored document's JSON, or null when `timeoutMs` passes first. */
  next(timeoutMs: number): Promise<string | null> {
    if (timeoutMs <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (json: string | null) => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve(json);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      this.waiting.add(done);
    });
  }

  /** A (non-poll) document was stored: every waiter gets it. */
  /** `json` is serialised only when someone waits (the document's JSON is built lazily). */
  documentStored(json: () => string): void {
    if (this.waiting.size === 0) return;
    const body = json();
    for (const done of [...this.waiting]) done(body);
  }
}
