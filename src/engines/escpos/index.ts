/**
 * ESC/POS emulation engine (Epson TM-T88-class receipt printer).
 *
 * `createEscPosSession(getContext)` returns a ProtocolSession: feed it bytes in any chunking
 * with `push` (real-time status replies and side effects come back at once), call
 * `contextChanged` when flags or drawers change (Automatic Status Back), and `finish` once
 * for the rendered job. Pure TypeScript: runs in Node, workerd and the browser.
 *
 * Modules: parser.ts (framing), commands.ts (command table), interpreter.ts (modes and
 * command execution), layout.ts (line and page buffers), document.ts (canvases, images),
 * codepages.ts, images.ts, barcodes.ts, status.ts, state.ts (fonts, defaults).
 */
import type { RenderedJob } from '../canvas/model.ts';
import type { PrinterContext, ProtocolSession, PushResult } from '../canvas/printer-context.ts';
import { Interpreter } from './interpreter.ts';
import { Framer } from './parser.ts';

export { nvKeyToSlot } from './interpreter.ts';
export { CODE_PAGES, INTERNATIONAL_SETS } from './codepages.ts';

export function createEscPosSession(getContext: () => PrinterContext): ProtocolSession {
  const interpreter = new Interpreter(getContext);
  const framer = new Framer(interpreter);
  let finished: RenderedJob | null = null;
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
        framer.finish();
        finished = interpreter.finish();
      }
      return finished;
    },
  };
}

/** Convenience: render a whole byte buffer at once. */
export function renderEscPos(bytes: Uint8Array, context: PrinterContext): RenderedJob {
  const s = createEscPosSession(() => context);
  s.push(bytes);
  return s.finish();
}
