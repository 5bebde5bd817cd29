/**
 * Pure diff between the listeners the bridge has and the complete set the Worker wants.
 */
import type { ListenerSpec } from './types.ts';

export type ListenerStatus = 'binding' | 'bound' | 'failed';

export interface CurrentListener {
  spec: ListenerSpec;
  status: ListenerStatus;
}

export interface ReconcilePlan {
  /** Printers to close for good (not wanted any more). */
  close: string[];
  /** Listeners to (re)bind; a printer whose port changed or whose bind failed is in both close and bind. */
  bind: ListenerSpec[];
  /** Same port, other settings changed: apply in place. */
  update: ListenerSpec[];
  /** Wanted and already listening (or binding) with identical settings. */
  unchanged: ListenerSpec[];
}

function sameSettings(a: ListenerSpec, b: ListenerSpec): boolean {
  return (
    a.workspaceId === b.workspaceId &&
    a.protocol === b.protocol &&
    a.displayName === b.displayName &&
    a.idleTimeoutMs === b.idleTimeoutMs &&
    a.maxJobBytes === b.maxJobBytes &&
    a.maxConnections === b.maxConnections &&
    a.maxJobsInFlight === b.maxJobsInFlight &&
    a.maxJobSeconds === b.maxJobSeconds &&
    a.whitelist.enabled === b.whitelist.enabled &&
    a.whitelist.entries.length === b.whitelist.entries.length &&
    a.whitelist.entries.every((e, i) => e === b.whitelist.entries[i]) &&
    (a.buffer === null
      ? b.buffer === null
      : b.buffer !== null && a.buffer.maxCapacity === b.buffer.maxCapacity && a.buffer.drainRate === b.buffer.drainRate)
  );
}

export function planReconcile(current: ReadonlyMap<string, CurrentListener>, desired: readonly ListenerSpec[]): ReconcilePlan {
  const plan: ReconcilePlan = { close: [], bind: [], update: [], unchanged: [] };
  const wanted = new Map<string, ListenerSpec>();
  for (const spec of desired) wanted.set(spec.printerId, spec); // last one wins on duplicates

  for (const id of current.keys()) {
    if (!wanted.has(id)) plan.close.push(id);
  }
  for (const spec of wanted.values()) {
    const have = current.get(spec.printerId);
    if (!have) {
      plan.bind.push(spec);
    } else if (have.spec.port !== spec.port || have.status === 'failed') {
      plan.close.push(spec.printerId);
      plan.bind.push(spec);
    } else if (!sameSettings(have.spec, spec)) {
      plan.update.push(spec);
    } else {
      plan.unchanged.push(spec);
    }
  }
  return plan;
}
