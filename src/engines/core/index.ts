/**
 * The engine framework's core, shared by every protocol engine (ESC/POS, EPL, Star, ZPL).
 *
 * Public shape (others build on it; keep it stable):
 * - commands.ts: `CommandEntry<M>` (prefix bytes, name, summary, length parser, handler
 *   `run(machine, bytes, raw) => Outcome`), `CommandFamily<M>`, `CommandTable<M>` (built from
 *   families plus the unknown entries; duplicate prefixes throw at load), `fixed`, `pLpH`,
 *   `arg`, `NUL_TERMINATED`.
 * - line-commands.ts: `LineCommandTable<E>`, the same table for line-oriented text commands
 *   (EPL), keyed by the command's name at the start of a line.
 * - framer.ts: `Framer<M>` frames a byte stream (any chunking) into text runs and commands by
 *   a `CommandTable<M>`, into a `FrameSink<M>` (the receipt machine is one).
 * - budget.ts: `JobBudget` (elements and rendering cost per job), `COST`, defaults.
 * - error-list.ts: `ErrorList`, a job's capped error messages.
 * - hex.ts: `toHex` (the one hex path of `commandRaw`), `hexByte`.
 * - mnemonic.ts: "ESC E 1"-style command names for descriptions.
 * PNG encoding is src/engines/raster/png.ts (`encodeBitmapPng`), barcodes
 * src/engines/raster/barcode.ts.
 *
 * Machines built on the core: src/engines/receipt (ReceiptMachine: line and page buffers,
 * fonts, styles, images, codes, cuts, text codec hook) and the label machine.
 * Bookkeeping invariant of every engine: each consumed byte is in exactly one debug element,
 * so the sum of debug `lengthInBytes` equals `bytesReceived`.
 */
export * from './budget.ts';
export * from './commands.ts';
export { ErrorList, MAX_ERROR_MESSAGES } from './error-list.ts';
export { Framer, type FrameSink } from './framer.ts';
export { LineCommandTable, type LineCommandDescriptor } from './line-commands.ts';
export { hexByte, toHex } from './hex.ts';
export { mnemonic } from './mnemonic.ts';
export { ByteBuffer } from './byte-buffer.ts';
