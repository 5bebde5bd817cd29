import type { CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';

/**
 * What a document keeps of the engine's elements (docs/contract/extensions.md "Storage and size"): nothing the
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

const NO_DESCRIPTION: readonly string[] = Object.freeze([]);

/**
 * The element as the document keeps it: a shallow copy (engines may share element objects
 * between jobs, e.g. EPL forms), changed in place. Undefined fields are left out of the JSON.
 * The rules above in one readable place: the writers that apply them on the way (compact-body.ts,
 * dto-json.ts) are tested against `JSON.stringify` of these copies.
 */
export function leanElement<E extends CanvasElement>(el: E): E & { commandRawTruncated?: true } {
  const out = { ...el } as E & { commandRawTruncated?: true; parameters?: Record<string, string> };
  if (el.type !== 'debug') {
    out.commandRaw = '';
    out.commandDescription = NO_DESCRIPTION as string[];
    return out;
  }
  if (el.commandRaw.length > COMMAND_RAW_MAX_BYTES * 2) {
    out.commandRaw = el.commandRaw.slice(0, COMMAND_RAW_MAX_BYTES * 2);
    out.commandRawTruncated = true;
  }
  if (isEmpty(el.parameters)) out.parameters = undefined;
  return out;
}

function isEmpty(o: Record<string, string>): boolean {
  for (const _ in o) return false;
  return true;
}

const DRAWN = new Set(['text', 'image', 'line', 'box']);
/** Commands that print something without drawing: cuts, drawer pulses, EPL's print-label. */
const ESCPOS_ACTIONS = /^(GS V|ESC i|ESC m|ESC p|DLE DC4|BEL)\b/;
const EPL_ACTIONS = /^P\d*\b/;

/**
 * Whether a document stored before status polls existed (imported from D1, ESC/POS or EPL
 * only) was one (docs/contract/extensions.md "Status polls"): read off its elements, no drawn element and no
 * cut, pulse or printed label. New jobs carry the engine's own `isStatusPoll`.
 */
export function isLegacyStatusPoll(job: Pick<RenderedJob, 'canvases'>, protocol: string): boolean {
  const actions = protocol === 'Epl' ? EPL_ACTIONS : ESCPOS_ACTIONS;
  for (const c of job.canvases) {
    for (const el of c.items) {
      if (DRAWN.has(el.type)) return false;
      if (el.type === 'debug' && el.debugType === 'command' && actions.test(el.commandDescription[0] ?? '')) return false;
    }
  }
  return true;
}
