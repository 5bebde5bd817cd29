/** Timings the browser test reads (window.__slipstreamPerf) and prints. */
export interface PerfRecord { firstRender: { printerId: string; documents: number; ms: number; sinceNavigation: number; dataWaitMs: number; renderMs: number }[]; documentPaint: { documentId: string; ms: number }[] }

export const perf: PerfRecord = { firstRender: [], documentPaint: [] };
(globalThis as unknown as { __slipstreamPerf: PerfRecord }).__slipstreamPerf = perf;

/** Calls `fn` after the next frame has been painted. */
export function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}
