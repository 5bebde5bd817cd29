/** How often an unchanged poll outcome is written to D1 (the stream hears of every poll). */
const QUIET_WRITE_MS = 30_000;

/**
 * The cloud poller's outcome in D1 (runtimeStatus.cloudPrintLastPollAt / LastError on the API):
 * written at once when the error changes, otherwise at most every QUIET_WRITE_MS, so 1,000
 * printers polling every 5 s do not write D1 200 times a second.
 */
export class CloudStatusWriter {
  private writtenAt = 0;
  private writtenError: string | null | undefined = undefined;

  write(db: D1Database, printerId: string, at: string, error: string | null): Promise<unknown> | null {
    if (error === this.writtenError && Date.now() - this.writtenAt < QUIET_WRITE_MS) return null;
    this.writtenAt = Date.now();
    this.writtenError = error;
    return db.prepare('UPDATE printers SET cloud_print_last_poll_at = ?, cloud_print_last_error = ? WHERE id = ? AND deleted_at IS NULL').bind(at, error, printerId).run();
  }
}
