/**
 * The shared receipt machine (ESC/POS today, Star next): subclass `ReceiptMachine<M>` with the
 * protocol's own state, give it a `CommandTable<M>` of command families and a `TextCodec`,
 * and feed it through the core `Framer`. See machine.ts.
 */
export { ReceiptMachine, type ReceiptMachineOptions } from './machine.ts';
export { JobDocument, type Source } from './document.ts';
export { Layout } from './layout.ts';
export { FONTS, initialModes, type PrintModes, type FontMetrics, type Justification } from './state.ts';
export { tableCodes, type CodeTableInfo, type MultiByteSystem, type TextCodec } from './text.ts';
