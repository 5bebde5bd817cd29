/**
 * A printer object's side of the dirty set (objects/dirty-set.ts): before it stores a document
 * (which makes its counter outbox pending) its workspace's object must know it has pending
 * writes. Marking costs one call per flush cycle, not per document: once marked, the printer
 * stays marked until a settle takes it out and flushes it.
 */
export class PendingMark {
  private marked = false;
  /** Counts settles: a mark sent while a settle began may have arrived before it. */
  private settles = 0;

  /** Resolves once the mark is known where readers look; the caller stores right after, synchronously. */
  async ensureMarked(mark: () => Promise<void>): Promise<void> {
    while (!this.marked) {
      const settlesBefore = this.settles;
      await mark();
      // A settle that started meanwhile may have taken the mark out before it arrived: again.
      if (this.settles === settlesBefore) this.marked = true;
    }
  }

  /** A settle took this printer out of the set; what it flushes next must be marked anew. */
  settling(): void {
    this.settles++;
    this.marked = false;
  }
}
