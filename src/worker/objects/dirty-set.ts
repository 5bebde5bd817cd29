/**
 * "Who holds writes D1 has not seen yet" (docs/decisions.md "Consistency: readers settle the
 * writers first"). A workspace's object keeps the set of its printers whose counter outbox is
 * not yet flushed; one object for the whole deployment keeps the set of workspaces that have
 * such printers. A member is added before the write it stands for becomes visible (a printer
 * marks itself before it stores the document that makes its outbox pending) and taken out only
 * by `settle`, which flushes it. A reader that settles first and then reads D1 sees every
 * document that was listable when it began, without a D1 write per document on the printing path.
 *
 * Kept in the object's SQLite storage, so an evicted object still knows its members.
 */
export class DirtySet {
  /** Settles started and not finished, by member: a later settle waits for them too. */
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS dirty (id TEXT PRIMARY KEY)');
  }

  /** Adds a member; true when the set was empty before (the caller marks its own parent then). */
  add(id: string): boolean {
    // Settles in flight do not count: they may have taken their members before this one came.
    const wasEmpty = this.sql.exec('SELECT COUNT(*) AS n FROM dirty').one().n === 0;
    this.sql.exec('INSERT OR IGNORE INTO dirty (id) VALUES (?)', id);
    return wasEmpty;
  }

  /**
   * Flushes every member (`flush(id)`), and waits for flushes earlier settles started. A member
   * whose flush fails is put back, and the error thrown.
   */
  async settle(flush: (id: string) => Promise<void>): Promise<void> {
    const ids = this.sql.exec('DELETE FROM dirty RETURNING id').toArray().map((r) => r.id as string);
    for (const id of ids) {
      const previous = this.inflight.get(id) ?? Promise.resolve();
      const work = previous.catch(() => undefined).then(() => flush(id)).catch((e) => {
        this.sql.exec('INSERT OR IGNORE INTO dirty (id) VALUES (?)', id);
        throw e;
      });
      this.inflight.set(id, work);
      const clear = () => { if (this.inflight.get(id) === work) this.inflight.delete(id); };
      work.then(clear, clear);
    }
    await Promise.all(this.inflight.values());
  }
}
