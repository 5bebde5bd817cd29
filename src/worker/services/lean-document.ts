import type { CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';

/**
 * What a document keeps of the engine's elements (extensions.md "Storage and size"): nothing the
 * reader can derive, nothing stored twice.
 * - `commandRaw` holds at most the first 64 bytes of a command (`commandRawTruncated: true`
 *   when cut; `lengthInBytes` stays exact, the whole bytes are the document's raw bytes). A
 *   raster's bytes are thus in the PNG medium and the raw job only, never again as hex.
 * - A drawn element (text, image, line, box) repeats nothing of the command that drew it:
 *   that command's debug element, just before it, carries its bytes and description. Drawn
 *   elements keep the required fields, with `commandRaw: ""` and `commandDescription: []`.
 * - Empty `parameters` of debug elements are left out.
 */
export const COMMAND_RAW_MAX_BYTES = 64;

type LeanFields = { commandRaw: string; commandDescription: string[]; lengthInBytes: number; commandRawTruncated?: true };

export function leanSource(el: CanvasElement): LeanFields {
  if (el.type !== 'debug') return { commandRaw: '', commandDescription: [], lengthInBytes: el.lengthInBytes };
  const cut = el.commandRaw.length > COMMAND_RAW_MAX_BYTES * 2;
  return {
    commandRaw: cut ? el.commandRaw.slice(0, COMMAND_RAW_MAX_BYTES * 2) : el.commandRaw,
    commandDescription: el.commandDescription,
    lengthInBytes: el.lengthInBytes,
    ...(cut && { commandRawTruncated: true as const }),
  };
}

/** A debug element without its `parameters` when they are empty. */
export function leanDebugExtras(el: Extract<CanvasElement, { type: 'debug' }>): { debugType: string; parameters?: Record<string, string> } {
  return Object.keys(el.parameters).length ? { debugType: el.debugType, parameters: el.parameters } : { debugType: el.debugType };
}

const DRAWN = new Set(['text', 'image', 'line', 'box']);
/** Commands that print something without drawing: cuts, drawer pulses, EPL's print-label. */
const ESCPOS_ACTIONS = /^(GS V|ESC i|ESC m|ESC p|DLE DC4|BEL)\b/;
const EPL_ACTIONS = /^P\d*\b/;

/**
 * A job that draws nothing and holds only status queries and settings (extensions.md "Status
 * polls"). The engines report it (`isStatusPoll`) once they know; until then it is read off the
 * elements: no drawn element and no cut, pulse or printed label.
 */
export function isStatusPoll(job: RenderedJob & { isStatusPoll?: boolean }, protocol: 'EscPos' | 'Epl'): boolean {
  if (typeof job.isStatusPoll === 'boolean') return job.isStatusPoll;
  const actions = protocol === 'Epl' ? EPL_ACTIONS : ESCPOS_ACTIONS;
  for (const c of job.canvases) {
    for (const el of c.items) {
      if (DRAWN.has(el.type)) return false;
      if (el.type === 'debug' && el.debugType === 'command' && actions.test(el.commandDescription[0] ?? '')) return false;
    }
  }
  return true;
}
