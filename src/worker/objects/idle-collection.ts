/**
 * The isolate's garbage collected during and after heavy jobs, under `npm start` only.
 *
 * workerd's platform gives V8 no idle time: after a heavy job the Worker's heap keeps its
 * garbage (hundreds of MB) until something allocates enough to start a collection, which a quiet
 * service never does (docs/decisions.md, "workerd's memory"). `npm start` runs workerd with
 * `--expose-gc` (scripts/start.ts), and this module calls that `gc`:
 *
 * - after each step of heavy work (`heavyStepDone`), a minor collection: the step's dropped
 *   buffers go back to workerd's allocator before the next step allocates again;
 * - once a heavy job is stored and no job has been stored for `QUIET_MS`, a full collection
 *   (tens of ms): the garbage and the pictures' and bitmaps' buffers it held are freed;
 * - once no job has been stored for `IDLE_MS` after that, V8's memory-reducing collection
 *   (`last-resort`: compacts the heap and gives its free pages back to the system; up to ~170 ms
 *   on this 2-core machine under load, so only when the service is idle).
 *
 * Everywhere else (Cloudflare, the workers test pool) there is no `gc` and nothing here runs:
 * the platform manages the isolate's memory.
 *
 * Module state is the isolate's, shared by every object it hosts: one collection serves them
 * all. A timer belongs to the object that set it, so none is cleared from elsewhere: a newer
 * one supersedes it, and the one that fires looks again if a job was stored since.
 */

/** V8's `gc` extension (`--expose-gc`). */
type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'regular' | 'last-resort' } | { type: 'minor'; execution: 'sync' }) => void;
const gc = (globalThis as { gc?: Gc }).gc;

/** Jobs of this many bytes, or this costly to render (core/budget.ts units, 1 M ≈ 10 ms), are heavy. */
const HEAVY_BYTES = 1024 * 1024;
const HEAVY_WORK = 20_000_000;
/** The full collection waits until no job has been stored for this long. */
const QUIET_MS = 300;
/** The memory-reducing one, until no job has been stored for this long. */
const IDLE_MS = 20_000;
/** A timer this long overdue was lost (its object was evicted): a new one is set. */
const LOST_TIMER_MS = 10_000;

/** Work stored since the last collection, added up until it is heavy. */
let owedBytes = 0;
let owedWork = 0;
let lastStoredAt = 0;
/** What the timer does next: the full collection, then the memory-reducing one. */
let stage: 'collect' | 'reduce' = 'collect';
/** When the newest timer fires (null: none set); only the newest one acts. */
let dueAt: number | null = null;
let newest = 0;

/**
 * A step of heavy work is done (light-jobs.ts's `yieldToOthers`): a minor collection frees the
 * buffers the step made and dropped (PNG encoding's tables, bitmaps) before the next one, so
 * tcmalloc reuses their pages instead of spreading the job over new ones that the few buffers
 * kept meanwhile (SQLite's pages, documents, caches) pin after the job (docs/decisions.md).
 */
export function heavyStepDone(): void {
  gc?.({ type: 'minor', execution: 'sync' });
}

/** A job was stored: `bytes` what it received and the pictures it stored, `work` its rendering work (ProtocolSession.workSpent). */
export function jobStored(bytes: number, work: number): void {
  if (!gc) return;
  owedBytes += bytes;
  owedWork += work;
  const now = (lastStoredAt = Date.now());
  if (owedBytes < HEAVY_BYTES && owedWork < HEAVY_WORK) return;
  stage = 'collect';
  // A timer due soon enough does; one due later (waiting for idleness) or lost is superseded.
  if (dueAt !== null && dueAt <= now + QUIET_MS && now - dueAt < LOST_TIMER_MS) return;
  arm(QUIET_MS);
}

function arm(ms: number): void {
  const timer = ++newest;
  dueAt = Date.now() + ms;
  setTimeout(() => { if (timer === newest) whenQuiet(); }, ms);
}

function whenQuiet(): void {
  dueAt = null;
  const quietFor = Date.now() - lastStoredAt;
  const wanted = stage === 'collect' ? QUIET_MS : IDLE_MS;
  if (quietFor < wanted) return arm(wanted - quietFor);
  if (stage === 'collect') {
    owedBytes = 0;
    owedWork = 0;
    gc!({ type: 'major', execution: 'sync', flavor: 'regular' });
    stage = 'reduce';
    return arm(IDLE_MS);
  }
  stage = 'collect';
  gc!({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
