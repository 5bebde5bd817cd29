/**
 * ESC/POS emulation engine (Epson TM-T88-class receipt printer).
 *
 * `createEscPosSession(getContext)` returns a ProtocolSession: feed it bytes in any chunking
 * with `push` (real-time status replies and side effects come back at once), call
 * `contextChanged` when flags or drawers change (Automatic Status Back), and `finish` once
 * for the rendered job. Pure TypeScript: runs in Node, workerd and the browser.
 *
 * Built on the engine framework: core/framer.ts frames the bytes by the command table
 * (table.ts, joining the families in commands/*.ts: each entry carries its bytes, length,
 * description and handler); machine.ts is the shared receipt machine (src/engines/receipt)
 * plus ESC/POS state. codepages.ts (text codec), images.ts, barcodes.ts, status.ts.
 */
import type { RenderedJob } from '../canvas/model.ts';
import type { PrinterContext, ProtocolSession, PushResult } from '../canvas/printer-context.ts';
import { Framer } from '../core/framer.ts';
import { EscPosMachine } from './machine.ts';
import { ESC_POS_COMMANDS } from './table.ts';

export { nvKeyToSlot } from './commands/images.ts';
export { CODE_PAGES, INTERNATIONAL_SETS } from './codepages.ts';

export function createEscPosSession(getContext: () => PrinterContext): ProtocolSession {
  const interpreter = new EscPosMachine(getContext);
  const framer = new Framer(ESC_POS_COMMANDS, interpreter);
  let finished: RenderedJob | null = null;
  let framed = false;
  const endFraming = () => {
    if (!framed) framer.finish();
    framed = true;
  };
  return {
    push(bytes: Uint8Array): PushResult {
      if (finished) return { replies: [], events: [] };
      framer.push(bytes);
      return interpreter.takeOutput();
    },
    contextChanged(): PushResult {
      if (finished) return { replies: [], events: [] };
      return interpreter.contextChanged();
    },
    finish(): RenderedJob {
      if (!finished) {
        endFraming();
        finished = interpreter.finish();
      }
      return finished;
    },
    finishStep(): boolean {
      if (finished) return false;
      endFraming();
      return interpreter.finishStep();
    },
    workSpent: () => interpreter.doc.budget.spent,
    streamTo: (sink) => interpreter.doc.streamTo(sink),
  };
}

/** Convenience: render a whole byte buffer at once. */
export function renderEscPos(bytes: Uint8Array, context: PrinterContext): RenderedJob {
  const s = createEscPosSession(() => context);
  s.push(bytes);
  return s.finish();
}
