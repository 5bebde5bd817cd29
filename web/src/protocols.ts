/**
 * What the web UI needs to know per protocol: whether it prints labels (label view, no cash
 * drawers or NV images) and the form's sensible defaults. One place, so the protocol
 * registry (src/engines/registry.ts) and the printer-model catalogue can be hooked in here.
 */
import type { Protocol } from './types.ts';

/** Thermal printers print at 203 dpi (8 dots/mm) unless a printer model says otherwise. */
export const DEFAULT_DPI = 203;
const MM_PER_INCH = 25.4;

/** True for label protocols (EPL now, ZPL later): fixed-size label stock, no drawers. */
export function isLabelProtocol(protocol: Protocol | string | null | undefined): boolean {
  return protocol === 'Epl' || protocol === 'Zpl';
}

export interface PrinterDefaults { widthInDots: number; heightInDots: number | null; dpi: number }

/**
 * The settings a new or switched printer starts from: 80 mm continuous receipt paper
 * (576 dots) for receipt protocols, a 4 × 6 in label (812 × 1218 dots at 203 dpi) for label
 * protocols. `model` is the hook for printer models that know their own dpi and stock.
 */
export function printerDefaults(protocol: Protocol | string, _model?: string | null): PrinterDefaults {
  return isLabelProtocol(protocol)
    ? { widthInDots: 812, heightInDots: 1218, dpi: DEFAULT_DPI }
    : { widthInDots: 576, heightInDots: null, dpi: DEFAULT_DPI };
}

/** The printer's resolution; the model catalogue will say otherwise for 300/600 dpi models. */
export function printerDpi(_settings: { protocol: string }): number {
  return DEFAULT_DPI;
}

const round = (v: number, digits: number) => Number(v.toFixed(digits)).toString();

/** "4 × 6 in (101.6 × 152.4 mm)" for 812 × 1218 dots at 203 dpi; width only for continuous paper. */
export function physicalSize(widthInDots: number, heightInDots: number | null | undefined, dpi = DEFAULT_DPI): string {
  const inch = (d: number) => round(d / dpi, 2);
  const mm = (d: number) => round((d / dpi) * MM_PER_INCH, 1);
  if (!heightInDots) return `${inch(widthInDots)} in (${mm(widthInDots)} mm) wide, continuous`;
  return `${inch(widthInDots)} × ${inch(heightInDots)} in (${mm(widthInDots)} × ${mm(heightInDots)} mm)`;
}
