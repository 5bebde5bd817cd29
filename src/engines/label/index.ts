/**
 * The label machine EPL and ZPL share. A label language tokenises its
 * commands itself and, per command line, asks `LabelJob.line(bytes)` for the line's debug
 * element (byte accounting, line budget); drawing commands become the language's ops in an
 * image buffer; a print command renders the buffer to elements, lays them out on the label
 * with `layoutLabel` (content extent, clipping with overflow callback, 180-degree turn) and
 * hands each copy to `LabelJob.addLabel` (canvas per copy, pending debug elements placed in
 * the first copy, label/element/cost budgets through `canPrint` and `spendRendering`).
 * `closePending` and `finish` end the job (isStatusPoll when no label printed and no error).
 * Stored forms and graphics live in a `LabelPrinterMemory<Form>`; rotations in geometry.ts.
 */
export { LabelJob, MAX_DEBUG_LINES, MAX_DRAWN_ELEMENTS, MAX_LABELS, type LabelJobOptions, type RenderedLabel } from './job.ts';
export { clip, commandSource, elementBounds, layoutLabel, rotatedBox, turn180, type CommandElements, type Rot } from './geometry.ts';
export type { LabelPrinterMemory } from './memory.ts';
