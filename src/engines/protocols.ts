/**
 * The protocol list: the one source of truth for which languages a printer can speak. The
 * API enums (src/worker/schemas), the database row type, the printer object and the web UI
 * take the list from here; src/engines/registry.ts maps each name to its engine, checked at
 * compile time. This file imports no engine, so the web bundle can read it.
 *
 * Adding a protocol: its engine folder, one line here, one line in registry.ts (the compiler
 * asks for the second).
 */

export type ProtocolKind = 'receipt' | 'label';

export interface ProtocolInfo {
  kind: ProtocolKind;
  /** Short name for chips and lists: "ESC/POS". */
  displayName: string;
  /** What the printer-form offers: "ESC/POS (receipts)". */
  optionLabel: string;
  /** Paper a new printer of this protocol gets (dots; null height = continuous roll). */
  defaultWidthInDots: number;
  defaultHeightInDots: number | null;
}

export const PROTOCOLS = {
  EscPos: { kind: 'receipt', displayName: 'ESC/POS', optionLabel: 'ESC/POS (receipts)', defaultWidthInDots: 576, defaultHeightInDots: null },
  Epl: { kind: 'label', displayName: 'EPL', optionLabel: 'EPL2 (labels)', defaultWidthInDots: 812, defaultHeightInDots: 1218 },
  StarPrnt: { kind: 'receipt', displayName: 'StarPRNT', optionLabel: 'StarPRNT (Star receipts: TSP100IV, mC-Print)', defaultWidthInDots: 576, defaultHeightInDots: null },
  StarLine: { kind: 'receipt', displayName: 'Star Line', optionLabel: 'Star Line Mode (Star receipts: TSP650II)', defaultWidthInDots: 576, defaultHeightInDots: null },
  Zpl: { kind: 'label', displayName: 'ZPL', optionLabel: 'ZPL II (labels)', defaultWidthInDots: 812, defaultHeightInDots: 1218 },
} as const satisfies Record<string, ProtocolInfo>;

export type Protocol = keyof typeof PROTOCOLS;

/** The names in registry order, as a non-empty tuple (what `z.enum` takes). */
export const PROTOCOL_NAMES = Object.keys(PROTOCOLS) as [Protocol, ...Protocol[]];

export function protocolInfo(protocol: Protocol): ProtocolInfo {
  return PROTOCOLS[protocol];
}
