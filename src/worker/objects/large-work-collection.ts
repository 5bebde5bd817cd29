/**
 * A full collection of the isolate's garbage before large work starts, under `npm start` only
 * (`--expose-gc`, see idle-collection.ts; elsewhere there is no `gc` and nothing runs).
 *
 * workerd's memory peaks when large work lands on what earlier work left: a document read as
 * JSON, an import's decoding, a job's steps leave tens of MB in the heap that nothing collects
 * while neighbours keep printing (idle-collection.ts waits for quiet). Collected first, the
 * large work's own transient is all that adds to the live heap (docs/decisions.md, "workerd's
 * memory", sixth pass). Large: an import's body of 1 MiB or more, a stored document's body of as
 * much read as JSON. Not a printing job once it has started: a collection inside a job's slices
 * stalled its neighbours for 300-400 ms. At most one a second: an import and its document
 * read back at once do not each pay for one.
 */

type FullGc = (options: { type: 'major'; execution: 'sync'; flavor: 'regular' }) => void;
const gc = (globalThis as { gc?: FullGc }).gc;

export const LARGE_WORK_BYTES = 1024 * 1024;
const MIN_GAP_MS = 1000;

let lastCollectedAt = -Infinity;

/** Work on `bytes` bytes starts now. */
export function beforeLargeWork(bytes: number): void {
  if (!gc || bytes < LARGE_WORK_BYTES) return;
  const now = Date.now();
  if (now - lastCollectedAt < MIN_GAP_MS) return;
  lastCollectedAt = now;
  gc({ type: 'major', execution: 'sync', flavor: 'regular' });
}
