import type { PrinterContext } from '../../src/engines/canvas/printer-context.ts';

/** An idle printer (no flags, drawers closed, empty NV memory) for engine tests and benchmarks. */
export function testPrinterContext(over: Partial<PrinterContext> = {}): PrinterContext {
  return {
    widthInDots: 576,
    heightInDots: null,
    flags: { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false },
    drawer1State: 'Closed',
    drawer2State: 'Closed',
    bufferFull: false,
    nvImages: new Map(),
    ...over,
  };
}

/** A 4x6 inch label printer at 203 dpi. */
export const labelPrinterContext = (over: Partial<PrinterContext> = {}) =>
  testPrinterContext({ widthInDots: 812, heightInDots: 1218, ...over });

/** One byte per character (latin1), the way printer fixtures are written. */
export function latin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/** Bytes of the parts in order; strings are latin1. */
export function concatBytes(...parts: Array<Uint8Array | string>): Uint8Array {
  const arrays = parts.map((p) => (typeof p === 'string' ? latin1(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}
