/**
 * Write-behind for a printer's finalised documents.
 *
 * A document is announced on the canvas stream as soon as it is rendered (its media are in R2
 * already); its D1 row is written here, together with every other document of the printer
 * finalised within `windowMs`, in one batch. The live path (stream events, status replies of
 * the next connection) thus never waits for D1, and in the single isolate of `wrangler dev`
 * a burst of printers is not queued behind each other's database writes.
 *
 * Nothing is lost in the window: the bridge keeps each job's bytes until `finalised`, which is
 * sent only once the batch is committed; imports flush at once and answer after the commit.
 * Readers of the printer's documents call `settled()` first (read-your-writes): it flushes
 * whatever waits and resolves once it is durable.
 */
export class DocumentWriteQueue<Doc> {
  private waiting: { doc: Doc; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The chain of flushes, in order; never rejects. */
  private flushes: Promise<void> = Promise.resolve();

  constructor(
    /** Writes documents (in order) in one transaction. */
    private readonly commit: (docs: Doc[]) => Promise<void>,
    private readonly windowMs: number,
    /** Rows carry bodies up to 96 KB and raw bytes up to 64 KB inline: a batch stays near 1 MB. */
    private readonly maxBatch = 8,
  ) {}

  /** Resolves once the document is durable; `now` skips the window. */
  add(doc: Doc, now = false): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ doc, resolve, reject }));
    if (now || this.waiting.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    return done;
  }

  /** Every document added so far is durable (or its write failed). */
  async settled(): Promise<void> {
    this.flush();
    await this.flushes;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.flushes = this.flushes.then(() => this.write(batch));
    }
  }

  private async write(batch: typeof this.waiting): Promise<void> {
    const docs = batch.map((w) => w.doc);
    try {
      await this.commit(docs).catch(() => this.commit(docs)); // one retry: a transaction either wrote all or nothing
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    for (const w of batch) w.resolve();
  }
}
