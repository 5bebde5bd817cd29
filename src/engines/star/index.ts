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
import { STAR_LINE_COMMANDS, STAR_PRNT_COMMANDS } from './table.ts';

export type { StarLanguage } from './machine.ts';

export function createStarSession(language: StarLanguage, getContext: () => PrinterContext, limits?: BudgetLimits): ProtocolSession {
  const machine = new StarMachine(getContext, language, limits);
  const framer = new Framer(language === 'StarPrnt' ? STAR_PRNT_COMMANDS : STAR_LINE_COMMANDS, machine);
  let finished: RenderedJob | null = null;
  return {
    push(bytes: Uint8Array): PushResult {
      if (finished) return { replies: [], events: [] };
      framer.push(bytes);
      return machine.takeOutput();
    },
    contextChanged(): PushResult {
      if (finished) return { replies: [], events: [] };
      return machine.contextChanged();
    },
    finish(): RenderedJob {
      if (!finished) {
        framer.finish();
        finished = machine.finish();
      }
      return finished;
    },
  };
}
