/**
 * Star emulation engines: StarPRNT (TSP100IV, mC-Print, mPOP, SM-L200) and Star Line Mode
 * (TSP650II), on the shared receipt machine. Command families in commands/*.ts, joined in
 * table.ts (trie.ts keys Star's multi-byte command prefixes); status replies in status.ts.
 * Pure TypeScript: runs in Node, workerd and the browser.
 */
import type { RenderedJob } from '../canvas/model.ts';
import type { PrinterContext, ProtocolSession, PushResult } from '../canvas/printer-context.ts';
import type { BudgetLimits } from '../core/budget.ts';
import { Framer } from '../core/framer.ts';
import { StarMachine, type StarLanguage } from './machine.ts';
import { RasterEntry, RasterFramer } from './raster.ts';
import { STAR_LINE_COMMANDS, STAR_PRNT_COMMANDS } from './table.ts';

export type { StarLanguage } from './machine.ts';

export function createStarSession(language: StarLanguage, getContext: () => PrinterContext, limits?: BudgetLimits): ProtocolSession {
  const machine = new StarMachine(getContext, language, limits);
  const framer = new Framer(language === 'StarPrnt' ? STAR_PRNT_COMMANDS : STAR_LINE_COMMANDS, machine);
  const raster = new RasterFramer(machine);
  const enter = new RasterEntry();
  let finished: RenderedJob | null = null;
  let framed = false;
  const endFraming = () => {
    if (framed) return;
    framed = true;
    raster.finish();
    framer.finish();
  };
  /** Raster mode frames its bytes itself: the normal framer gets the bytes up to ESC * r A. */
  const feed = (bytes: Uint8Array): void => {
    let i = 0;
    while (i < bytes.length) {
      if (machine.rasterMode) {
        i += raster.push(bytes, i);
        continue;
      }
      const end = enter.scan(bytes, i);
      framer.push(bytes.subarray(i, end));
      i = end;
    }
  };
  return {
    push(bytes: Uint8Array): PushResult {
      if (finished) return { replies: [], events: [] };
      feed(bytes);
      return machine.takeOutput();
    },
    contextChanged(): PushResult {
      if (finished) return { replies: [], events: [] };
      return machine.contextChanged();
    },
    finish(): RenderedJob {
      if (!finished) {
        endFraming();
        finished = machine.finish();
      }
      return finished;
    },
    finishStep(): boolean {
      if (finished) return false;
      endFraming();
      return machine.finishStep();
    },
    workSpent: () => machine.doc.budget.spent,
    streamTo: (sink) => machine.doc.streamTo(sink),
  };
}
