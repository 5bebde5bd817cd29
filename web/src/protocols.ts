/**
 * What the web UI needs to know per protocol and model: whether it prints labels (label view,
 * no cash drawers or NV images), the form's sensible defaults and the stock's physical size.
 * The facts come from the protocol registry (src/engines/protocols.ts) and the printer-model
 * catalogue (src/engines/models); this file only phrases them for the page.
 */
import { PROTOCOLS } from '../../src/engines/protocols.ts';
import { getModel } from '../../src/engines/models/index.ts';
import type { Protocol } from './types.ts';

/** Thermal printers print at 203 dpi (8 dots/mm) unless a printer model says otherwise. */
export const DEFAULT_DPI = 203;
const MM_PER_INCH = 25.4;

/** True for label protocols (EPL now, ZPL later): fixed-size label stock, no drawers. */
export function isLabelProtocol(protocol: Protocol | string | null | undefined): boolean {
  return !!protocol && protocol in PROTOCOLS && PROTOCOLS[protocol as Protocol].kind === 'label';
}

export interface PrinterDefaults { widthInDots: number; heightInDots: number | null; dpi: number }

/**
 * The settings a new or switched printer starts from: 80 mm continuous receipt paper
 * (576 dots) for receipt protocols, a 4 × 6 in label (812 × 1218 dots at 203 dpi) for label
 * protocols. `model` is the hook for printer models that know their own dpi and stock.
 */
export function printerDefaults(protocol: Protocol | string, model?: string | null): PrinterDefaults {
  const info = PROTOCOLS[(protocol in PROTOCOLS ? protocol : 'EscPos') as Protocol];
  const known = model ? getModel(model) : undefined;
  const dpi = known?.dpi ?? DEFAULT_DPI;
  if (info.kind === 'receipt') return { widthInDots: known?.defaultWidthInDots ?? info.defaultWidthInDots, heightInDots: null, dpi };
  // Label stock stays 4 x 6 in whatever the head's resolution: more dots at 300 / 600 dpi.
  const scale = dpi / DEFAULT_DPI;
  return { widthInDots: Math.round(info.defaultWidthInDots * scale), heightInDots: Math.round((info.defaultHeightInDots ?? 0) * scale) || null, dpi };
}

/** The printer's resolution: its model's, else the thermal default. */
export function printerDpi(settings: { protocol: string; model?: string | null }): number {
  return (settings.model ? getModel(settings.model)?.dpi : undefined) ?? DEFAULT_DPI;
}

const round = (v: number, digits: number) => Number(v.toFixed(digits)).toString();

/** "4 × 6 in (101.6 × 152.4 mm)" for 812 × 1218 dots at 203 dpi; width only for continuous paper. */
export function physicalSize(widthInDots: number, heightInDots: number | null | undefined, dpi = DEFAULT_DPI): string {
  const inch = (d: number) => round(d / dpi, 2);
  const mm = (d: number) => round((d / dpi) * MM_PER_INCH, 1);
  if (!heightInDots) return `${inch(widthInDots)} in (${mm(widthInDots)} mm) wide, continuous`;
  return `${inch(widthInDots)} × ${inch(heightInDots)} in (${mm(widthInDots)} × ${mm(heightInDots)} mm)`;
}
